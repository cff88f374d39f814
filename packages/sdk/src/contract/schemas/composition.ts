import { z } from 'zod';
import { limits } from '../limits.js';
import { openEnum } from '../zod-helpers.js';
import { TweetMediaSchema } from './tweet.js';

/** What a post is written for (compose `goal`, draft `goal`). */
export const COMPOSE_GOALS = ['engagement', 'followers', 'authority', 'conversation'] as const;

/** Media planned for a post (compose refine step). */
export const COMPOSE_MEDIA_TYPES = ['photo', 'video', 'none'] as const;

/** The three steps of the compose tool. */
export const COMPOSE_STEPS = ['compose', 'refine', 'score'] as const;

/** Radar topic categories. */
export const RADAR_CATEGORIES = [
  'general',
  'tech',
  'dev',
  'science',
  'culture',
  'politics',
  'business',
  'entertainment',
] as const;

/** Curated sources the radar reads. */
export const RADAR_SOURCES = [
  'github',
  'google_trends',
  'hacker_news',
  'polymarket',
  'reddit',
  'trustmrr',
  'wikipedia',
] as const;

/** A platform username, 1-15 letters, digits or underscores (spec 8.3), with an optional leading @. */
const styleUsername = z
  .string()
  .regex(/^@?[A-Za-z0-9_]{1,15}$/, 'must be a username of 1-15 letters, digits or underscores');

// ---- compose: requests -------------------------------------------------------------------------------

/** Compose step 1 (`compose`): gather the rules and questions for a topic. */
export const ComposePrepareRequestSchema = z.object({
  step: z.literal('compose').describe('`compose`: start from a topic.'),
  topic: z.string().min(1).describe('What the post is about.'),
  goal: z.enum(COMPOSE_GOALS).optional().describe('What the post should achieve.'),
  styleUsername: styleUsername
    .optional()
    .describe('Username of a cached style to write like (analyze it first with `styles analyze`).'),
});

/** Compose step 2 (`refine`): guidance for a topic, goal and tone. */
export const ComposeRefineRequestSchema = z.object({
  step: z.literal('refine').describe('`refine`: turn the answers to the follow-up questions into guidance.'),
  topic: z.string().min(1).describe('What the post is about.'),
  goal: z.enum(COMPOSE_GOALS).describe('What the post should achieve.'),
  tone: z.string().min(1).describe('Voice of the post (for example `casual`, `technical`).'),
  mediaType: z.enum(COMPOSE_MEDIA_TYPES).optional().describe('Media planned with the post.'),
  callToAction: z.string().min(1).optional().describe('What readers should do after reading.'),
  additionalContext: z.string().min(1).optional().describe('Anything else the guidance should consider.'),
});

/** Compose step 3 (`score`): check a written draft against the ranking checklist. */
export const ComposeScoreRequestSchema = z.object({
  step: z.literal('score').describe('`score`: check a finished draft.'),
  draft: z.string().min(1).describe('Text of the draft to check.'),
  hasLink: z.boolean().default(false).describe('True when the post will carry a link.'),
  hasMedia: z.boolean().optional().describe('True when the post will carry media.'),
});

/** The body of the compose tool: one of its three steps, chosen by `step`. */
export const ComposeRequestSchema = z.discriminatedUnion('step', [
  ComposePrepareRequestSchema,
  ComposeRefineRequestSchema,
  ComposeScoreRequestSchema,
]);

// ---- compose: results --------------------------------------------------------------------------------

/** A writing rule to follow. */
export const ComposeContentRuleSchema = z.object({ rule: z.string().describe('The rule.') });

/** A ranking signal and the direction it pushes, in a context; its weight is unpublished. */
export const ComposeScorerSignalSchema = z.object({
  context: z.string().describe('Where the signal applies and which way it pushes.'),
  signal: z.string().describe('The ranking signal.'),
  weight: z.null().describe('Always null: the production weight is unpublished.'),
});

/**
 * The `multiplier` of every engagement action: the platform does not publish its production weights, and the
 * reference fixes this sentence (clients validate it as a literal) instead of a number.
 */
export const UNPUBLISHED_MULTIPLIER = 'Production weight not published by X';

