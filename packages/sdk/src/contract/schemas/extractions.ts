import { z } from 'zod';
import { CreditString, IsoDate, openEnum } from '../zod-helpers.js';
import { extractionMultiTargetFields, extractionTargetValues } from './extraction-targets.js';

/** The 23 extraction tools (reference appendix A, `ExtractionToolType`). */
export const EXTRACTION_TOOL_TYPES = [
  'article_extractor',
  'community_extractor',
  'community_moderator_explorer',
  'community_post_extractor',
  'community_search',
  'favoriters',
  'follower_explorer',
  'following_explorer',
  'list_follower_explorer',
  'list_member_extractor',
  'list_post_extractor',
  'mention_extractor',
  'people_search',
  'post_extractor',
  'quote_extractor',
  'reply_extractor',
  'repost_extractor',
  'space_explorer',
  'thread_extractor',
  'tweet_search_extractor',
  'user_likes',
  'user_media',
  'verified_follower_explorer',
] as const;

export type ExtractionToolType = (typeof EXTRACTION_TOOL_TYPES)[number];

/** The body field that names what an extraction reads. */
export type ExtractionTargetField =
  | 'targetTweetId'
  | 'targetUsername'
  | 'targetCommunityId'
  | 'searchQuery'
  | 'targetListId'
  | 'targetSpaceId';

/** Which target field each tool requires (spec 4.8). */
export const EXTRACTION_TARGETS = {
  reply_extractor: 'targetTweetId',
  repost_extractor: 'targetTweetId',
  quote_extractor: 'targetTweetId',
  thread_extractor: 'targetTweetId',
  article_extractor: 'targetTweetId',
  favoriters: 'targetTweetId',
  follower_explorer: 'targetUsername',
  following_explorer: 'targetUsername',
  verified_follower_explorer: 'targetUsername',
  mention_extractor: 'targetUsername',
  post_extractor: 'targetUsername',
  user_likes: 'targetUsername',
  user_media: 'targetUsername',
  community_extractor: 'targetCommunityId',
  community_moderator_explorer: 'targetCommunityId',
  community_post_extractor: 'targetCommunityId',
  people_search: 'searchQuery',
  community_search: 'searchQuery',
  tweet_search_extractor: 'searchQuery',
  list_member_extractor: 'targetListId',
  list_post_extractor: 'targetListId',
  list_follower_explorer: 'targetListId',
  space_explorer: 'targetSpaceId',
} as const satisfies Record<ExtractionToolType, ExtractionTargetField>;

/** States of an extraction job (spec 3.2). */
export const EXTRACTION_STATUSES = ['running', 'completed', 'failed'] as const;

/** What the credit estimate was based on (reference: estimate `source`). */
export const EXTRACTION_ESTIMATE_SOURCES = [
  'followers',
  'following',
  'collection',
  'paginationCap',
  'posts',
  'quoteCount',
  'replyCount',
  'resultsLimit',
  'retweetCount',
  'unknown',
] as const;

/** Targets one extraction job reads at most (all the target fields of the request together). */
export const MAX_TARGETS = 100;

const username = z
  .string()
  .regex(/^@?[A-Za-z0-9_]{1,15}$/, 'must be a username of 1-15 letters, digits or underscores');
const count = z.number().int().min(0);
const include = z.enum(['include', 'exclude', 'only']);

/**
 * The body of an extraction run or estimate (spec 4.8). `toolType` picks the tool and the tool decides which
 * target field is required ({@link EXTRACTION_TARGETS}); the tweet-search filters apply to
 * `tweet_search_extractor` only and are ignored by the other tools.
 */
