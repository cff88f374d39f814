/**
 * Schemas of the platform reads (`/x/*`, trends, articles, media download, viral score): the request
 * building blocks they share (identifier forms, page sizes, the tweet and user filter sets) and the resources
 * they answer with.
 */
import { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import { limits } from '../limits.js';
import { IsoDate, IsoDateTime, NumericId, openEnum, QueryBoolean } from '../zod-helpers.js';
import { pageB } from './common.js';
import { TweetAuthorSchema, TweetSchema } from './tweet.js';
import { UserProfileSchema } from './user.js';

// ---------------------------------------------------------------------------------------------------------
// Operation building blocks shared by the read tag files (tweets, users, lists, communities, trends, ...)
// ---------------------------------------------------------------------------------------------------------

/** Credentials of public platform reads: an account credential, or a guest key (spec 5.5). */
export const PUBLIC_READ_AUTH = ['apiKey', 'oauth', 'session', 'guest'] as const;
/** Credentials of the 7 fixed-price reads: as public reads, plus a machine payment (spec 5.4). */
export const PAID_LOOKUP_AUTH = ['apiKey', 'oauth', 'session', 'guest', 'payment'] as const;
/**
 * Credentials of the paid public reads outside the guest keys' 33 routes (spec 5.1, 5.5: 26 paid reads plus
 * the 7 machine-payment reads): an account credential only.
 */
export const ACCOUNT_READ_AUTH = ['apiKey', 'oauth', 'session'] as const;
/** Credentials of private reads (bookmarks, timeline, notifications, direct messages): an account only. */
export const PRIVATE_READ_AUTH = ['apiKey', 'oauth', 'session'] as const;

/** Errors every paid platform read may answer with, beyond 401 and 429. */
export const READ_ERRORS = [
  'invalid_input',
  'no_credits',
  'insufficient_credits',
  'x_api_unavailable',
] as const satisfies readonly ErrorCode[];
/**
 * Errors of reads that walk the platform with a resumable coverage cursor; `service_unavailable` (503) is
 * the reference's `MaximumCoverageBusy`: too many coverage reads at once, retry after `Retry-After`.
 */
export const COVERAGE_ERRORS = [
  'invalid_coverage_cursor',
  'coverage_cursor_unavailable',
  'coverage_cursor_gone',
  'service_unavailable',
] as const satisfies readonly ErrorCode[];
/** Errors of private reads, which act through a connected account. */
export const PRIVATE_READ_ERRORS = [
  'account_required',
  'account_not_found',
  'account_needs_reauth',
  'account_restricted',
  'x_auth_failure',
] as const satisfies readonly ErrorCode[];

/** Fields every GET read shares. */
export const X_READ = { method: 'GET', body: null, success: [200], idempotent: true } as const;

// ---------------------------------------------------------------------------------------------------------
// Identifier forms
// ---------------------------------------------------------------------------------------------------------

const TWEET_URL =
  /^https?:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/(?:[A-Za-z0-9_]{1,15}|i\/web|i)\/status(?:es)?\/\d{1,25}(?:[/?#].*)?$/i;
const PROFILE_URL = /^https?:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/@?[A-Za-z0-9_]{1,15}\/?(?:[?#].*)?$/i;
const JOB_URL = /^https?:\/\/(?:www\.)?(?:x|twitter)\.com\/(?:i\/)?jobs\/\d{1,25}(?:[/?#].*)?$/i;
const DIGITS = /^\d{1,25}$/;
const USERNAME = /^@?[A-Za-z0-9_]{1,15}$/;

/**
 * A tweet as a path or body value: its numeric id, or a tweet URL (URL-encoded in a path). Anything else is
 * 400 `invalid_tweet_id`.
 */
export const TweetRef = z
  .string()
  .trim()
  .refine(
    (v) => DIGITS.test(v) || TWEET_URL.test(v),
    'invalid_tweet_id: must be a numeric tweet id or a tweet URL',
  );

/**
 * A user as a path or query value: a numeric user id, a username with or without @, or a profile URL
 * (URL-encoded in a path). An all-digit value is read as an id.
 */
export const UserRef = userRef();

/**
 * {@link UserRef} with its own codes (spec 7): an all-digit value too long for an id is 400
 * `invalid_user_id`, anything else that is no username or profile URL 400 `invalid_username`; `missing`, when
 * given, is the message of an absent value (a required query parameter: 400 `missing_params`).
 */
export function userRef(missing?: string) {
  return z
    .string(
      missing ? { error: (iss) => (iss.input === undefined ? `missing_params: ${missing}` : undefined) } : {},
    )
    .trim()
    .refine((v) => DIGITS.test(v) || USERNAME.test(v) || PROFILE_URL.test(v), {
      error: (iss) =>
        /^\d+$/.test(String(iss.input))
          ? 'invalid_user_id: a numeric user id has at most 25 digits'
          : 'invalid_username: must be a numeric user id, a username (1-15 letters, digits or _, with or without @) or a profile URL',
    });
}

/** A user by handle: a username with or without @, or a profile URL. Else 400 `invalid_username`. */
export const UsernameRef = z
  .string()
  .trim()
  .refine(
    (v) => USERNAME.test(v) || PROFILE_URL.test(v),
    'invalid_username: must be a username (with or without @) or a profile URL',
  );

/** A numeric platform user id. Else 400 `invalid_user_id`. */
export const UserIdRef = z.string().regex(/^\d{1,25}$/, 'invalid_user_id: must be a numeric user id');

/** A job listing as a path value: its numeric id or its URL (URL-encoded). Else 400 `invalid_job_id`. */
export const JobRef = z
  .string()
  .trim()
  .refine((v) => DIGITS.test(v) || JOB_URL.test(v), 'invalid_job_id: must be a numeric job id or a job URL');

/** A connected account named in a private read: its @username or its id (a leading @ is stripped). */
export const ConnectedAccountRef = z
  .string()
  .trim()
  .overwrite((v) => v.replace(/^@/, ''))
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be the @username or id of a connected account');

/** The `account` query parameter of private reads: optional, needed when several accounts are connected. */
export const connectedAccountQuery = {
  account: ConnectedAccountRef.optional().describe(
    'Connected account to read as (@username or id); needed when several are connected.',
  ),
};

/** The `{id}` path parameter of tweet routes. */
export const tweetIdParams = z.object({
  id: TweetRef.describe('The tweet: its numeric id, or its URL (URL-encoded).'),
});

/** The `{id}` path parameter of user routes. */
export const userIdParams = z.object({
  id: UserRef.describe(
    'The user: numeric user id, username with or without @, or profile URL (URL-encoded).',
  ),
});

/**
 * A required comma-separated id list (`ids=1,2,3`; a repeated parameter is joined), parsed to an array:
 * absent or empty gives 400 `missing_ids`, more than `max` gives 400 `too_many_ids`. SDK callers may pass an
 * array; it is sent comma-joined.
 */
export function commaSeparatedIds(max: number, what: string) {
  return z
    .union([z.string(), z.array(z.string())], {
      error: (iss) => (iss.input === undefined ? `missing_ids: ${what} ids are required` : undefined),
    })
    .transform((v) =>
      (Array.isArray(v) ? v.join(',') : v)
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t.length > 0),
    )
    .pipe(
      z
        .array(NumericId)
        .min(1, `missing_ids: at least one ${what} id is required`)
        .max(max, `too_many_ids: at most ${max} ${what} ids per request`),
    );
}

/** A required search text (`q`): absent or empty gives 400 `missing_query`. */
export const SearchText = z
  .string({ error: (iss) => (iss.input === undefined ? 'missing_query: q is required' : undefined) })
  .trim()
  .min(1, 'missing_query: q must not be empty');

/** The `pageSize` parameter of a style-B read: results per page, with the reference's bounds and default. */
export function pageSizeQuery(min: number, max: number, defaultSize: number) {
  return {
    pageSize: z.coerce
      .number()
      .int()
      .min(min)
      .max(max)
      .default(defaultSize)
      .describe(`Results per page, ${min}-${max} (default ${defaultSize}).`),
  };
}

/** A time bound in a query: ISO 8601 with an offset, or Unix seconds. */
export const TimeBoundQuery = z.union([IsoDateTime, z.string().regex(/^\d{1,12}$/, 'must be Unix seconds')]);

/** A time bound in a JSON body: ISO 8601 with an offset, or Unix seconds (number or digit string). */
export const TimeBoundBody = z.union([
  IsoDateTime,
  z.number().int().min(0),
  z.string().regex(/^\d{1,12}$/, 'must be Unix seconds'),
]);

/** `sinceTime` / `untilTime`: a time window on the tweets returned. */
export const timeWindowQuery = {
  sinceTime: TimeBoundQuery.optional().describe(
    'Only tweets posted at or after this time (ISO 8601 or Unix seconds).',
  ),
  untilTime: TimeBoundQuery.optional().describe(
    'Only tweets posted before this time (ISO 8601 or Unix seconds).',
  ),
};

// ---------------------------------------------------------------------------------------------------------
// The shared filter sets (reference parameters TweetFilter* and UserFilter*). Built once, spread into each
// operation's query, so every operation holds the very same field schemas.
// ---------------------------------------------------------------------------------------------------------

/** Values of the `mediaType` tweet filter. */
export const TWEET_MEDIA_FILTERS = ['images', 'videos', 'gifs', 'media', 'links', 'none'] as const;
/** Values of the `replies`, `retweets` and `quotes` tweet filters. */
export const INCLUSION_FILTERS = ['include', 'exclude', 'only'] as const;

const atLeast = (what: string) =>
  z.coerce.number().int().min(0).optional().describe(`Only tweets with at least this many ${what}.`);
const atMost = (what: string) =>
  z.coerce.number().int().min(0).optional().describe(`Only tweets with at most this many ${what}.`);
const inclusion = (what: string) =>
  z
    .enum(INCLUSION_FILTERS)
    .optional()
    .describe(`\`include\` ${what} (default), \`exclude\` them, or return \`only\` ${what}.`);
const text = (what: string) => z.string().min(1).optional().describe(what);

/**
 * The tweet filters every filtered tweet read accepts, the thread read included (32 parameters): author,
 * language, dates, media, engagement bounds, verification, reply/repost/quote handling, words and links.
 */
export const tweetMatchFilterQuery = {
  fromUser: text('Only tweets posted by this username (without @).'),
  toUser: text('Only tweets that reply to this username (without @).'),
  mentioning: text('Only tweets that mention this username (without @).'),
  language: text('Only tweets in this language (ISO 639-1 code such as `en`).'),
  sinceDate: IsoDate.optional().describe('Only tweets posted on or after this day (YYYY-MM-DD, inclusive).'),
  untilDate: IsoDate.optional().describe('Only tweets posted before this day (YYYY-MM-DD, exclusive).'),
  mediaType: z
    .enum(TWEET_MEDIA_FILTERS)
    .optional()
    .describe('Only tweets with `images`, `videos`, `gifs`, any `media`, `links`, or `none` of these.'),
  minFaves: atLeast('likes'),
  minRetweets: atLeast('reposts'),
  minReplies: atLeast('replies'),
  minQuotes: atLeast('quote tweets'),
  minViews: atLeast('views'),
  minBookmarks: atLeast('bookmarks'),
  maxFaves: atMost('likes'),
  maxRetweets: atMost('reposts'),
  maxReplies: atMost('replies'),
  maxQuotes: atMost('quote tweets'),
  blueVerifiedOnly: QueryBoolean.optional().describe(
    'Only tweets from accounts with paid (blue) verification.',
  ),
  verifiedOnly: QueryBoolean.optional().describe('Only tweets from verified accounts of any kind.'),
  replies: inclusion('replies'),
  retweets: inclusion('reposts'),
  quotes: inclusion('quote tweets'),
  exactPhrase: text('Only tweets containing this exact phrase.'),
  excludeWords: text('Comma-separated words that must not appear.'),
  anyWords: text('Comma-separated words of which at least one must appear.'),
  hashtags: text('Comma-separated hashtags (with or without #) that must appear.'),
  cashtags: text('Comma-separated cashtags (with or without $) that must appear.'),
  url: text('Only tweets linking to this URL or domain.'),
  conversationId: NumericId.optional().describe('Only tweets of the conversation started by this tweet id.'),
  inReplyToTweetId: NumericId.optional().describe('Only direct replies to this tweet id.'),
  quotesOfTweetId: NumericId.optional().describe('Only quote tweets of this tweet id.'),
  retweetsOfTweetId: NumericId.optional().describe('Only reposts of this tweet id.'),
};

/** The search-operator filters that most filtered tweet reads accept beside {@link tweetMatchFilterQuery}. */
export const tweetOperatorFilterQuery = {
  cardName: text('Only tweets carrying this card type (for example `poll2choice_text_only`).'),
  source: text('Only tweets posted with this client (as the platform names it).'),
  excludeSource: text('Leave out tweets posted with this client.'),
  geocode: text('Only tweets near a point: `latitude,longitude,radius` (radius in km or mi).'),
  sinceId: NumericId.optional().describe('Only tweets with an id greater than this one.'),
  maxId: NumericId.optional().describe('Only tweets with an id up to this one.'),
  near: text('Only tweets geotagged near this place name.'),
  within: text('Radius around `near`, such as `15km` or `10mi`.'),
  withinTime: text('Only tweets from this recent span, such as `2h`, `3d` or `30m`.'),
  nativeRetweets: QueryBoolean.optional().describe('Only native reposts.'),
  safe: QueryBoolean.optional().describe('Leave out tweets marked as sensitive.'),
  news: QueryBoolean.optional().describe('Only tweets that link to news articles.'),
};

/** Every tweet filter (44 parameters): the match filters and the search-operator filters. */
export const tweetFilterQuery = { ...tweetMatchFilterQuery, ...tweetOperatorFilterQuery };

const userAtLeast = (what: string) =>
  z.coerce.number().int().min(0).optional().describe(`Only users with at least ${what}.`);
const userAtMost = (what: string) =>
  z.coerce.number().int().min(0).optional().describe(`Only users with at most ${what}.`);

/** The user filters of user-list reads (followers, members, likers, search results, ...). */
export const userFilterQuery = {
  minFollowers: userAtLeast('this many followers'),
  maxFollowers: userAtMost('this many followers'),
  minFollowing: userAtLeast('this many followed accounts'),
  maxFollowing: userAtMost('this many followed accounts'),
  minStatuses: userAtLeast('this many tweets'),
  maxStatuses: userAtMost('this many tweets'),
  minAccountAgeDays: userAtLeast('this many days since the account was created'),
  verifiedOnly: QueryBoolean.optional().describe('Only verified users.'),
  verifiedType: text('Only users with this kind of verification (`blue`, `business`, `government`).'),
  hasWebsite: QueryBoolean.optional().describe(
    'Only users whose profile has (true) or lacks (false) a website.',
  ),
  hasLocation: QueryBoolean.optional().describe(
    'Only users whose profile has (true) or lacks (false) a location.',
  ),
  bioContains: text('Only users whose bio contains this text (case-insensitive).'),
  locationContains: text('Only users whose location contains this text (case-insensitive).'),
  usernameContains: text('Only users whose username contains this text (case-insensitive).'),
};

/** Tweet search: `queryType`. */
export const QUERY_TYPES = ['Latest', 'Top'] as const;

// ---------------------------------------------------------------------------------------------------------
// Coverage diagnostics (automatic resumable coverage of search, replies and follower lists)
// ---------------------------------------------------------------------------------------------------------

/** Why a coverage walk stopped (reference `CoverageStopReason`). */
export const COVERAGE_STOP_REASONS = [
  'cursor_failure',
  'deadline',
  'exhausted',
  'failed',
  'page_limit',
  'result_limit',
  'stalled',
] as const;

const coverageShape = {
  mode: openEnum(['coverage', 'automatic']).describe(
    '`coverage` when asked for, `automatic` when the service chose it.',
  ),
  complete: z.boolean().describe('True when every reachable result has been returned over the pages so far.'),
  stopReason: openEnum(COVERAGE_STOP_REASONS)
    .optional()
    .describe('Why this answer stopped reading the platform; omitted while the walk simply continues.'),
  platformPages: z.number().int().min(0).optional().describe('Platform pages read to build this answer.'),
  duplicatesRemoved: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Results dropped because they were seen before.'),
  cursorExpiresAt: z.string().optional().describe('When `next_cursor` stops being resumable (ISO 8601).'),
};

/** The coverage diagnostic of a tweet search (reference `TweetSearchCoverageDiagnostic`). */
export const TweetSearchCoverageDiagnosticSchema = z.object({
  ...coverageShape,
  newestId: z.string().optional().describe('Id of the newest tweet returned so far.'),
  oldestId: z.string().optional().describe('Id of the oldest tweet returned so far.'),
});

/** The coverage diagnostic of a replies read (reference `ReplyCoverageDiagnostic`). */
export const ReplyCoverageDiagnosticSchema = z.object({
  ...coverageShape,
  expectedReplies: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Reply count the platform shows on the tweet.'),
  directReplyCount: z.number().int().min(0).optional().describe('Direct replies returned so far.'),
  nestedReplyCount: z.number().int().min(0).optional().describe('Replies to replies returned so far.'),
  maxDepthReached: z.number().int().min(0).optional().describe('Deepest reply level reached.'),
});

/** The coverage diagnostic of a follower-style user list (reference `UserListCoverageDiagnostic`). */
export const UserListCoverageDiagnosticSchema = z.object({
  ...coverageShape,
  expectedUsers: z.number().int().min(0).optional().describe('Count the platform shows on the profile.'),
});

// ---------------------------------------------------------------------------------------------------------
// Page envelopes
// ---------------------------------------------------------------------------------------------------------

/** A style-B page of tweets (reference `PaginatedTweets`). */
export const TweetPageSchema = pageB('tweets', TweetSchema);
/** A style-B page of user profiles (reference `PaginatedUsers`). */
export const UserPageSchema = pageB('users', UserProfileSchema);

/** A tweet search page; with coverage (requested or automatic) it carries a `diagnostic`. */
export const TweetSearchPageSchema = TweetPageSchema.extend({
  diagnostic: TweetSearchCoverageDiagnosticSchema.optional().describe('Coverage details, in coverage mode.'),
});

/** A page of replies to a tweet (reference `TweetReplies`). */
export const TweetRepliesPageSchema = TweetPageSchema.extend({
  nested_replies: z
    .array(TweetSchema)
    .optional()
    .describe('Replies to the replies of this page, when nested replies were asked for (`scope`).'),
  diagnostic: ReplyCoverageDiagnosticSchema.optional().describe('Coverage details of the replies walk.'),
});

/** A page of followers, followings or verified followers; with coverage it carries a `diagnostic`. */
export const UserListPageSchema = UserPageSchema.extend({
  diagnostic: UserListCoverageDiagnosticSchema.optional().describe('Coverage details, in coverage mode.'),
});

/** The answer of a batch tweet lookup: one page, never a next one. Join by `id`, not by order. */
export const BatchTweetsSchema = z.object({
  tweets: z.array(TweetSchema).describe('The tweets found (fewer than asked when credits run short).'),
  has_next_page: z.literal(false).describe('Always false.'),
  next_cursor: z.literal('').describe('Always empty.'),
});

/** The answer of a batch user lookup (reference `BatchUsers`). */
export const BatchUsersSchema = z.object({
  users: z.array(UserProfileSchema).describe('The profiles found.'),
  has_next_page: z.literal(false).describe('Always false.'),
  next_cursor: z.literal('').describe('Always empty.'),
  requested_count: z.number().int().min(0).max(100).describe('Ids in the request.'),
  processed_count: z.number().int().min(0).max(100).describe('Ids looked up (fewer when credits ran short).'),
  returned_count: z.number().int().min(0).max(100).describe('Profiles returned.'),
  unavailable_ids: z.array(NumericId).describe('Looked-up ids with no visible profile.'),
  unprocessed_ids: z.array(NumericId).describe('Ids not looked up, for example for lack of credits.'),
});

/** The answer of a single tweet lookup. */
export const TweetLookupSchema = z.object({
  tweet: TweetSchema.describe('The tweet, with full text, metrics and media.'),
  author: TweetAuthorSchema.optional().describe('Its author; omitted when unavailable.'),
});

/** The answer of a follow check. */
export const FollowCheckSchema = z.object({
  isFollowing: z.boolean().describe('True when the source follows the target.'),
  isFollowedBy: z.boolean().describe('True when the target follows the source.'),
  sourceUsername: z.string().describe('Username of the source, without @.'),
  targetUsername: z.string().describe('Username of the target, without @.'),
});

// ---------------------------------------------------------------------------------------------------------
// Private reads: bookmark folders, notifications, direct messages
// ---------------------------------------------------------------------------------------------------------

/** A bookmark folder of the connected account. */
export const BookmarkFolderSchema = z.object({
  id: z.string().describe('Folder id; pass it as `folderId` to list its bookmarks.'),
  name: z.string().describe('Folder name.'),
  createdAt: z.string().optional().describe('When the folder was created (ISO 8601).'),
});

/** A page of bookmark folders. */
export const BookmarkFolderPageSchema = pageB('folders', BookmarkFolderSchema);

/** Values of the notifications `type` filter. */
export const NOTIFICATION_FILTERS = ['All', 'Verified', 'Mentions'] as const;

/** A notification of the connected account. */
export const NotificationSchema = z.object({
  id: z.string().describe('Notification id.'),
  type: z.string().describe('What happened (`like`, `retweet`, `follow`, `mention`, `reply`, ...).'),
  createdAt: z.string().describe('When it happened (ISO 8601).'),
  text: z.string().optional().describe('The notification as the platform words it.'),
  users: z.array(UserProfileSchema).optional().describe('Accounts that acted.'),
  tweet: TweetSchema.optional().describe('Tweet the notification is about.'),
});

/** A page of notifications. */
export const NotificationPageSchema = pageB('notifications', NotificationSchema);

/** A direct message. */
export const DirectMessageSchema = z.object({
  id: z.string().describe('Message id.'),
  senderId: z.string().describe('User id of the sender.'),
  receiverId: z.string().describe('User id of the receiver.'),
  text: z.string().optional().describe('Text of the message.'),
  createdAt: z.string().optional().describe('When it was sent (ISO 8601).'),
  mediaUrl: z.string().optional().describe('URL of an attached image, GIF or video; omitted when none.'),
});

/** A page of a direct-message conversation, newest first. */
export const DirectMessagePageSchema = pageB('messages', DirectMessageSchema);

// ---------------------------------------------------------------------------------------------------------
// Lists, communities, trends, articles, jobs, media download
// ---------------------------------------------------------------------------------------------------------

/** A platform list (list-memberships results, spec 2.12). */
export const ListSchema = z.object({
  id: NumericId.describe('List id (numeric string).'),
  name: z.string().describe('List name.'),
  description: z.string().describe('List description; empty when there is none.'),
  memberCount: z.number().int().min(0).describe('Number of members.'),
  subscriberCount: z.number().int().min(0).describe('Number of followers of the list.'),
  owner: UserProfileSchema.describe('Profile of the list owner.'),
  url: z.string().describe('Page of the list on the platform.'),
  createdAt: z.string().describe('When the list was created (ISO 8601).'),
  bannerUrl: z.string().optional().describe('Banner image; omitted when none.'),
  memberAvatarUrls: z.array(z.string()).describe('Avatar URLs of a few members.'),
  memberCountText: z.string().describe('Member count as the platform displays it (`1.2K members`).'),
});

/** A page of lists a user belongs to. */
export const ListPageSchema = pageB('lists', ListSchema);

/** A community rule. */
export const CommunityRuleSchema = z.object({
  name: z.string().describe('Short rule title.'),
  description: z.string().optional().describe('Longer explanation of the rule.'),
});

/** A community. */
export const CommunitySchema = z.object({
  id: NumericId.describe('Community id.'),
  name: z.string().describe('Community name.'),
  description: z.string().optional().describe('Community description.'),
  memberCount: z.number().int().min(0).optional().describe('Number of members.'),
  moderatorCount: z.number().int().min(0).optional().describe('Number of moderators.'),
  createdAt: z.string().optional().describe('When the community was created (ISO 8601).'),
  joinPolicy: z
    .string()
    .optional()
    .describe('Who may join (`Open`, `RestrictedJoinRequestsRequireModeratorApproval`, ...).'),
  isNsfw: z.boolean().optional().describe('True when the community is marked as adult content.'),
  bannerUrl: z.string().optional().describe('Banner image.'),
  url: z.string().optional().describe('Page of the community on the platform.'),
  rules: z.array(CommunityRuleSchema).optional().describe('Rules of the community.'),
  admin: UserProfileSchema.optional().describe('Profile of the community admin.'),
});

/** The answer of a community lookup. */
export const CommunityInfoSchema = z.object({ community: CommunitySchema.describe('The community.') });

/** A trending topic (spec 2.12). */
export const TrendSchema = z.object({
  name: z.string().describe('The trend: a hashtag or a phrase.'),
  description: z.string().optional().describe('Context line (category, post volume).'),
  rank: z.number().int().min(1).optional().describe('Position in the region, 1 first.'),
  query: z.string().optional().describe('URL-encoded search query that finds tweets of the trend.'),
});

/** The answer of the trends read (spec 4.9): `total` is the count available before `count` cut it. */
export const TrendsSchema = z.object({
  trends: z.array(TrendSchema).describe('The trends, best ranked first.'),
  total: z.number().int().min(0).describe('Trends available in the region before the `count` cut.'),
  woeid: z.number().int().describe('Region the trends are for.'),
});

/** The answer of `/x/trends`: as {@link TrendsSchema}, plus `count` (trends in this answer) kept for its clients. */
export const XTrendsSchema = TrendsSchema.extend({
  count: z.number().int().min(0).describe('Trends in this answer.'),
});

/**
 * The trends `woeid` parameter: a supported region (spec 8.3), default 1 (worldwide); any other value is
 * 400 `invalid_input`.
 */
export const TrendWoeid = z.coerce
  .number()
  .int()
  .refine((w) => (limits.trendWoeids as readonly number[]).includes(w), {
    message: `unsupported woeid; supported: ${limits.trendWoeids.join(', ')}`,
  })
  .default(1)
  .describe(`Region (Yahoo WOEID): ${limits.trendWoeids.join(', ')}. Default 1, worldwide.`);

/** The value a trends `count` parameter stands for: clamped to 1-50, non-numeric → 30 (spec 4.9). */
export function clampTrendCount(input: unknown): number {
  const { defaultCount, maxCount } = limits.trends;
  const n =
    typeof input === 'number'
      ? input
      : typeof input === 'string' && input.trim() !== ''
        ? Number(input)
        : Number.NaN;
  if (!Number.isFinite(n)) return defaultCount;
  return Math.min(maxCount, Math.max(1, Math.trunc(n)));
}

/** The trends `count` parameter: never rejected; out-of-range values are clamped, others fall back to 30. */
export const TrendCount = z.coerce
  .number()
  .int()
  .min(1)
  .max(limits.trends.maxCount)
  .catch((ctx) => clampTrendCount(ctx.input))
  .default(limits.trends.defaultCount)
  .describe(
    `Trends to return, 1-${limits.trends.maxCount} (default ${limits.trends.defaultCount}); larger or smaller values are clamped, non-numbers mean ${limits.trends.defaultCount}.`,
  );

/** The query of both trends reads. */
export const trendsQuery = { woeid: TrendWoeid, count: TrendCount };

/** The author block of an article. */
export const ArticleAuthorSchema = TweetAuthorSchema;

/** A long-form article (an X Article) with its cover and metadata. */
export const ArticleSchema = z.object({
  id: z.string().describe('Article id.'),
  tweetId: z.string().describe('Id of the tweet that carries the article.'),
  title: z.string().describe('Article title.'),
  previewText: z.string().optional().describe('Opening lines, as shown in previews.'),
  bodyText: z.string().describe('Full text, one line per paragraph.'),
  bodyMarkdown: z.string().optional().describe('Full content as Markdown (headings, lists, links, images).'),
  coverImageUrl: z.string().optional().describe('Cover image.'),
  url: z.string().optional().describe('Page of the article on the platform.'),
  createdAt: z.string().optional().describe('When the article was published (ISO 8601).'),
  updatedAt: z.string().optional().describe('When it was last edited (ISO 8601).'),
  likeCount: z.number().int().optional().describe('Likes of the carrying tweet.'),
  replyCount: z.number().int().optional().describe('Replies to the carrying tweet.'),
  retweetCount: z.number().int().optional().describe('Reposts of the carrying tweet.'),
  quoteCount: z.number().int().optional().describe('Quotes of the carrying tweet.'),
  viewCount: z.number().int().optional().describe('Views of the carrying tweet.'),
  bookmarkCount: z.number().int().optional().describe('Bookmarks of the carrying tweet.'),
});

/** The answer of an article read. */
export const ArticleLookupSchema = z.object({
  article: ArticleSchema.describe('The article.'),
  author: ArticleAuthorSchema.optional().describe('Its author; omitted when unavailable.'),
});

/** Where a job listing's work happens. */
export const JOB_LOCATION_TYPES = ['onsite', 'remote', 'hybrid'] as const;
/** Kinds of employment of a job listing. */
export const JOB_EMPLOYMENT_TYPES = [
  'full_time',
  'full_time_contract',
  'part_time',
  'contract_to_hire',
] as const;
/** How a job listing's salary is expressed. */
export const JOB_SALARY_INTERVALS = ['annually', 'hourly'] as const;

/** A job listing (spec 2.12). `company` is set for imported jobs, `account` for jobs posted on the platform. */
export const JobSchema = z.object({
  id: z.string().describe('Job id.'),
  url: z.string().describe('Page of the job on the platform.'),
  title: z.string().optional().describe('Job title.'),
  applyUrl: z.string().optional().describe('Where to apply.'),
  location: z.string().optional().describe('Location text.'),
  locationType: openEnum(JOB_LOCATION_TYPES).optional().describe('`onsite`, `remote` or `hybrid`.'),
  employmentType: openEnum(JOB_EMPLOYMENT_TYPES)
    .optional()
    .describe('`full_time`, `full_time_contract`, `part_time` or `contract_to_hire`.'),
  seniorityLevel: z.string().optional().describe('Seniority, from `intern` to `executive`.'),
  jobFunction: z.string().optional().describe('Job function (engineering, sales, ...).'),
  team: z.string().optional().describe('Team name.'),
  postedAt: z.string().optional().describe('When the job was posted (ISO 8601).'),
  formattedSalary: z.string().optional().describe('Salary as displayed.'),
  salaryMin: z.number().optional().describe('Lower bound of the salary.'),
  salaryMax: z.number().optional().describe('Upper bound of the salary.'),
  salaryCurrencyCode: z.string().optional().describe('Currency of the salary (ISO 4217).'),
  salaryInterval: openEnum(JOB_SALARY_INTERVALS).optional().describe('`annually` or `hourly`.'),
  featured: z.boolean().optional().describe('True for a featured listing.'),
  shortDescription: z.string().optional().describe('One-paragraph summary.'),
  description: z.string().optional().describe('Full description as plain text, one line per paragraph.'),
  descriptionMarkdown: z.string().optional().describe('Full description as Markdown.'),
  company: z
    .object({
      id: z.string().describe('Company id.'),
      name: z.string().describe('Company name.'),
      logoUrl: z.string().optional().describe('Company logo.'),
    })
    .optional()
    .describe('Hiring company, for imported jobs.'),
  account: z
    .object({
      id: z.string().describe('User id of the hiring account.'),
      username: z.string().describe('Its username, without @.'),
      name: z.string().describe('Its display name.'),
      verified: z.boolean().optional().describe('True when it shows a verification badge.'),
      verifiedType: z.string().optional().describe('Kind of verification.'),
      description: z.string().optional().describe('Its bio.'),
      profilePicture: z.string().optional().describe('Its avatar.'),
      profileImageShape: z.string().optional().describe('Its avatar shape.'),
    })
    .optional()
    .describe('Hiring account on the platform; absent for imported jobs.'),
});

/** The answer of a job lookup. */
export const JobLookupSchema = z.object({ job: JobSchema.describe('The job listing.') });

/**
 * Builds a body that takes exactly one of several sources: a union of strict objects (one per source). When
 * the sources are not exactly one, the error says so; when they are, it reports that source's first problem.
 */
function exactlyOneSource<const T extends readonly [z.ZodObject, z.ZodObject, ...z.ZodObject[]]>(
  branches: T,
  sourceKeys: { readonly [I in keyof T]: readonly string[] },
  message: string,
) {
  return z.union(branches, {
    error: (iss) => {
      if (iss.code !== 'invalid_union') return undefined;
      const input = iss.input;
      if (typeof input !== 'object' || input === null || Array.isArray(input)) return message;
      const body = input as Record<string, unknown>;
      const chosen = (sourceKeys as readonly (readonly string[])[])
        .map((keys, i) => (keys.some((k) => body[k] !== undefined) ? i : -1))
        .filter((i) => i >= 0);
      if (chosen.length !== 1) return message;
      const first = (iss as { errors?: { path: PropertyKey[]; message: string }[][] }).errors?.[
        chosen[0]!
      ]?.[0];
      if (!first) return message;
      return first.path.length ? `${first.path.map(String).join('.')}: ${first.message}` : first.message;
    },
  });
}

const MEDIA_SOURCE_MESSAGE = 'send exactly one of tweetInput, tweetId, tweetUrl or tweetIds';

/** The body of a media download: exactly one of `tweetInput`, `tweetId`, `tweetUrl`, `tweetIds`. */
export const MediaDownloadRequestSchema = exactlyOneSource(
  [
    z.strictObject({
      tweetInput: z.string().trim().min(1).describe('A tweet id or tweet URL, whichever you have.'),
    }),
    z.strictObject({ tweetId: NumericId.describe('Numeric id of the tweet.') }),
    z.strictObject({
      tweetUrl: z
        .string()
        .trim()
        .regex(TWEET_URL, 'must be a tweet URL')
        .describe('URL of the tweet (either of the platform domains).'),
    }),
    z.strictObject({
      tweetIds: z
        .array(TweetRef.describe('A tweet id or tweet URL.'))
        .min(1)
        .describe(
          'Several tweets (ids or URLs) gathered into one gallery; a per-request cap applies (`too_many_tweets`).',
        ),
    }),
  ],
  [['tweetInput'], ['tweetId'], ['tweetUrl'], ['tweetIds']],
  MEDIA_SOURCE_MESSAGE,
);

/** The answer of a media download: a gallery page holding every photo, video and GIF of the tweets. */
export const MediaDownloadSchema = z.object({
  tweetId: z.string().optional().describe('The tweet (the first one, for several).'),
  galleryUrl: z.string().optional().describe('Page that shows and downloads every media file.'),
  cacheHit: z
    .boolean()
    .optional()
    .describe('True when the media had already been fetched (no new download).'),
  totalTweets: z.number().int().min(0).optional().describe('Tweets processed.'),
  totalMedia: z.number().int().min(0).optional().describe('Media files found.'),
});

// ---------------------------------------------------------------------------------------------------------
// Viral score (spec 4.11)
// ---------------------------------------------------------------------------------------------------------

/** Verdicts of the viral score: `send_it` 70-100, `edit_first` 40-69, `sleep_on_it` 0-39. */
export const VIRAL_VERDICTS = ['send_it', 'edit_first', 'sleep_on_it'] as const;
/** Values of the `reaction` answer. */
export const VIRAL_REACTIONS = ['share', 'reply', 'like', 'argue', 'ignore'] as const;
/** States of one post's analysis. */
export const VIRAL_ANALYSIS_STATUSES = ['completed', 'failed', 'skipped'] as const;
/** Kinds of analysis question. */
export const VIRAL_QUESTION_TYPES = ['choice', 'score', 'probability'] as const;
/** Comparison states of a result against a `baseline`. */
export const VIRAL_MONITOR_STATUSES = ['first_run', 'new_to_baseline', 'unchanged', 'changed'] as const;
/** The body fields that select the search source; any of them may be combined. */
export const VIRAL_SEARCH_FIELDS = [
  'query',
  'username',
  'listId',
  'quotesOf',
  'repliesTo',
  'sinceTime',
  'untilTime',
] as const;

const score02 = (what: string) => z.number().min(0).max(2).optional().describe(`${what}, scored 0-2.`);
const probability = (what: string) =>
  z.number().min(0).max(1).optional().describe(`Probability 0-1 that ${what}.`);

/** The eight answers of a post, as a flat map (empty for failed or skipped rows). */
export const ViralAnswersSchema = z.object({
  hook: score02('How strongly the opening grabs attention'),
  clarity: score02('How clear the message is'),
  informative: score02('How much the reader learns'),
  funny: score02('How funny it is'),
  ragebait: probability('the post baits outrage'),
  ai_written: probability('the text is machine-written'),
  spam: probability('the post is spam'),
  reaction: openEnum(VIRAL_REACTIONS)
    .optional()
    .describe('Most likely reader reaction: `share`, `reply`, `like`, `argue` or `ignore`.'),
});

/** One answer of the analysis, with its question. */
export const ViralAnswerSchema = z.object({
  questionId: z.string().describe('Question answered (`hook`, `clarity`, ...).'),
  type: openEnum(VIRAL_QUESTION_TYPES).describe('`choice`, `score` or `probability`.'),
  value: z.union([z.string(), z.number()]).describe('The answer: a category, a score or a probability.'),
  confidence: z.number().min(0).max(1).optional().describe('Confidence of the answer, 0-1.'),
});

/** A question the analysis asked. */
export const ViralQuestionSchema = z.object({
  id: z.string().describe('Question id.'),
  type: openEnum(VIRAL_QUESTION_TYPES).describe('`choice`, `score` or `probability`.'),
  version: z.string().optional().describe('Version of the question wording.'),
});

/** The analysis of one post. */
export const ViralAnalysisSchema = z.object({
  status: openEnum(VIRAL_ANALYSIS_STATUSES).describe('`completed`, `failed` or `skipped`.'),
  reason: z.string().optional().describe('Why the analysis failed or was skipped.'),
  answers: z.array(ViralAnswerSchema).describe('Answers, one per question; empty when not completed.'),
  questions: z.array(ViralQuestionSchema).describe('Questions asked.'),
  contextBytes: z.number().int().min(0).describe('Size of the context the analysis read, in bytes.'),
  contextAvailability: z
    .record(z.string(), z.string())
    .describe('How complete each part of the context was (for example `postText`: `full` or `truncated`).'),
});

/** How the viral score was reached. */
export const ViralDetailSchema = z.object({
  stops: z
    .array(z.string())
    .describe('Hard stops that capped the score (likely spam, ragebait, generic copy).'),
  weights: z.string().describe('Version name of the scoring rules.'),
  algorithmBasis: openEnum(['views', 'followers'])
    .nullable()
    .describe(
      'What `viralAlgorithmScore` divides by: `views`, or `followers` without a view count; null for drafts.',
    ),
});

/** A result compared with the `baseline`. */
export const ViralMonitorSchema = z.object({
  status: openEnum(VIRAL_MONITOR_STATUSES).describe(
    '`first_run`, `new_to_baseline`, `unchanged` or `changed`.',
  ),
  changes: z
    .array(
      z.object({
        questionId: z.string().describe('Answer that changed.'),
        previous: z.union([z.string(), z.number(), z.null()]).describe('Its value in the baseline.'),
        current: z.union([z.string(), z.number(), z.null()]).describe('Its value now.'),
      }),
    )
    .optional()
    .describe('Answers that changed, for `changed` results.'),
});

/** The post of a result: a platform tweet, or a draft text (`id` `text:1`, no `createdAt`). */
export const ViralTweetSchema = TweetSchema.extend({
  createdAt: z.string().optional().describe('When the tweet was posted (ISO 8601); omitted for drafts.'),
});

/** One analyzed post. */
export const ViralScoreResultSchema = z.object({
  tweet: ViralTweetSchema.describe('The post analyzed.'),
  analysis: ViralAnalysisSchema.describe('The analysis and its answers.'),
  answers: ViralAnswersSchema.describe('The answers as a flat map.'),
  viralScore: z
    .number()
    .int()
    .min(0)
    .max(100)
    .nullable()
    .describe('Viral score 0-100; null when any trait lacks an answer.'),
  viralVerdict: openEnum(VIRAL_VERDICTS)
    .nullable()
    .describe('`send_it` (70-100), `edit_first` (40-69) or `sleep_on_it` (0-39); null without a score.'),
  viral: ViralDetailSchema.describe('How the score was reached.'),
  viralAlgorithmScore: z
    .number()
    .nullable()
    .describe(
      '(0.5 likes + 5 replies + 1 repost + 5 quotes) per 1,000 views (or followers); null for drafts.',
    ),
  viralActualEngagementRate: z
    .number()
    .nullable()
    .describe('log10(1 + weighted engagement per 1,000 followers); null without followers.'),
  sourceDomains: z.array(z.string()).describe('Host names of the links in the post.'),
  cashtags: z.array(z.string()).describe('Cashtags in the post (`$NVDA`).'),
  monitor: ViralMonitorSchema.optional().describe('Comparison with the baseline, when one was sent.'),
});

/** A post that could not be analyzed. */
export const ViralUnanalyzedSchema = z.object({
  id: z.string().describe('The post id (or `text:n`) as requested.'),
  status: z.string().describe('What happened (`not_found`, `protected`, `failed`, ...).'),
  reason: z.string().describe('Why, in words.'),
});

/** A leaderboard row of an account search. */
export const ViralLeaderboardEntrySchema = z.object({
  username: z.string().describe('Account username.'),
  rank: z.number().int().min(1).describe('Position, 1 first.'),
  posts: z.number().int().min(0).describe('Scored posts of the account.'),
  average: z.number().describe('Average of the ranked measure.'),
});

/** Totals of the whole call. */
export const ViralAnalysisSummarySchema = z.object({
  schemaVersion: z.number().int().describe('Version of this summary layout.'),
  rows: z
    .object({
      analyzed: z.number().int().min(0).describe('Posts analyzed.'),
      failed: z.number().int().min(0).describe('Posts whose analysis failed (not charged).'),
      skipped: z.number().int().min(0).describe('Posts skipped (not charged).'),
    })
    .describe('Row counts.'),
  engagement: z.record(z.string(), z.number()).describe('Engagement totals of the posts, by metric.'),
  questions: z
    .record(z.string(), z.record(z.string(), z.unknown()))
    .describe('Answer statistics, by question.'),
  targets: z.record(z.string(), z.unknown()).describe('What the call read, by source.'),
  viral: z
    .object({
      averageScore: z.number().nullable().describe('Average viral score; null when nothing was scored.'),
      calibration: z.record(z.string(), z.unknown()).describe('Counts by verdict and scored/unscored rows.'),
      accounts: z
        .array(z.record(z.string(), z.unknown()))
        .optional()
        .describe('Per-account report, for account searches.'),
      leaderboard: z
        .object({
          byViralScore: z.array(ViralLeaderboardEntrySchema).describe('Accounts by average viral score.'),
          byActualEngagementRate: z
            .array(ViralLeaderboardEntrySchema)
            .describe('Accounts by average actual engagement rate.'),
        })
        .optional()
        .describe('Account rankings, for account searches.'),
    })
    .describe('Viral score summary.'),
  monitor: z
    .record(z.string(), z.number().int().min(0))
    .optional()
    .describe('Results per comparison status, when a baseline was sent.'),
});

/** The answer of a viral-score call. */
export const ViralScoreSchema = z.object({
  results: z.array(ViralScoreResultSchema).describe('One row per analyzed post.'),
  unanalyzed: z.array(ViralUnanalyzedSchema).describe('Requested posts that were not analyzed.'),
  analysisSummary: ViralAnalysisSummarySchema.describe('Totals of the call.'),
  has_next_page: z.boolean().describe('True when the search source has more posts.'),
  next_cursor: z
    .string()
    .describe('Pass as `cursor` (with the same search) for the next posts; empty when none.'),
});

/** A row of an earlier call's `results`, sent back as `baseline`: it needs `id` or `tweet.id`, and its answers. */
export const ViralBaselineRowSchema = z
  .looseObject({
    id: z.string().optional().describe('The post id.'),
    tweet: z
      .looseObject({ id: z.string().describe('The post id.') })
      .optional()
      .describe('The post, as returned.'),
    answers: z
      .record(z.string(), z.union([z.string(), z.number(), z.null()]))
      .describe('The answers of that row, as returned.'),
  })
  .refine((r) => r.id !== undefined || r.tweet?.id !== undefined, {
    message: 'each baseline row needs the post id (`id` or `tweet.id`)',
  });

const VIRAL_SOURCE_MESSAGE = `choose exactly one source: tweetIds, texts, or search fields (${VIRAL_SEARCH_FIELDS.join(', ')})`;

const viralBaseline = {
  baseline: z
    .array(ViralBaselineRowSchema)
    .optional()
    .describe('The `results` of an earlier call: each new result then says what changed (no extra charge).'),
};

/**
 * The body of a viral-score call (spec 4.11): exactly one source — `tweetIds`, `texts`, or the search fields
 * — else 400 `invalid_input`; `baseline` with any of them.
 */
export const ViralScoreRequestSchema = exactlyOneSource(
  [
    z.strictObject({
      tweetIds: z
        .array(TweetRef.describe('A tweet id or tweet URL.'))
        .min(1)
        .max(limits.viralScoreItems)
        .describe(`Posts to analyze: up to ${limits.viralScoreItems} ids or URLs.`),
      ...viralBaseline,
    }),
    z.strictObject({
      texts: z
        .array(z.string().trim().min(1).max(limits.noteTweetChars).describe('A draft.'))
        .min(1)
        .max(limits.viralScoreItems)
        .describe(
          `Drafts to score, up to ${limits.viralScoreItems}; nothing is read from the platform (ids text:1, text:2, ...).`,
        ),
      ...viralBaseline,
    }),
    z
      .strictObject({
        query: z
          .string()
          .trim()
          .min(1)
          .optional()
          .describe('Search text (platform search operators allowed).'),
        username: UsernameRef.optional().describe('Posts of this account: handle, @handle or profile URL.'),
        listId: NumericId.optional().describe('Posts of this list.'),
        quotesOf: TweetRef.optional().describe('Quote tweets of this post (id or URL).'),
        repliesTo: TweetRef.optional().describe('Replies to this post (id or URL).'),
        sinceTime: TimeBoundBody.optional().describe(
          'Posts at or after this time (ISO 8601 or Unix seconds).',
        ),
        untilTime: TimeBoundBody.optional().describe('Posts before this time (ISO 8601 or Unix seconds).'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(limits.viralScoreItems)
          .default(20)
          .describe(`Posts to analyze from the search, 1-${limits.viralScoreItems} (default 20).`),
        queryType: z.enum(QUERY_TYPES).optional().describe('`Latest` or `Top` search order.'),
        cursor: z
          .string()
          .min(1)
          .optional()
          .describe('`next_cursor` of the previous call, for the next posts.'),
        ...viralBaseline,
      })
      .refine((b) => VIRAL_SEARCH_FIELDS.some((k) => b[k] !== undefined), {
        message: VIRAL_SOURCE_MESSAGE,
        abort: true,
      }),
  ],
  [['tweetIds'], ['texts'], VIRAL_SEARCH_FIELDS],
  VIRAL_SOURCE_MESSAGE,
);

// ---------------------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------------------

export type TweetSearchCoverageDiagnostic = z.infer<typeof TweetSearchCoverageDiagnosticSchema>;
export type ReplyCoverageDiagnostic = z.infer<typeof ReplyCoverageDiagnosticSchema>;
export type UserListCoverageDiagnostic = z.infer<typeof UserListCoverageDiagnosticSchema>;
export type TweetPage = z.infer<typeof TweetPageSchema>;
export type UserPage = z.infer<typeof UserPageSchema>;
export type TweetSearchPage = z.infer<typeof TweetSearchPageSchema>;
export type TweetRepliesPage = z.infer<typeof TweetRepliesPageSchema>;
export type UserListPage = z.infer<typeof UserListPageSchema>;
export type BatchTweets = z.infer<typeof BatchTweetsSchema>;
export type BatchUsers = z.infer<typeof BatchUsersSchema>;
export type TweetLookup = z.infer<typeof TweetLookupSchema>;
export type FollowCheck = z.infer<typeof FollowCheckSchema>;
export type BookmarkFolder = z.infer<typeof BookmarkFolderSchema>;
export type BookmarkFolderPage = z.infer<typeof BookmarkFolderPageSchema>;
export type Notification = z.infer<typeof NotificationSchema>;
export type NotificationPage = z.infer<typeof NotificationPageSchema>;
export type DirectMessage = z.infer<typeof DirectMessageSchema>;
export type DirectMessagePage = z.infer<typeof DirectMessagePageSchema>;
export type List = z.infer<typeof ListSchema>;
export type ListPage = z.infer<typeof ListPageSchema>;
export type CommunityRule = z.infer<typeof CommunityRuleSchema>;
export type Community = z.infer<typeof CommunitySchema>;
export type CommunityInfo = z.infer<typeof CommunityInfoSchema>;
export type Trend = z.infer<typeof TrendSchema>;
export type Trends = z.infer<typeof TrendsSchema>;
export type XTrends = z.infer<typeof XTrendsSchema>;
export type ArticleAuthor = z.infer<typeof ArticleAuthorSchema>;
export type Article = z.infer<typeof ArticleSchema>;
export type ArticleLookup = z.infer<typeof ArticleLookupSchema>;
export type Job = z.infer<typeof JobSchema>;
export type JobLookup = z.infer<typeof JobLookupSchema>;
export type MediaDownloadRequest = z.input<typeof MediaDownloadRequestSchema>;
export type MediaDownload = z.infer<typeof MediaDownloadSchema>;
export type ViralAnswers = z.infer<typeof ViralAnswersSchema>;
export type ViralAnswer = z.infer<typeof ViralAnswerSchema>;
export type ViralQuestion = z.infer<typeof ViralQuestionSchema>;
export type ViralAnalysis = z.infer<typeof ViralAnalysisSchema>;
export type ViralDetail = z.infer<typeof ViralDetailSchema>;
export type ViralMonitor = z.infer<typeof ViralMonitorSchema>;
export type ViralTweet = z.infer<typeof ViralTweetSchema>;
export type ViralScoreResult = z.infer<typeof ViralScoreResultSchema>;
export type ViralUnanalyzed = z.infer<typeof ViralUnanalyzedSchema>;
export type ViralLeaderboardEntry = z.infer<typeof ViralLeaderboardEntrySchema>;
export type ViralAnalysisSummary = z.infer<typeof ViralAnalysisSummarySchema>;
export type ViralScore = z.infer<typeof ViralScoreSchema>;
export type ViralBaselineRow = z.infer<typeof ViralBaselineRowSchema>;
export type ViralScoreRequest = z.input<typeof ViralScoreRequestSchema>;
