import { z } from 'zod';
import { limits } from '../limits.js';
import { defineOperation } from '../operation.js';
import { cursorB } from '../schemas/common.js';
import {
  ACCOUNT_READ_AUTH,
  BatchUsersSchema,
  COVERAGE_ERRORS,
  ConnectedAccountRef,
  commaSeparatedIds,
  connectedAccountQuery,
  DirectMessagePageSchema,
  FollowCheckSchema,
  JobLookupSchema,
  JobRef,
  ListPageSchema,
  NOTIFICATION_FILTERS,
  NotificationPageSchema,
  PAID_LOOKUP_AUTH,
  PRIVATE_READ_AUTH,
  PRIVATE_READ_ERRORS,
  PUBLIC_READ_AUTH,
  pageSizeQuery,
  READ_ERRORS,
  SearchText,
  TweetPageSchema,
  timeWindowQuery,
  tweetFilterQuery,
  UserIdRef,
  UserListPageSchema,
  UserPageSchema,
  userFilterQuery,
  userIdParams,
  userRef,
  X_READ,
} from '../schemas/reads.js';
import { UserProfileSchema } from '../schemas/user.js';
import { NumericId, QueryBoolean } from '../zod-helpers.js';

const perResult = { kind: 'per_result', credits: 1 } as const;
const PAGING = 'Style-B pages: pass `next_cursor` back as `cursor` while `has_next_page` is true.';
const COVERAGE =
  'Deep walks resume from an opaque cursor: on 409 coverage_cursor_unavailable wait Retry-After and retry the same cursor once; on 410 coverage_cursor_gone restart without a cursor and de-duplicate by id.';
const PROTECTED = 'A protected account answers 403 x_account_protected, free of charge.';

/** The query of the follower-style lists (followers, following, verified followers). */
/** The codes of a malformed `{id}` of a user route (spec 7). */
const USER_REF_ERRORS = ['invalid_username', 'invalid_user_id'] as const;

const followListQuery = z
  .object({
    cursor: cursorB,
    after: z.string().optional().describe('Older name of `cursor`; deprecated, send `cursor`.'),
    mode: z
      .enum(['standard', 'coverage'])
      .optional()
      .describe(
        '`standard`: plain pages; `coverage`: a resumable deep walk. Omit to let the service choose.',
      ),
    ...pageSizeQuery(20, 300, 200),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(10_000)
      .optional()
      .describe('Most users to return for this request, 1-10000 (the service pages the platform for you).'),
    ...userFilterQuery,
  })
  .refine((q) => q.after === undefined || q.cursor === undefined || q.after === q.cursor, {
    error: 'invalid_params: cursor and its deprecated alias after name different pages; send cursor only',
  });

export const getBatchUsers = defineOperation({
  ...X_READ,
  id: 'getBatchUsers',
  path: '/api/v1/x/users/batch',
  tag: 'Users',
  summary: 'Look up to 100 users by id in one call',
  description: `Answers the profiles found plus counts and the ids that were unavailable or not processed; join by \`id\`. Costs 1 credit per profile returned. No ids gives 400 missing_ids, more than ${limits.batchUserIds} gives 400 too_many_ids.`,
  sdk: ['users', 'batch'],
  auth: PUBLIC_READ_AUTH,
  params: null,
  query: z.object({
    ids: commaSeparatedIds(limits.batchUserIds, 'user').describe(
      `Comma-separated numeric user ids, 1-${limits.batchUserIds}.`,
    ),
  }),
  response: BatchUsersSchema,
  errors: [...READ_ERRORS, 'missing_ids', 'too_many_ids'],
  pagination: 'B',
  items: 'users',
  cost: perResult,
  example: 'users batch --ids 12,783214',
});

export const searchUsers = defineOperation({
  ...X_READ,
  id: 'searchUsers',
  path: '/api/v1/x/users/search',
  tag: 'Users',
  summary: 'Search users by name or username',
  description: `${PAGING} Costs 1 credit per user returned.`,
  sdk: ['users', 'search'],
  auth: PUBLIC_READ_AUTH,
  params: null,
  query: z.object({
    q: SearchText.describe('Words to find in names and usernames.'),
    cursor: cursorB,
    ...pageSizeQuery(1, 100, 20),
    ...userFilterQuery,
  }),
  response: UserPageSchema,
  errors: [...READ_ERRORS, 'missing_query'],
  pagination: 'B',
  items: 'users',
  cost: perResult,
  example: 'users search --q "open source" --min-followers 1000',
});

