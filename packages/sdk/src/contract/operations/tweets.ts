import { z } from 'zod';
import { limits } from '../limits.js';
import { defineOperation } from '../operation.js';
import { cursorB } from '../schemas/common.js';
import {
  BatchTweetsSchema,
  BookmarkFolderPageSchema,
  COVERAGE_ERRORS,
  commaSeparatedIds,
  connectedAccountQuery,
  PAID_LOOKUP_AUTH,
  PRIVATE_READ_AUTH,
  PRIVATE_READ_ERRORS,
  PUBLIC_READ_AUTH,
  pageSizeQuery,
  QUERY_TYPES,
  READ_ERRORS,
  SearchText,
  TweetLookupSchema,
  TweetPageSchema,
  TweetRepliesPageSchema,
  TweetSearchPageSchema,
  timeWindowQuery,
  tweetFilterQuery,
  tweetIdParams,
  tweetMatchFilterQuery,
  UserPageSchema,
  userFilterQuery,
  ViralScoreRequestSchema,
  ViralScoreSchema,
  X_READ,
} from '../schemas/reads.js';
import { NumericId, QueryBoolean } from '../zod-helpers.js';

const perResult = { kind: 'per_result', credits: 1 } as const;
const PAGING = 'Style-B pages: pass `next_cursor` back as `cursor` while `has_next_page` is true.';
const COVERAGE =
  'Deep walks resume from an opaque cursor: on 409 coverage_cursor_unavailable wait Retry-After and retry the same cursor once; on 410 coverage_cursor_gone restart without a cursor and de-duplicate by id.';

export const getBatchTweets = defineOperation({
  ...X_READ,
  id: 'getBatchTweets',
  path: '/api/v1/x/tweets',
  tag: 'Tweets',
  summary: 'Get up to 100 tweets by id in one call',
  description: `Answers the tweets found, in no particular order: join them to the request by \`id\`. Costs 1 credit per tweet returned; when credits cannot cover every tweet fewer are returned, and none affordable is 402 insufficient_credits. No ids gives 400 missing_ids, more than ${limits.batchTweetIds} gives 400 too_many_ids.`,
  sdk: ['tweets', 'batch'],
  auth: PUBLIC_READ_AUTH,
  params: null,
  query: z.object({
    ids: commaSeparatedIds(limits.batchTweetIds, 'tweet').describe(
      `Comma-separated numeric tweet ids, 1-${limits.batchTweetIds}.`,
    ),
  }),
  response: BatchTweetsSchema,
  errors: [...READ_ERRORS, 'missing_ids', 'too_many_ids'],
  pagination: 'B',
  items: 'tweets',
  cost: perResult,
  example: 'tweets batch --ids 1790000000000000001,1790000000000000002',
});

export const searchTweets = defineOperation({
  ...X_READ,
  id: 'searchTweets',
  path: '/api/v1/x/tweets/search',
  tag: 'Tweets',
  summary: 'Search tweets by query, tweet id, status URL or account date window',
  description: `\`q\` takes the platform's search operators; the filter parameters add operators for you. Without \`mode\` the service may switch to resumable coverage for deep result sets, and then adds a \`diagnostic\`. ${PAGING} ${COVERAGE} Costs 1 credit per tweet returned.`,
  sdk: ['tweets', 'search'],
  auth: PUBLIC_READ_AUTH,
  params: null,
  query: z.object({
    q: SearchText.describe('Search text with platform operators, a tweet id, or a tweet URL.'),
    queryType: z
      .enum(QUERY_TYPES)
      .optional()
      .describe('`Latest` (newest first) or `Top` (most engaging first).'),
    mode: z
      .enum(['standard', 'coverage'])
      .optional()
      .describe(
        '`standard`: plain pages; `coverage`: a resumable deep walk. Omit to let the service choose.',
      ),
    cursor: cursorB,
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(10_000)
      .optional()
      .describe('Most tweets to return for this request, 1-10000 (the service pages the platform for you).'),
    ...timeWindowQuery,
    ...tweetFilterQuery,
    listId: NumericId.optional().describe('Only tweets from members of this list.'),
    place: z.string().min(1).optional().describe('Only tweets tagged with this place id.'),
    placeCountry: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')
      .optional()
      .describe('Only tweets tagged in this country (ISO 3166-1 alpha-2).'),
    pointRadius: z
      .string()
      .min(1)
      .optional()
      .describe('Only tweets within a circle: `longitude latitude radius` (radius in km or mi).'),
    boundingBox: z
      .string()
      .min(1)
      .optional()
      .describe('Only tweets within a box: `west_long south_lat east_long north_lat`.'),
    advancedQuery: z.string().min(1).optional().describe('Raw search-operator text appended to `q`.'),
  }),
  response: TweetSearchPageSchema,
  errors: [...READ_ERRORS, 'missing_query', 'invalid_coverage_request', ...COVERAGE_ERRORS],
  pagination: 'B',
  items: 'tweets',
  cost: perResult,
  example: 'tweets search --q "from:jack" --query-type Latest --limit 50',
});