/** A public engagement action; its production multiplier is unpublished. */
export const ComposeSignalLabelSchema = z.object({
  action: z.string().describe('The engagement action (reply, repost, ...).'),
  multiplier: z
    .literal(UNPUBLISHED_MULTIPLIER)
    .describe('Always the same sentence: the production weight is unpublished.'),
});

/** A cached style the account can write with. */
export const ComposeSavedStyleSchema = z.object({
  username: z.string().describe('Username of the cached style.'),
  tweetCount: z.number().int().describe('Tweets in the cached style.'),
});

/** A radar source worth reading for the post: which feed to call and what to use it for. */
export const ComposeRadarRecommendationSchema = z.object({
  source: openEnum(RADAR_SOURCES).describe('The radar source.'),
  endpoint: z.string().describe('The radar endpoint for that source (`/api/v1/radar?source=...`).'),
  guidance: z.string().describe('What the source currently has on the topic.'),
  useFor: z.string().describe('What the source is good for in a post.'),
});

/** A post pattern to imitate. */
export const ComposeExamplePatternSchema = z.object({
  pattern: z.string().describe('The pattern.'),
  description: z.string().describe('Why and how it works.'),
});

/** One item of the score checklist. */
export const ComposeScoreCheckSchema = z.object({
  factor: z.string().describe('What was checked.'),
  passed: z.boolean().describe('True when the draft passes this check.'),
  suggestion: z.string().optional().describe('How to fix the draft; given for failed checks.'),
});

/** The result of the `compose` step: rules, weights and follow-up questions. */
export const ComposePrepareResultSchema = z.object({
  contentRules: z.array(ComposeContentRuleSchema).describe('Writing rules to follow.'),
  scorerWeights: z
    .array(ComposeScorerSignalSchema)
    .describe('Ranking signals and their direction (weights unpublished, always null).'),
  followUpQuestions: z.array(z.string()).describe('Questions to answer before the `refine` step.'),
  engagementMultipliers: z.array(ComposeSignalLabelSchema).describe('Value of each engagement action.'),
  engagementVelocity: z.string().describe('Why early engagement matters and how to get it.'),
  intentUrl: z.string().describe('Link that opens the platform’s composer.'),
  nextStep: z.string().describe('What to do next.'),
  topPenalties: z.array(z.string()).describe('What lowers reach the most.'),
  source: z.string().describe('Where the rules come from.'),
  radarRecommendations: z
    .array(ComposeRadarRecommendationSchema)
    .describe('Radar sources with recent items on the topic, best match first; empty when none.'),
  savedStyles: z.array(ComposeSavedStyleSchema).optional().describe('Cached styles of the account.'),
  styleNote: z.string().optional().describe('How to use the chosen style.'),
  styleTweets: z.array(z.string()).optional().describe('Sample tweets of the chosen style.'),
});

/** The result of the `refine` step: guidance and patterns. */
export const ComposeRefineResultSchema = z.object({
  compositionGuidance: z.array(z.string()).describe('How to write the post.'),
  examplePatterns: z.array(ComposeExamplePatternSchema).describe('Patterns to imitate.'),
  intentUrl: z.string().describe('Link that opens the platform’s composer.'),
  nextStep: z.string().describe('What to do next.'),
});

/** The result of the `score` step: the checklist. */
export const ComposeScoreResultSchema = z.object({
  totalChecks: z.number().int().describe('Checks run.'),
  passedCount: z.number().int().min(0).max(9).describe('Checks passed.'),
  passed: z.boolean().describe('True when every check passed.'),
  topSuggestion: z.string().describe('The most useful fix.'),
  checklist: z.array(ComposeScoreCheckSchema).describe('Each check and its outcome.'),
  nextStep: z.string().describe('What to do next.'),
  intentUrl: z.string().optional().describe('Link that opens the composer; only when every check passed.'),
});

/** The answer of the compose tool: the result of the requested step. */
export const ComposeResultSchema = z.union([
  ComposePrepareResultSchema,
  ComposeRefineResultSchema,
  ComposeScoreResultSchema,
]);

// ---- drafts ------------------------------------------------------------------------------------------