export const ExtractionRequestSchema = z
  .object({
    toolType: z
      .enum(EXTRACTION_TOOL_TYPES)
      .describe('Extraction tool to run; decides which target field is required.'),
    targetTweetId: z
      .string()
      .min(1)
      .optional()
      .describe('Tweet to read, for reply, repost, quote, thread, article and favoriter extraction.'),
    targetUsername: username
      .optional()
      .describe(
        'Account to read (a leading @ is stripped), for follower, following, mention, post, like and media tools.',
      ),
    targetCommunityId: z.string().min(1).optional().describe('Community to read, for the community tools.'),
    targetListId: z
      .string()
      .min(1)
      .optional()
      .describe('List to read, for the list member, post and follower tools.'),
    targetSpaceId: z.string().min(1).optional().describe('Space to read, for `space_explorer`.'),
    searchQuery: z
      .string()
      .min(1)
      .optional()
      .describe('Search text, for people, community and tweet search.'),
    ...extractionMultiTargetFields,
    resultsLimit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Stop after this many results (caps the cost).'),
    queryType: z
      .enum(['Latest', 'Top'])
      .optional()
      .describe(
        'Search ranking: `Latest` (default for tweet search) or `Top` (default for community search).',
      ),
    includeReplies: z
      .boolean()
      .optional()
      .describe('Also collect the account’s replies (`post_extractor` only).'),
    fromUser: username.optional().describe('Tweet search: only tweets written by this account.'),
    toUser: username.optional().describe('Tweet search: only replies addressed to this account.'),
    mentioning: username.optional().describe('Tweet search: only tweets that mention this account.'),
    language: z.string().min(1).optional().describe('Tweet search: language code of the tweets (e.g. `en`).'),
    sinceDate: IsoDate.optional().describe('Tweet search: from this day on, inclusive (YYYY-MM-DD).'),
    untilDate: IsoDate.optional().describe('Tweet search: before this day, exclusive (YYYY-MM-DD).'),
    mediaType: z
      .enum(['images', 'videos', 'gifs', 'media'])
      .optional()
      .describe('Tweet search: only tweets carrying this kind of media (`media` = any).'),
    minFaves: count.optional().describe('Tweet search: at least this many likes.'),
    minRetweets: count.optional().describe('Tweet search: at least this many reposts.'),
    minReplies: count.optional().describe('Tweet search: at least this many replies.'),
    verifiedOnly: z.boolean().optional().describe('Tweet search: only tweets from verified accounts.'),
    replies: include
      .optional()
      .describe('Tweet search: `include` replies (default), `exclude` them or `only` them.'),
    retweets: include
      .optional()
      .describe('Tweet search: `include` reposts (default), `exclude` them or `only` them.'),
    exactPhrase: z.string().min(1).optional().describe('Tweet search: this exact phrase must appear.'),
    excludeWords: z
      .string()
      .min(1)
      .optional()
      .describe('Tweet search: comma-separated words that must not appear.'),
    advancedQuery: z
      .string()
      .min(1)
      .optional()
      .describe('Tweet search: raw search-operator text appended to the query.'),
    dedupeAcrossTargets: z
      .boolean()
      .optional()
      .describe(
        'Several targets: an item already collected for an earlier target is not collected again (default true).',
      ),
    dedupeMode: z
      .enum(['none', 'first', 'merge'])
      .optional()
      .describe(
        'Several targets: `first` keeps an item under the first target that found it (default), `none` collects it once per target, `merge` keeps one result listing every target that found it in `targets`.',
      ),
  })
  .superRefine((body, ctx) => {
    const field: ExtractionTargetField | undefined = EXTRACTION_TARGETS[body.toolType];
    if (field === undefined) return;
    const found = extractionTargetValues(body, field);
    if (found.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `${field} is required for toolType ${body.toolType}`,
      });
    } else if (found.length > MAX_TARGETS) {
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `at most ${MAX_TARGETS} targets per extraction job; ${found.length} given for ${field}`,
      });
    }
  });

/** An extraction job (spec 2.8). Target fields appear only for the tools that use them. */
/** Why a completed extraction job stopped before the end (`incompleteReason`). */
export const EXTRACTION_INCOMPLETE_REASONS = ['pagination_stalled', 'insufficient_credits'] as const;

export const ExtractionJobSchema = z.object({
  id: z.string().describe('Identifier of the job (UUID).'),
  toolType: openEnum(EXTRACTION_TOOL_TYPES).describe('Tool the job runs.'),
  status: openEnum(EXTRACTION_STATUSES).describe('`running`, then `completed` or `failed`.'),
  totalResults: z.number().int().describe('Results collected so far.'),
  targetTweetId: z.string().optional().describe('Tweet read by the job, for tweet-based tools.'),
  targetUsername: z.string().optional().describe('Account read by the job (no @), for account-based tools.'),
  targetUserId: z.string().optional().describe('Platform user id the target username resolved to.'),
  targetCommunityId: z.string().optional().describe('Community read by the job, for community tools.'),
  targetListId: z.string().optional().describe('List read by the job, for list tools.'),
  targetSpaceId: z.string().optional().describe('Space read by the job, for `space_explorer`.'),
  searchQuery: z.string().optional().describe('Search text of the job, for search tools.'),
  targets: z
    .array(z.string())
    .optional()
    .describe('Every target of a job run on several targets, in the order they are read.'),
  errorMessage: z.string().optional().describe('Why the job failed; failed jobs only.'),
  createdAt: z.string().describe('When the job was started (ISO 8601).'),
  completedAt: z.string().optional().describe('When the job completed (ISO 8601); completed jobs only.'),
  complete: z
    .boolean()
    .optional()
    .describe(
      'Completed jobs only: false when the job stopped before the end (spec 3.2); the results collected are kept.',
    ),
  incompleteReason: openEnum(EXTRACTION_INCOMPLETE_REASONS)
    .optional()
    .describe(
      'Why a completed job is incomplete (`complete: false`): `pagination_stalled` (the platform stopped paging; do not retry) or `insufficient_credits` (the credits ran out).',
    ),
});