export const getUser = defineOperation({
  ...X_READ,
  id: 'getUser',
  path: '/api/v1/x/users/{id}',
  tag: 'Users',
  summary: 'Get a user profile with follower counts and verification',
  description: 'Costs 1 credit per call, or a machine payment of USD 0.00015.',
  sdk: ['users', 'get'],
  auth: PAID_LOOKUP_AUTH,
  params: userIdParams,
  query: null,
  response: UserProfileSchema,
  errors: [...READ_ERRORS, ...USER_REF_ERRORS, 'user_not_found'],
  pagination: null,
  cost: { kind: 'per_call', credits: 1, mppMicroUsd: 150 },
  example: 'users get jack',
});

export const checkFollow = defineOperation({
  ...X_READ,
  id: 'checkFollow',
  path: '/api/v1/x/followers/check',
  tag: 'Users',
  summary: 'Check whether one user follows another, and the reverse',
  description: 'Costs 1 credit per call, or a machine payment of USD 0.00075.',
  sdk: ['users', 'checkFollow'],
  auth: PAID_LOOKUP_AUTH,
  params: null,
  query: z.object({
    source: userRef('source and target are both required').describe(
      'The possible follower: user id, username (with or without @) or profile URL.',
    ),
    target: userRef('source and target are both required').describe(
      'The possibly followed account: user id, username or profile URL.',
    ),
  }),
  response: FollowCheckSchema,
  errors: [...READ_ERRORS, 'missing_params', 'invalid_username', 'invalid_user_id', 'user_not_found'],
  pagination: null,
  cost: { kind: 'per_call', credits: 1, mppMicroUsd: 750 },
  example: 'users check-follow --source jack --target biz',
});

const timelineErrors = [...READ_ERRORS, ...USER_REF_ERRORS, 'user_not_found', 'x_account_protected'] as const;
const timelineCoverageErrors = [...timelineErrors, ...COVERAGE_ERRORS] as const;

/** The tweet timelines of a user (tweets, replies, likes, media, mentions) differ only in a few fields. */
function userTimeline<const Id extends string, const Action extends string>(o: {
  id: Id;
  segment: string;
  summary: string;
  action: Action;
  coverage: boolean;
  note?: string;
}) {
  return {
    ...X_READ,
    id: o.id,
    path: `/api/v1/x/users/{id}/${o.segment}`,
    tag: 'Users',
    summary: o.summary,
    description: `${o.note ? `${o.note} ` : ''}${PAGING} ${o.coverage ? `${COVERAGE} ` : ''}${PROTECTED} Costs 1 credit per tweet returned.`,
    sdk: ['users', o.action],
    auth: PUBLIC_READ_AUTH,
    params: userIdParams,
    response: TweetPageSchema,
    errors: o.coverage ? timelineCoverageErrors : timelineErrors,
    pagination: 'B',
    items: 'tweets',
    cost: perResult,
    example: `users ${o.action} jack --page-size 50`,
  } as const;
}

export const getUserTweets = defineOperation({
  ...userTimeline({
    id: 'getUserTweets',
    segment: 'tweets',
    summary: 'List the recent tweets of a user',
    action: 'tweets',
    coverage: true,
  }),
  query: z.object({
    cursor: cursorB,
    ...pageSizeQuery(1, 300, 20),
    includeReplies: QueryBoolean.default(false).describe('Also list the replies the user posted.'),
    includeParentTweet: QueryBoolean.default(false).describe('Attach the tweet each reply answers.'),
    ...tweetFilterQuery,
  }),
});

export const getUserReplies = defineOperation({
  ...userTimeline({
    id: 'getUserReplies',
    segment: 'replies',
    summary: "List a user's tweets and replies",
    action: 'replies',
    coverage: true,
  }),
  query: z.object({
    cursor: cursorB,
    ...pageSizeQuery(1, 300, 20),
    includeParentTweet: QueryBoolean.default(false).describe('Attach the tweet each reply answers.'),
    ...tweetFilterQuery,
  }),
});

export const getUserLikes = defineOperation({
  ...userTimeline({
    id: 'getUserLikes',
    segment: 'likes',
    summary: 'List the tweets a user liked',
    action: 'likes',
    coverage: false,
  }),
  query: z.object({ cursor: cursorB, ...pageSizeQuery(1, 100, 20), ...tweetFilterQuery }),
});