export const lookupTweet = defineOperation({
  ...X_READ,
  id: 'lookupTweet',
  path: '/api/v1/x/tweets/{id}',
  tag: 'Tweets',
  summary: 'Get a tweet with its full text, author, metrics and media',
  description:
    'Costs 1 credit per successful call, or a machine payment of USD 0.00015. A missing tweet is 404 tweet_not_found, whose body may carry `reason`: `deleted`, `author_suspended` or `protected`; an id that is neither a numeric id nor a tweet URL is 400 invalid_tweet_id.',
  sdk: ['tweets', 'get'],
  auth: PAID_LOOKUP_AUTH,
  params: tweetIdParams,
  query: null,
  response: TweetLookupSchema,
  errors: [...READ_ERRORS, 'invalid_tweet_id', 'tweet_not_found'],
  pagination: null,
  cost: { kind: 'per_call', credits: 1, mppMicroUsd: 150 },
  example: 'tweets get 1790000000000000001',
});

export const getTweetFavoriters = defineOperation({
  ...X_READ,
  id: 'getTweetFavoriters',
  path: '/api/v1/x/tweets/{id}/favoriters',
  tag: 'Tweets',
  summary: 'List the visible users who liked a tweet',
  description: `Only likes the platform still shows are listed. ${PAGING} Costs 1 credit per user returned; 424 favoriters_unavailable when the platform hides the list.`,
  sdk: ['tweets', 'favoriters'],
  auth: PUBLIC_READ_AUTH,
  params: tweetIdParams,
  query: z.object({ cursor: cursorB, ...pageSizeQuery(20, 200, 200), ...userFilterQuery }),
  response: UserPageSchema,
  errors: [...READ_ERRORS, 'invalid_tweet_id', 'tweet_not_found', 'favoriters_unavailable'],
  pagination: 'B',
  items: 'users',
  cost: perResult,
  example: 'tweets favoriters 1790000000000000001 --min-followers 1000',
});

export const getBookmarks = defineOperation({
  ...X_READ,
  id: 'getBookmarks',
  path: '/api/v1/x/bookmarks',
  tag: 'Tweets',
  summary: 'List the bookmarked tweets of a connected account',
  description: `Private read: needs an API key or session and a connected account. ${PAGING} Costs 1 credit per tweet returned.`,
  sdk: ['bookmarks', 'list'],
  auth: PRIVATE_READ_AUTH,
  params: null,
  query: z.object({
    ...connectedAccountQuery,
    folderId: z
      .string()
      .min(1)
      .optional()
      .describe('Only the bookmarks of this folder (see bookmarks folders).'),
    cursor: cursorB,
  }),
  response: TweetPageSchema,
  errors: [...READ_ERRORS, ...PRIVATE_READ_ERRORS],
  pagination: 'B',
  items: 'tweets',
  cost: perResult,
  example: 'bookmarks list --account myhandle',
});

export const getBookmarkFolders = defineOperation({
  ...X_READ,
  id: 'getBookmarkFolders',
  path: '/api/v1/x/bookmarks/folders',
  tag: 'Tweets',
  summary: 'List the bookmark folders of a connected account',
  description:
    'Private read: needs an API key or session and a connected account. Costs 1 credit per folder returned.',
  sdk: ['bookmarks', 'folders'],
  auth: PRIVATE_READ_AUTH,
  params: null,
  query: z.object({ ...connectedAccountQuery, cursor: cursorB }),
  response: BookmarkFolderPageSchema,
  errors: [...READ_ERRORS, ...PRIVATE_READ_ERRORS],
  pagination: 'B',
  items: 'folders',
  cost: perResult,
  example: 'bookmarks folders --account myhandle',
});