/** A saved draft. */
export const DraftSchema = z.object({
  id: z.string().describe('Identifier of the draft.'),
  text: z.string().describe('Text of the draft.'),
  topic: z.string().optional().describe('Topic it was written for.'),
  goal: openEnum(COMPOSE_GOALS).optional().describe('Goal it was written for.'),
  createdAt: z.string().describe('When the draft was saved (ISO 8601).'),
  updatedAt: z.string().describe('When the draft last changed (ISO 8601).'),
});

/** The body of draft creation. */
export const DraftRequestSchema = z.object({
  text: z.string().min(1).describe('Text of the draft.'),
  topic: z.string().min(1).optional().describe('Topic it is written for.'),
  goal: z.enum(COMPOSE_GOALS).optional().describe('Goal it is written for.'),
});

// ---- styles ------------------------------------------------------------------------------------------

/** A tweet of a style sample (spec 2.9). */
export const StyleTweetSchema = z.object({
  id: z.string().describe('Id of the tweet.'),
  text: z.string().describe('Text of the tweet.'),
  authorUsername: z.string().describe('Username (no @) of its author.'),
  createdAt: z.string().describe('When it was posted.'),
  media: z.array(TweetMediaSchema).optional().describe('Its media; omitted when none.'),
});

/** A cached writing style (spec 2.9): recent tweets of an account, fresh for 7 days. */
export const StyleSchema = z.object({
  xUsername: z.string().describe('Username of the style, lowercase, no @.'),
  tweetCount: z.number().int().describe('Tweets in the sample.'),
  isOwnAccount: z.boolean().describe('True when this is the account’s own linked username.'),
  fetchedAt: z.string().describe('When the tweets were fetched; the cache is fresh for 7 days.'),
  tweets: z.array(StyleTweetSchema).describe('The sample tweets.'),
});

/** A cached style as listed: the style without its tweets. */
export const StyleSummarySchema = StyleSchema.omit({ tweets: true });

/** Two styles side by side. */
export const StyleComparisonSchema = z.object({
  style1: StyleSchema.describe('The style of `username1`.'),
  style2: StyleSchema.describe('The style of `username2`.'),
});

/** A style tweet with its engagement counts (the counts are omitted when unknown). */
export const StylePerformanceTweetSchema = StyleTweetSchema.extend({
  likeCount: z.number().int().optional().describe('Likes.'),
  retweetCount: z.number().int().optional().describe('Reposts.'),
  replyCount: z.number().int().optional().describe('Replies.'),
  quoteCount: z.number().int().optional().describe('Quotes.'),
  viewCount: z.number().int().optional().describe('Views.'),
  bookmarkCount: z.number().int().optional().describe('Bookmarks.'),
});

/** Engagement of the tweets of a style. */
export const StylePerformanceSchema = z.object({
  xUsername: z.string().describe('Username of the style.'),
  tweetCount: z.number().int().describe('Tweets measured.'),
  tweets: z.array(StylePerformanceTweetSchema).describe('Each tweet with its engagement.'),
});

/** A tweet written into a custom style. */
export const CustomStyleTweetSchema = z.object({
  text: z.string().min(1).describe('Text of the tweet.'),
});

/** The body of saving a custom style. */
export const SaveStyleRequestSchema = z.object({
  label: z.string().min(1).describe('Name to show for the style.'),
  tweets: z.array(CustomStyleTweetSchema).min(1).describe('Sample tweets that define the style.'),
});

/** The body of style analysis. */
export const AnalyzeStyleRequestSchema = z.object({
  username: z
    .string()
    .min(limits.styleUsername.min)
    .max(limits.styleUsername.max)
    .regex(/^[A-Za-z0-9_]+$/, 'must be letters, digits or underscores (no @)')
    .describe('Username whose recent tweets define the style: 1-15 letters, digits or underscores, no @.'),
});

// ---- radar -------------------------------------------------------------------------------------------