export const getUserMedia = defineOperation({
  ...userTimeline({
    id: 'getUserMedia',
    segment: 'media',
    summary: 'List the tweets with media a user posted',
    action: 'media',
    coverage: false,
  }),
  query: z.object({ cursor: cursorB, ...pageSizeQuery(1, 100, 20), ...tweetFilterQuery }),
});

export const getUserMentions = defineOperation({
  ...userTimeline({
    id: 'getUserMentions',
    segment: 'mentions',
    summary: 'List the tweets that mention a user',
    action: 'mentions',
    coverage: false,
  }),
  query: z.object({ cursor: cursorB, ...pageSizeQuery(1, 100, 20), ...timeWindowQuery, ...tweetFilterQuery }),
});

export const getFollowersYouKnow = defineOperation({
  ...X_READ,
  id: 'getFollowersYouKnow',
  path: '/api/v1/x/users/{id}/followers-you-know',
  tag: 'Users',
  summary: 'List the followers of a user that you also follow',
  description: `${PAGING} Costs 1 credit per user returned.`,
  sdk: ['users', 'followersYouKnow'],
  auth: PUBLIC_READ_AUTH,
  params: userIdParams,
  query: z.object({ cursor: cursorB, ...pageSizeQuery(20, 200, 200), ...userFilterQuery }),
  response: UserPageSchema,
  errors: [...READ_ERRORS, ...USER_REF_ERRORS, 'user_not_found'],
  pagination: 'B',
  items: 'users',
  cost: perResult,
  example: 'users followers-you-know jack',
});

export const getNotifications = defineOperation({
  ...X_READ,
  id: 'getNotifications',
  path: '/api/v1/x/notifications',
  tag: 'Users',
  summary: 'List the notifications of a connected account',
  description: `Private read: needs an API key or session and a connected account. ${PAGING} Costs 1 credit per notification returned.`,
  sdk: ['notifications', 'list'],
  auth: PRIVATE_READ_AUTH,
  params: null,
  query: z.object({
    ...connectedAccountQuery,
    type: z
      .enum(NOTIFICATION_FILTERS)
      .optional()
      .describe('`All` notifications, those from `Verified` accounts, or `Mentions` only.'),
    cursor: cursorB,
  }),
  response: NotificationPageSchema,
  errors: [...READ_ERRORS, ...PRIVATE_READ_ERRORS],
  pagination: 'B',
  items: 'notifications',
  cost: perResult,
  example: 'notifications list --account myhandle --type Mentions',
});

export const getDmHistory = defineOperation({
  ...X_READ,
  id: 'getDmHistory',
  path: '/api/v1/x/dm/{userId}/history',
  tag: 'Users',
  summary: 'Read the direct-message conversation of a connected account with a user',
  description: `Private read: needs an API key or session and the connected account that holds the conversation. ${PAGING} Costs 1 credit per message returned.`,
  sdk: ['dms', 'history'],
  auth: PRIVATE_READ_AUTH,
  params: z.object({ userId: UserIdRef.describe('Numeric user id of the other participant.') }),
  query: z.object({
    account: ConnectedAccountRef.describe('Connected account whose conversation to read (@username or id).'),
    cursor: cursorB,
    maxId: NumericId.optional().describe('Only messages with an id up to this one.'),
  }),
  response: DirectMessagePageSchema,
  errors: [...READ_ERRORS, ...PRIVATE_READ_ERRORS, 'invalid_user_id', 'dm_not_permitted', 'user_not_found'],
  pagination: 'B',
  items: 'messages',
  cost: perResult,
  example: 'dms history 783214 --account myhandle',
});

export const getUserFollowers = defineOperation({
  ...X_READ,
  id: 'getUserFollowers',
  path: '/api/v1/x/users/{id}/followers',
  tag: 'Users',
  summary: 'List the followers of a user',
  description: `${PAGING} \`after\` is the deprecated older name of \`cursor\`; both are accepted. ${COVERAGE} ${PROTECTED} Costs 1 credit per user returned.`,
  sdk: ['users', 'followers'],
  auth: PUBLIC_READ_AUTH,
  params: userIdParams,
  query: followListQuery,
  response: UserListPageSchema,
  errors: [...timelineCoverageErrors, 'invalid_params'],
  pagination: 'B',
  items: 'users',
  cost: perResult,
  deprecated: { params: { after: 'cursor' }, since: 1767225600 },
  example: 'users followers jack --page-size 200',
});