/** Extra detail of a result (spec 2.8): profile, tweet and article fields, each present when known. */
export const ExtractionEnrichmentSchema = z.object({
  description: z.string().optional().describe('Profile bio of the user.'),
  location: z.string().optional().describe('Profile location of the user.'),
  coverPicture: z.string().optional().describe('Profile banner image URL.'),
  followingCount: z.number().int().optional().describe('Accounts the user follows.'),
  favouritesCount: z.number().int().optional().describe('Tweets the user has liked.'),
  mediaCount: z.number().int().optional().describe('Media posts of the user.'),
  statusesCount: z.number().int().optional().describe('Tweets the user has posted.'),
  likeCount: z.number().int().optional().describe('Likes of the tweet.'),
  replyCount: z.number().int().optional().describe('Replies to the tweet.'),
  repostCount: z.number().int().optional().describe('Reposts of the tweet.'),
  quoteCount: z.number().int().optional().describe('Quotes of the tweet.'),
  viewCount: z.number().int().optional().describe('Views of the tweet.'),
  bookmarkCount: z.number().int().optional().describe('Bookmarks of the tweet.'),
  conversationId: z.string().optional().describe('Conversation (thread root) the tweet belongs to.'),
  lang: z.string().optional().describe('Detected language of the tweet.'),
  source: z.string().optional().describe('Client the tweet was posted from.'),
  title: z.string().optional().describe('Article title.'),
  bodyText: z.string().optional().describe('Article body as plain text.'),
  previewText: z.string().optional().describe('Article preview text.'),
});

/** One result of an extraction (spec 2.8). Optional fields are omitted when unknown, never null. */
export const ExtractionResultSchema = z.object({
  id: z.string().describe('Identifier of the result; results are ordered by it, ascending.'),
  xUserId: z.string().describe('Platform user id of the extracted user or tweet author.'),
  xUsername: z.string().optional().describe('Username (no @).'),
  xDisplayName: z.string().optional().describe('Display name.'),
  xFollowersCount: z.number().int().optional().describe('Followers of the user.'),
  xVerified: z.boolean().optional().describe('Whether the user is verified.'),
  xProfileImageUrl: z.string().optional().describe('Profile picture URL.'),
  tweetId: z.string().optional().describe('Tweet of the result, for tweet-producing tools.'),
  tweetText: z.string().optional().describe('Text of that tweet.'),
  tweetCreatedAt: z.string().optional().describe('When that tweet was posted.'),
  createdAt: z.string().optional().describe('When the result was collected (ISO 8601).'),
  target: z
    .string()
    .optional()
    .describe(
      'Jobs run on several targets: the target (username, tweet id, query...) that found the result.',
    ),
  targets: z
    .array(z.string())
    .optional()
    .describe('With `dedupeMode: merge`: every target that found the result, the first one first.'),
  enrichmentData: ExtractionEnrichmentSchema.optional().describe('Extra profile, tweet and article fields.'),
});

/** The 202 answer of an extraction run: the job started. */
export const ExtractionAcceptedSchema = z.object({
  id: z.string().describe('Identifier of the new job; poll it with the get operation.'),
  toolType: openEnum(EXTRACTION_TOOL_TYPES).describe('Tool the job runs.'),
  status: openEnum(EXTRACTION_STATUSES).describe('Always `running` when accepted.'),
});

/** A credit estimate of an extraction (estimate operation, and a run with `dry_run=true`). */
export const ExtractionEstimateSchema = z.object({
  estimatedResults: z.number().int().describe('Results the run is expected to collect.'),
  creditsRequired: CreditString.describe('Credits the run would cost (1 per result).'),
  creditsAvailable: CreditString.describe('Credits on the account now.'),
  allowed: z.boolean().describe('True when the balance covers the run.'),
  source: openEnum(EXTRACTION_ESTIMATE_SOURCES).describe(
    'What the estimate was based on (profile counts, tweet counts, `resultsLimit`, a pagination cap...).',
  ),
  resolvedXUserId: z.string().optional().describe('Platform user id the target username resolved to.'),
});

export type ExtractionRequest = z.input<typeof ExtractionRequestSchema>;
export type ExtractionJob = z.infer<typeof ExtractionJobSchema>;
export type ExtractionEnrichment = z.infer<typeof ExtractionEnrichmentSchema>;
export type ExtractionResult = z.infer<typeof ExtractionResultSchema>;
export type ExtractionAccepted = z.infer<typeof ExtractionAcceptedSchema>;
export type ExtractionEstimate = z.infer<typeof ExtractionEstimateSchema>;