/** A trending item of the radar. */
export const RadarItemSchema = z.object({
  id: z.string().describe('Identifier of the item.'),
  title: z.string().describe('Headline of the item.'),
  source: openEnum(RADAR_SOURCES).describe('Source it comes from.'),
  sourceId: z.string().describe('Id of the item at its source (used to de-duplicate).'),
  url: z.string().optional().describe('Link to the item at its source.'),
  description: z.string().optional().describe('Short summary.'),
  category: openEnum(RADAR_CATEGORIES).describe('Topic category.'),
  language: z.string().describe('Language of the item (BCP 47; `und` when not identified).'),
  region: z.string().describe('Region it trends in.'),
  score: z.number().describe('Trend strength used for ranking.'),
  publishedAt: z.string().describe('When it appeared at the source (ISO 8601).'),
  createdAt: z.string().describe('When the radar recorded it (ISO 8601).'),
  metadata: z
    .record(z.string(), z.unknown())
    .describe('Source-specific fields (about 15 per source, see `RadarRevenueMetadataSchema`).'),
});

/**
 * `metadata` of revenue-marketplace items (the names spec 2.15 gives): revenue figures of a business and
 * whether it is for sale.
 */
export const RadarRevenueMetadataSchema = z.object({
  mrr: z.number().describe('Monthly recurring revenue.'),
  growthPercent: z.number().describe('Revenue growth, percent.'),
  last30Days: z.number().describe('Revenue of the last 30 days.'),
  total: z.number().describe('Total revenue.'),
  customers: z.number().describe('Customers.'),
  activeSubscriptions: z.number().describe('Active subscriptions.'),
  onSale: z.boolean().describe('True when the business is for sale.'),
  askingPrice: z.number().optional().describe('Asking price, when for sale.'),
  country: z.string().optional().describe('Country of the business.'),
  growthMrrPercent: z.number().optional().describe('MRR growth, percent.'),
  multiple: z.number().optional().describe('Asking price as a multiple of revenue.'),
  paymentProvider: z.string().optional().describe('Payment provider the revenue is verified with.'),
  rank: z.number().optional().describe('Rank at the source.'),
  category: z.string().optional().describe('Category at the source.'),
  xHandle: z.string().optional().describe('Platform username of the business.'),
});

export type ComposeRequest = z.input<typeof ComposeRequestSchema>;
export type ComposePrepareRequest = z.input<typeof ComposePrepareRequestSchema>;
export type ComposeRefineRequest = z.input<typeof ComposeRefineRequestSchema>;
export type ComposeScoreRequest = z.input<typeof ComposeScoreRequestSchema>;
export type ComposeContentRule = z.infer<typeof ComposeContentRuleSchema>;
export type ComposeScorerSignal = z.infer<typeof ComposeScorerSignalSchema>;
export type ComposeSignalLabel = z.infer<typeof ComposeSignalLabelSchema>;
export type ComposeSavedStyle = z.infer<typeof ComposeSavedStyleSchema>;
export type ComposeRadarRecommendation = z.infer<typeof ComposeRadarRecommendationSchema>;
export type ComposeExamplePattern = z.infer<typeof ComposeExamplePatternSchema>;
export type ComposeScoreCheck = z.infer<typeof ComposeScoreCheckSchema>;
export type ComposePrepareResult = z.infer<typeof ComposePrepareResultSchema>;
export type ComposeRefineResult = z.infer<typeof ComposeRefineResultSchema>;
export type ComposeScoreResult = z.infer<typeof ComposeScoreResultSchema>;
export type ComposeResult = z.infer<typeof ComposeResultSchema>;
export type Draft = z.infer<typeof DraftSchema>;
export type DraftRequest = z.input<typeof DraftRequestSchema>;
export type StyleTweet = z.infer<typeof StyleTweetSchema>;
export type Style = z.infer<typeof StyleSchema>;
export type StyleSummary = z.infer<typeof StyleSummarySchema>;
export type StyleComparison = z.infer<typeof StyleComparisonSchema>;
export type StylePerformanceTweet = z.infer<typeof StylePerformanceTweetSchema>;
export type StylePerformance = z.infer<typeof StylePerformanceSchema>;
export type CustomStyleTweet = z.infer<typeof CustomStyleTweetSchema>;
export type SaveStyleRequest = z.input<typeof SaveStyleRequestSchema>;
export type AnalyzeStyleRequest = z.input<typeof AnalyzeStyleRequestSchema>;
export type RadarItem = z.infer<typeof RadarItemSchema>;
export type RadarRevenueMetadata = z.infer<typeof RadarRevenueMetadataSchema>;