export const getUserFollowing = defineOperation({
  ...X_READ,
  id: 'getUserFollowing',
  path: '/api/v1/x/users/{id}/following',
  tag: 'Users',
  summary: 'List the accounts a user follows',
  description: `${PAGING} ${COVERAGE} ${PROTECTED} Costs 1 credit per user returned.`,
  sdk: ['users', 'following'],
  auth: PUBLIC_READ_AUTH,
  params: userIdParams,
  query: followListQuery,
  response: UserListPageSchema,
  errors: [...timelineCoverageErrors, 'invalid_params'],
  pagination: 'B',
  items: 'users',
  cost: perResult,
  example: 'users following jack',
});

export const getUserVerifiedFollowers = defineOperation({
  ...X_READ,
  id: 'getUserVerifiedFollowers',
  path: '/api/v1/x/users/{id}/verified-followers',
  tag: 'Users',
  summary: 'List the verified followers of a user',
  description: `${PAGING} ${COVERAGE} ${PROTECTED} Costs 1 credit per user returned.`,
  sdk: ['users', 'verifiedFollowers'],
  auth: PUBLIC_READ_AUTH,
  params: userIdParams,
  query: followListQuery,
  response: UserListPageSchema,
  errors: [...timelineCoverageErrors, 'invalid_params'],
  pagination: 'B',
  items: 'users',
  cost: perResult,
  example: 'users verified-followers jack',
});

const { defaultPageSize, minPageSize, maxPageSize } = limits.listMemberships;
const membershipPageSize = (what: string) =>
  z.coerce.number().int().min(minPageSize).max(maxPageSize).optional().describe(what);

export const getUserListMemberships = defineOperation({
  ...X_READ,
  id: 'getUserListMemberships',
  path: '/api/v1/x/users/{id}/list-memberships',
  tag: 'Users',
  summary: 'List the lists a user is a member of',
  description: `Page size ${minPageSize}-${maxPageSize}, default ${defaultPageSize}, as \`pageSize\` or any of its aliases (the first one sent, in the listed order, counts). ${PAGING} Costs 1 credit per list returned; an empty page is free. ${PROTECTED}`,
  sdk: ['users', 'listMemberships'],
  auth: ACCOUNT_READ_AUTH,
  params: userIdParams,
  query: z.object({
    cursor: cursorB,
    pageSize: membershipPageSize(
      `Lists per page, ${minPageSize}-${maxPageSize} (default ${defaultPageSize}).`,
    ),
    limit: membershipPageSize('Alias of `pageSize`.'),
    count: membershipPageSize('Alias of `pageSize`.'),
    max_results: membershipPageSize('Alias of `pageSize`.'),
    maxItems: membershipPageSize('Alias of `pageSize`.'),
    max_items: membershipPageSize('Alias of `pageSize`.'),
    per_page: membershipPageSize('Alias of `pageSize`.'),
  }),
  response: ListPageSchema,
  errors: [...READ_ERRORS, ...USER_REF_ERRORS, 'user_not_found', 'x_account_protected'],
  pagination: 'B',
  items: 'lists',
  cost: perResult,
  example: 'users list-memberships jack --page-size 50',
});

export const getJob = defineOperation({
  ...X_READ,
  id: 'getJob',
  path: '/api/v1/x/jobs/{id}',
  tag: 'Users',
  summary: 'Get a job listing posted on the platform',
  description:
    'Costs 1 credit per call. A closed or missing job is 404 job_not_found and is free; 503 x_api_unavailable is free too; an id that is neither a numeric job id nor a job URL is 400 invalid_job_id.',
  sdk: ['jobs', 'get'],
  auth: ACCOUNT_READ_AUTH,
  params: z.object({ id: JobRef.describe('The job: its numeric id, or its URL (URL-encoded).') }),
  query: null,
  response: JobLookupSchema,
  errors: [...READ_ERRORS, 'invalid_job_id', 'job_not_found'],
  pagination: null,
  cost: { kind: 'per_call', credits: 1 },
  example: 'jobs get 1790000000000000001',
});

/** The Users operations. */
export const usersOperations = [
  getBatchUsers,
  searchUsers,
  getUser,
  checkFollow,
  getUserTweets,
  getUserReplies,
  getUserLikes,
  getUserMedia,
  getFollowersYouKnow,
  getNotifications,
  getDmHistory,
  getUserFollowers,
  getUserFollowing,
  getUserMentions,
  getUserVerifiedFollowers,
  getUserListMemberships,
  getJob,
] as const;