export const getTimeline = defineOperation({
  ...X_READ,
  id: 'getTimeline',
  path: '/api/v1/x/timeline',
  tag: 'Tweets',
  summary: 'Get the home timeline of a connected account',
  description: `Private read: needs an API key or session and a connected account. ${PAGING} Costs 1 credit per tweet returned.`,
  sdk: ['timeline', 'get'],
  auth: PRIVATE_READ_AUTH,
  params: null,
  query: z.object({
    ...connectedAccountQuery,
    seenTweetIds: z
      .string()
      .regex(/^\d{1,25}(,\d{1,25})*$/, 'must be comma-separated numeric tweet ids')
      .optional()
      .describe('Comma-separated ids of tweets already shown, so the platform can leave them out.'),
    cursor: cursorB,
  }),
  response: TweetPageSchema,
  errors: [...READ_ERRORS, ...PRIVATE_READ_ERRORS],
  pagination: 'B',
  items: 'tweets',
  cost: perResult,
  example: 'timeline get --account myhandle',
});

export const getTweetQuotes = defineOperation({
  ...X_READ,
  id: 'getTweetQuotes',
  path: '/api/v1/x/tweets/{id}/quotes',
  tag: 'Tweets',
  summary: 'List the quote tweets of a tweet',
  description: `${PAGING} Costs 1 credit per tweet returned.`,
  sdk: ['tweets', 'quotes'],
  auth: PUBLIC_READ_AUTH,
  params: tweetIdParams,
  query: z.object({
    cursor: cursorB,
    mode: z.enum(['standard']).optional().describe('Paging mode; only `standard`.'),
    ...pageSizeQuery(1, 300, 20),
    ...timeWindowQuery,
    includeReplies: QueryBoolean.optional().describe('Also list quote tweets that are replies.'),
    ...tweetFilterQuery,
  }),
  response: TweetPageSchema,
  errors: [...READ_ERRORS, 'invalid_tweet_id', 'tweet_not_found'],
  pagination: 'B',
  items: 'tweets',
  cost: perResult,
  example: 'tweets quotes 1790000000000000001 --page-size 50',
});

