import { z } from 'zod';
import { openEnum } from '../zod-helpers.js';

/** States of a draw; the reference shows only `completed` (spec 3.7). */
export const DRAW_STATUSES = ['completed'] as const;

/** What a draw export contains. */
export const DRAW_EXPORT_TYPES = ['winners', 'entries'] as const;

/**
 * A tweet status URL on x.com or twitter.com (optionally `www.` or `mobile.`), e.g.
 * `https://x.com/jack/status/20`, including the `/i/web/status/<id>` form; query and fragment are allowed.
 */
export const TWEET_STATUS_URL =
  /^https?:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/(?:[A-Za-z0-9_]{1,15}|i\/web)\/status(?:es)?\/\d{1,25}\/?(?:[?#].*)?$/;

/** A winner (or backup) of a draw (spec 2.7). */
export const WinnerSchema = z.object({
  position: z.number().int().min(1).describe('Rank in the draw, starting at 1; backups follow the winners.'),
  authorUsername: z.string().describe('Username (no @) of the author of the winning reply.'),
  tweetId: z.string().describe('Id of the winning reply.'),
  isBackup: z.boolean().describe('True for a backup winner, drawn in case a winner is disqualified.'),
});

/** A draw as listed (spec 2.7), newest first. */
export const DrawListItemSchema = z.object({
  id: z.string().describe('Identifier of the draw (UUID).'),
  tweetUrl: z.string().describe('Giveaway tweet whose replies were drawn from.'),
  status: openEnum(DRAW_STATUSES).describe('State of the draw; `completed` once winners are picked.'),
  totalEntries: z.number().int().describe('Candidate entries inspected (capped by the credits available).'),
  validEntries: z.number().int().describe('Entries that passed every eligibility filter.'),
  createdAt: z.string().describe('When the draw was requested (ISO 8601).'),
  drawnAt: z.string().describe('When the winners were picked (ISO 8601).'),
});

/**
 * What makes a draw verifiable (procedure `xsvc-draw-v1`, docs/guides/draws.md): the hash of a random seed
 * fixed before any entry was read, the seed itself (revealed once the winners are drawn), and the hashes
 * of the entry list and of the request it was run with. `verifyDraw` in `@xsvc/sdk/draws` and
 * `xsvc draws verify <id>` re-run the draw from these and the entries export.
 */
export const DrawVerificationSchema = z.object({
  procedure: z.string().describe('How winners follow from the seed and the entries: `xsvc-draw-v1`.'),
  seedHash: z
    .string()
    .describe('SHA-256 (hex) of the 32-byte seed, fixed and stored before any entry was read.'),
  seedCommittedAt: z.string().describe('When the seed hash was fixed (ISO 8601), before any entry was read.'),
  seed: z.string().optional().describe('The seed (64 hex digits), revealed once the winners are drawn.'),
  entriesHash: z
    .string()
    .describe('SHA-256 (hex) of the entry list (position, reply id, author id, `valid` or the reason).'),
  filters: z
    .record(z.string(), z.unknown())
    .describe('The request the draw ran with: tweet URL, winner and backup counts, filters.'),
  filtersHash: z.string().describe('SHA-256 (hex) of `filters` as canonical JSON (sorted keys, no spaces).'),
  commitmentId: z
    .string()
    .optional()
    .describe(
      'A committed draw (`xsvc-draw-v2`): the commitment it used, whose `seedHash` the organiser held before.',
    ),
  organiserEntropy: z
    .string()
    .optional()
    .describe(
      'A committed draw: the entropy the organiser gave when it ran; winners follow from SHA-256(seed bytes ‖ entropy).',
    ),
  organiserEntropyHash: z
    .string()
    .optional()
    .describe('A committed draw: the hash of the entropy the organiser committed to in advance, if any.'),
});

const HEX_64 = /^[0-9a-f]{64}$/;

/** The body of a draw commitment: optionally the hash of the entropy the organiser will give. */
export const DrawCommitmentRequestSchema = z.object({
  entropyHash: z
    .string()
    .regex(HEX_64, 'must be 64 lowercase hex digits (SHA-256 of your entropy)')
    .optional()
    .describe(
      'SHA-256 (lowercase hex) of the entropy you will give when the draw runs, to commit to it now as well.',
    ),
});

/**
 * A draw commitment: the hash of a server seed fixed now, before the giveaway's entries are read, to publish
 * with the giveaway. The draw that uses it mixes that seed with the organiser's entropy (`xsvc-draw-v2`).
 */
export const DrawCommitmentSchema = z.object({
  id: z
    .string()
    .describe('Identifier of the commitment (UUID): pass it as `commitmentId` when you run the draw.'),
  seedHash: z.string().describe('SHA-256 (hex) of the server seed; the seed is revealed with the draw.'),
  entropyHash: z.string().optional().describe('The hash of your entropy, when you committed to it.'),
  committedAt: z.string().describe('When the seed was fixed (ISO 8601).'),
});

/** A single draw with its tweet metadata (spec 2.7). */
export const DrawDetailSchema = z.object({
  id: z.string().describe('Identifier of the draw (UUID).'),
  tweetId: z.string().describe('Id of the giveaway tweet.'),
  tweetUrl: z.string().describe('URL of the giveaway tweet.'),
  status: openEnum(DRAW_STATUSES).describe('State of the draw; `completed` once winners are picked.'),
  totalEntries: z.number().int().describe('Candidate entries inspected (capped by the credits available).'),
  validEntries: z.number().int().describe('Entries that passed every eligibility filter.'),
  createdAt: z.string().describe('When the draw was requested (ISO 8601).'),
  drawnAt: z.string().describe('When the winners were picked (ISO 8601).'),
  tweetText: z.string().optional().describe('Text of the giveaway tweet, when known.'),
  tweetAuthorUsername: z
    .string()
    .optional()
    .describe('Username (no @) of the giveaway tweet’s author, when known.'),
  tweetCreatedAt: z.string().optional().describe('When the giveaway tweet was posted, when known.'),
  tweetLikeCount: z
    .number()
    .int()
    .describe('Likes of the giveaway tweet when the draw ran (0 when not reported).'),
  tweetRetweetCount: z
    .number()
    .int()
    .describe('Reposts of the giveaway tweet when the draw ran (0 when not reported).'),
  tweetReplyCount: z
    .number()
    .int()
    .describe('Replies to the giveaway tweet when the draw ran (0 when not reported).'),
  tweetQuoteCount: z
    .number()
    .int()
    .describe('Quotes of the giveaway tweet when the draw ran (0 when not reported).'),
  verification: DrawVerificationSchema.optional().describe(
    'The seed commitment and hashes that let anyone re-run the draw (absent on draws made before them).',
  ),
});

/** The 201 answer of a draw run (spec 2.7). */
export const DrawCreatedSchema = z.object({
  id: z.string().describe('Identifier of the new draw (UUID).'),
  tweetId: z.string().describe('Id of the giveaway tweet.'),
  totalEntries: z.number().int().describe('Candidate entries inspected (capped by the credits available).'),
  validEntries: z.number().int().describe('Entries that passed every eligibility filter.'),
  winners: z.array(WinnerSchema).describe('Winners first, then backups, by position.'),
});

/** The answer of the single-draw read. */
export const DrawWithWinnersSchema = z.object({
  draw: DrawDetailSchema.describe('The draw.'),
  winners: z.array(WinnerSchema).describe('Its winners and backups, by position.'),
});

const username = z
  .string()
  .regex(/^@?[A-Za-z0-9_]{1,15}$/, 'must be a username of 1-15 letters, digits or underscores');

/** The body of a draw run (spec 4.7). */
export const DrawRequestSchema = z.object({
  tweetUrl: z
    .string()
    .regex(TWEET_STATUS_URL, 'must be a tweet status URL on x.com or twitter.com')
    .describe(
      'Full status URL of the giveaway tweet on x.com or twitter.com (https://x.com/<user>/status/<id>).',
    ),
  winnerCount: z.number().int().min(1).default(1).describe('Winners to pick (default 1).'),
  backupCount: z.number().int().min(0).optional().describe('Backup winners to pick after the winners.'),
  uniqueAuthorsOnly: z
    .boolean()
    .optional()
    .describe('Count each reply author once, however many times they replied.'),
  mustRetweet: z
    .boolean()
    .optional()
    .describe('Only authors who also reposted the giveaway tweet are eligible.'),
  mustFollowUsername: username
    .optional()
    .describe('Only followers of this account are eligible (a leading @ is stripped).'),
  filterMinFollowers: z.number().int().min(0).optional().describe('Minimum followers an entrant must have.'),
  filterAccountAgeDays: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Minimum age, in days, of an entrant’s account.'),
  filterLanguage: z.string().min(1).optional().describe('Only replies in this language code (e.g. `en`).'),
  requiredKeywords: z
    .array(z.string().min(1))
    .optional()
    .describe('Words every eligible reply must contain.'),
  requiredHashtags: z
    .array(z.string().regex(/^#[^\s#]+$/, 'must be a hashtag starting with #'))
    .optional()
    .describe('Hashtags every eligible reply must contain, written with the # (e.g. `#giveaway`).'),
  requiredMentions: z
    .array(z.string().regex(/^@[A-Za-z0-9_]{1,15}$/, 'must be a username starting with @'))
    .optional()
    .describe('Accounts every eligible reply must mention, written with the @ (e.g. `@friend`).'),
  commitmentId: z
    .uuid()
    .optional()
    .describe(
      'A draw commitment of yours (`createDrawCommitment`), made and published before the giveaway; needs `organiserEntropy`.',
    ),
  organiserEntropy: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe(
      'Your entropy (1-256 characters), mixed with the committed seed; it must hash to the commitment’s `entropyHash` when it has one.',
    ),
});

export type Winner = z.infer<typeof WinnerSchema>;
export type DrawListItem = z.infer<typeof DrawListItemSchema>;
export type DrawDetail = z.infer<typeof DrawDetailSchema>;
export type DrawVerification = z.infer<typeof DrawVerificationSchema>;
export type DrawCreated = z.infer<typeof DrawCreatedSchema>;
export type DrawWithWinners = z.infer<typeof DrawWithWinnersSchema>;
export type DrawRequest = z.input<typeof DrawRequestSchema>;
export type DrawCommitment = z.infer<typeof DrawCommitmentSchema>;
export type DrawCommitmentRequest = z.input<typeof DrawCommitmentRequestSchema>;