export const getTweetReplies = defineOperation({
  ...X_READ,
  id: 'getTweetReplies',
  path: '/api/v1/x/tweets/{id}/replies',
  tag: 'Tweets',
  summary: 'List the replies to a tweet',
  description: `\`mode=complete\` walks the whole conversation (up to \`limit\` replies) and answers 424 replies_incomplete when it cannot finish; \`scope\` picks direct replies, nested ones or both. ${PAGING} ${COVERAGE} Costs 1 credit per tweet returned.`,
  sdk: ['tweets', 'replies'],
  auth: PUBLIC_READ_AUTH,
  params: tweetIdParams,
  query: z.object({
    cursor: cursorB,
    mode: z
      .enum(['standard', 'complete'])
      .optional()
      .describe('`standard`: plain pages; `complete`: collect every reply up to `limit`.'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(25_000)
      .optional()
      .describe('Most replies to collect in `complete` mode, 1-25000.'),
    ...pageSizeQuery(1, 300, 20),
    scope: z
      .enum(['all', 'direct', 'nested'])
      .optional()
      .describe('`direct` replies to the tweet, `nested` replies to replies, or `all`.'),
    maxDepth: z.coerce
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Deepest reply level to follow (1 = direct replies).'),
    sort: z
      .enum(['relevance', 'latest', 'oldest', 'likes'])
      .optional()
      .describe('Order: `relevance`, `latest`, `oldest` or most `likes`.'),
    excludeOriginalAuthor: QueryBoolean.default(false).describe(
      'Leave out replies by the author of the tweet.',
    ),
    includeOriginalPost: QueryBoolean.default(false).describe(
      'Put the replied-to tweet first in the first page.',
    ),
    hasMediaOnly: QueryBoolean.default(false).describe('Only replies with media.'),
    ...timeWindowQuery,
    ...tweetFilterQuery,
  }),
  response: TweetRepliesPageSchema,
  errors: [
    ...READ_ERRORS,
    'invalid_tweet_id',
    'tweet_not_found',
    'invalid_reply_options',
    'invalid_complete_replies_request',
    'replies_incomplete',
    ...COVERAGE_ERRORS,
  ],
  pagination: 'B',
  items: 'tweets',
  cost: perResult,
  example: 'tweets replies 1790000000000000001 --sort latest --page-size 100',
});

export const getTweetRetweeters = defineOperation({
  ...X_READ,
  id: 'getTweetRetweeters',
  path: '/api/v1/x/tweets/{id}/retweeters',
  tag: 'Tweets',
  summary: 'List the users who reposted a tweet',
  description: `${PAGING} Costs 1 credit per user returned.`,
  sdk: ['tweets', 'retweeters'],
  auth: PUBLIC_READ_AUTH,
  params: tweetIdParams,
  query: z.object({ cursor: cursorB, ...pageSizeQuery(20, 200, 200), ...userFilterQuery }),
  response: UserPageSchema,
  errors: [...READ_ERRORS, 'invalid_tweet_id', 'tweet_not_found'],
  pagination: 'B',
  items: 'users',
  cost: perResult,
  example: 'tweets retweeters 1790000000000000001 --verified-only true',
});

export const getTweetThread = defineOperation({
  ...X_READ,
  id: 'getTweetThread',
  path: '/api/v1/x/tweets/{id}/thread',
  tag: 'Tweets',
  summary: 'Get the whole conversation thread of a tweet',
  description: `Accepts the 32 match filters (not the search-operator ones, nor a time window). ${PAGING} Costs 1 credit per tweet returned.`,
  sdk: ['tweets', 'thread'],
  auth: PUBLIC_READ_AUTH,
  params: tweetIdParams,
  query: z.object({ cursor: cursorB, ...pageSizeQuery(1, 100, 20), ...tweetMatchFilterQuery }),
  response: TweetPageSchema,
  errors: [...READ_ERRORS, 'invalid_tweet_id', 'tweet_not_found'],
  pagination: 'B',
  items: 'tweets',
  cost: perResult,
  example: 'tweets thread 1790000000000000001',
});

export const viralScore = defineOperation({
  id: 'viralScore',
  method: 'POST',
  path: '/api/v1/x/analysis/viral-score',
  tag: 'Tweets',
  summary: 'Score how likely posts or drafts are to spread',
  description: `Choose exactly one source, else 400 invalid_input: \`tweetIds\` (up to ${limits.viralScoreItems} ids or URLs), \`texts\` (up to ${limits.viralScoreItems} drafts, nothing read from the platform), or search fields (\`query\`, \`username\`, \`listId\`, \`quotesOf\`, \`repliesTo\`, \`sinceTime\`, \`untilTime\`, combined into one search, with \`limit\`, \`queryType\` and \`cursor\`). Each post gets eight answers (hook, clarity, informative, funny: 0-2; ragebait, ai_written, spam: 0-1; reaction), a viral score 0-100 (hook and clarity carry half of it; hard stops cap likely spam, ragebait and generic machine copy) and a verdict: send_it 70-100, edit_first 40-69, sleep_on_it 0-39. Send the \`results\` of an earlier call as \`baseline\` to see what changed, at no extra charge. Costs 2 credits per analyzed post.`,
  sdk: ['tweets', 'viralScore'],
  auth: PUBLIC_READ_AUTH,
  params: null,
  query: null,
  body: ViralScoreRequestSchema,
  success: [200],
  response: ViralScoreSchema,
  errors: [...READ_ERRORS, 'invalid_tweet_id', 'tweet_not_found', 'user_not_found', 'x_account_protected'],
  pagination: null,
  cost: { kind: 'per_result', credits: 2 },
  idempotent: false,
  example: 'tweets viral-score --texts \'["We shipped dark mode today."]\'',
});

/** The Tweets operations. */
export const tweetsOperations = [
  getBatchTweets,
  searchTweets,
  lookupTweet,
  getTweetFavoriters,
  getBookmarks,
  getBookmarkFolders,
  getTimeline,
  getTweetQuotes,
  getTweetReplies,
  getTweetRetweeters,
  getTweetThread,
  viralScore,
] as const;
