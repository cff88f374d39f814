import { z } from 'zod';
import { openEnum } from '../zod-helpers.js';
import { ErrorBodySchema } from './common.js';

/**
 * The `account` body field of every write: the connected account that acts, as its @username or its id.
 * Surrounding spaces and a leading @ are removed before validation.
 */
export const WriteAccountRef = z
  .string()
  .trim()
  .overwrite((v) => v.replace(/^@/, ''))
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be the @username or id of a connected account')
  .describe(
    'Connected platform account that performs the write: its @username or its id (a leading @ is stripped).',
  );

/** The body field of every write: `account` (its one description serves every write). */
export const writeAccountBody = { account: WriteAccountRef };

/** The 18 durable write actions (reference `x-write-action` names), one per write operation. */
export const WRITE_ACTIONS = [
  'create_tweet',
  'delete_tweet',
  'like',
  'unlike',
  'retweet',
  'unretweet',
  'follow',
  'unfollow',
  'remove_follower',
  'send_dm',
  'upload_media',
  'update_profile',
  'update_avatar',
  'update_banner',
  'create_community',
  'delete_community',
  'join_community',
  'leave_community',
] as const;
export type WriteActionName = (typeof WRITE_ACTIONS)[number];

/** Every state of a write action (spec 3.6; the terminal names come from the reference). */
export const WRITE_ACTION_STATUSES = [
  'accepted',
  'dispatching',
  'pending_confirmation',
  'success',
  'failed',
  'expired',
] as const;
export type WriteActionStatus = (typeof WRITE_ACTION_STATUSES)[number];

/** The states after which a write action never changes again (`terminal: true`): stop polling. */
export const WRITE_ACTION_TERMINAL_STATUSES = ['success', 'failed', 'expired'] as const;
export type WriteActionTerminalStatus = (typeof WRITE_ACTION_TERMINAL_STATUSES)[number];

/** True when `status` is one of {@link WRITE_ACTION_TERMINAL_STATUSES}. */
export function isTerminalWriteActionStatus(status: string): status is WriteActionTerminalStatus {
  return (WRITE_ACTION_TERMINAL_STATUSES as readonly string[]).includes(status);
}

/**
 * What the client should do next (spec 4.13, reference `XWriteActionNextAction`): `poll` the status URL,
 * `retry` with a new `Idempotency-Key`, `verify_result` on the platform before sending again, `fix_request`
 * and send a corrected request. There is no "nothing to do" value: `nextAction` is null then.
 */
export const WRITE_ACTION_NEXT_ACTION_TYPES = ['poll', 'retry', 'verify_result', 'fix_request'] as const;
export type WriteActionNextActionType = (typeof WRITE_ACTION_NEXT_ACTION_TYPES)[number];

/** Billing states of a write action. */
export const WRITE_ACTION_BILLING_STATUSES = [
  'not_charged',
  'pending',
  'charged',
  'charge_failed',
  'refunded',
] as const;
export type WriteActionBillingStatus = (typeof WRITE_ACTION_BILLING_STATUSES)[number];

/** Kinds of outcome a write action produces. */
export const WRITE_ACTION_RESULT_TYPES = [
  'tweet',
  'direct_message',
  'media',
  'community',
  'state_change',
] as const;
export type WriteActionResultType = (typeof WRITE_ACTION_RESULT_TYPES)[number];

/** Kinds of existing object a write action acts on (writes on nothing existing have a null `target`). */
export const WRITE_ACTION_TARGET_TYPES = ['tweet', 'user', 'community'] as const;
export type WriteActionTargetType = (typeof WRITE_ACTION_TARGET_TYPES)[number];

/** A non-negative integer carried as a decimal string (the reference's `^\d+$`). */
const UnsignedCreditString = z.string().regex(/^\d{1,20}$/, 'must be a non-negative integer string');

/** A lowercase hex SHA-256 digest. */
const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits');

/** `billing` of a write action (reference `XWriteActionBilling`); no charge while pending or after a failure. */
export const WriteActionBillingSchema = z.object({
  status: openEnum(WRITE_ACTION_BILLING_STATUSES).describe(
    'Where the charge stands: not_charged (nothing billed, for example a failed write), pending (billed once the platform confirms), charged, charge_failed or refunded.',
  ),
  charged: z.boolean().describe('True when the credits were taken.'),
  chargedCredits: UnsignedCreditString.describe('Credits taken, as an integer string ("0" when none).'),
  plannedCredits: UnsignedCreditString.describe(
    'Credits the write costs when the platform confirms it (the approved maximum), as an integer string.',
  ),
});
export type WriteActionBilling = z.infer<typeof WriteActionBillingSchema>;

/** `request` of a write action (reference `XWriteActionRequest`): what was asked, for replay checks. */
export const WriteActionRequestSchema = z.object({
  hash: Sha256Hex.nullable().describe(
    'SHA-256 of the canonical request (account, action, target and payload); a replay with the same Idempotency-Key must have the same hash.',
  ),
  payload: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'The sanitized payload sent (or to be sent) to the platform: the path parameters and body without `account`, uploaded files as their type, size and SHA-256.',
    ),
});
export type WriteActionRequest = z.infer<typeof WriteActionRequestSchema>;

/** `account` of a write action (reference `XWriteActionAccount`): the connected account that acts. */
export const WriteActionAccountSchema = z.object({
  id: z.string().describe('Id of the connected platform account performing the write.'),
  username: z.string().describe('Platform username of that account, without @.'),
});
export type WriteActionAccount = z.infer<typeof WriteActionAccountSchema>;

/** `target` of a write action (reference `XWriteActionTarget`): the existing object the write acts on. */
export const WriteActionTargetSchema = z.object({
  id: z.string().describe('Id of the tweet, user or community acted on.'),
  type: openEnum(WRITE_ACTION_TARGET_TYPES).describe('Kind of object acted on: tweet, user or community.'),
});
export type WriteActionTarget = z.infer<typeof WriteActionTargetSchema>;

/** `result` of a write action (reference `XWriteActionResult`): what the confirmed write produced. */
export const WriteActionResultSchema = z.object({
  id: z
    .string()
    .optional()
    .describe('Id of the created tweet, message, media or community (absent for state changes).'),
  state: z
    .string()
    .optional()
    .describe('For state changes: the state that now holds (liked, following, member, deleted, ...).'),
  type: openEnum(WRITE_ACTION_RESULT_TYPES)
    .optional()
    .describe(
      'Kind of outcome: a tweet, a direct message, uploaded media, a community, or a state change (like, follow, join, profile and their undo).',
    ),
});
export type WriteActionResult = z.infer<typeof WriteActionResultSchema>;

/** `nextAction` of a write action (reference `XWriteActionNextAction`). */
export const WriteActionNextActionSchema = z.object({
  type: openEnum(WRITE_ACTION_NEXT_ACTION_TYPES).describe(
    'What to do now: poll the status URL, retry with a new Idempotency-Key, verify_result on the platform before sending again, or fix_request.',
  ),
  afterMs: z.number().int().min(0).optional().describe('Milliseconds to wait before doing it.'),
  requiresNewIdempotencyKey: z
    .boolean()
    .optional()
    .describe('True when the step sends the write again, which needs a new Idempotency-Key.'),
  url: z.string().optional().describe('URL to call for it (the status URL when polling).'),
});
export type WriteActionNextAction = z.infer<typeof WriteActionNextActionSchema>;

/** Media produced by an upload (reference `media` object of the write action). */
export const WriteActionMediaSchema = z.object({
  id: z.string().describe('Platform media id, to attach to a tweet or a direct message.'),
  url: z.string().optional().describe('URL of the uploaded file, when the platform exposes one.'),
  type: openEnum(['image', 'gif', 'video']).optional().describe('Kind of media.'),
  mimeType: z.string().optional().describe('Content type of the uploaded file.'),
  sizeBytes: z.number().int().min(0).optional().describe('Size of the uploaded file in bytes.'),
  expiresAt: z
    .string()
    .optional()
    .describe('When the platform discards the media if it is not used (ISO 8601).'),
});
export type WriteActionMedia = z.infer<typeof WriteActionMediaSchema>;

/**
 * A durable write action (spec 2.16, reference `XWriteAction`): the answer of every write (200 when terminal,
 * 202 while active) and of the status poll. While `terminal` is false, poll `statusUrl` after `pollAfterMs`
 * (or `Retry-After`); retry only when `safeToRetry` is true, with a new `Idempotency-Key`; never re-send while
 * the status is `pending_confirmation`.
 */
export const WriteActionSchema = z.object({
  object: z.literal('x_write_action').describe('Always `x_write_action`.'),
  id: z.string().describe('Id of the write action.'),
  writeActionId: z
    .string()
    .describe('Same as `id`; named so that 202 unconfirmed-write bodies identify the action.'),
  action: openEnum(WRITE_ACTIONS).describe('Which write this is (create_tweet, like, follow, ...).'),
  status: openEnum(WRITE_ACTION_STATUSES).describe(
    'Lifecycle state: accepted, dispatching, pending_confirmation (active), then success, failed or expired (terminal).',
  ),
  terminal: z.boolean().describe('True once the status is final; stop polling.'),
  retryable: z.boolean().describe('True when the failure is of a kind that may succeed on another attempt.'),
  safeToRetry: z
    .boolean()
    .describe('True only when sending the write again (with a new Idempotency-Key) cannot duplicate it.'),
  statusUrl: z.string().describe('URL of the status poll for this action.'),
  pollAfterMs: z
    .number()
    .int()
    .min(0)
    .nullable()
    .describe('Milliseconds to wait before the next poll; null when the action is terminal.'),
  charged: z.boolean().describe('True when credits were taken for this action.'),
  chargedCredits: UnsignedCreditString.describe(
    'Credits taken for this action, as an integer string ("0" when none).',
  ),
  billing: WriteActionBillingSchema.describe('Billing state of the action.'),
  request: WriteActionRequestSchema.describe(
    'Fingerprint and payload of the request that created the action.',
  ),
  account: WriteActionAccountSchema.nullable().describe('Connected account performing the write.'),
  target: WriteActionTargetSchema.nullable().describe(
    'The existing tweet, user or community the write acts on; null when it acts on none (a new tweet, an upload, a profile change) or the user is not resolved yet.',
  ),
  targetId: z.string().nullable().describe('Same as `target.id`; null when there is no target.'),
  result: WriteActionResultSchema.nullable().describe(
    'What the write produced; null until the platform confirmed it.',
  ),
  nextAction: WriteActionNextActionSchema.nullable().describe(
    'What the client should do next; null when nothing is left to do (a confirmed success).',
  ),
  requestHash: Sha256Hex.optional().describe('Same as `request.hash`.'),
  requestId: z.string().optional().describe('Id of the HTTP request (also the X-Request-Id header).'),
  idempotent: z
    .boolean()
    .optional()
    .describe('True when this answer is a replay of an earlier request with the same key.'),
  error: z
    .string()
    .optional()
    .describe('Error code of a failed or unconfirmed write (for example x_write_unconfirmed, x_rejected).'),
  message: z.string().optional().describe('Human-readable explanation of the state or error.'),
  sendDispatched: z
    .boolean()
    .describe('True once the write was sent to the platform (so it may have happened).'),
  sendDispatchedAt: z.string().optional().describe('When the write was sent to the platform (ISO 8601).'),
  createdAt: z.string().optional().describe('When the action was created (ISO 8601).'),
  updatedAt: z.string().optional().describe('When the action last changed (ISO 8601).'),
  completedAt: z.string().optional().describe('When the action became terminal (ISO 8601).'),
  expiresAt: z
    .string()
    .optional()
    .describe('When an unconfirmed action gives up and becomes expired (ISO 8601).'),
  confirmedAt: z.string().optional().describe('When the platform confirmed the write (ISO 8601).'),
  confirmationCheckedAt: z
    .string()
    .optional()
    .describe('When the service last checked for confirmation (ISO 8601).'),
  confirmationAttempts: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('How many times the service checked the platform for confirmation.'),
  tweetId: z.string().optional().describe('Id of the created tweet (create_tweet).'),
  messageId: z.string().optional().describe('Id of the sent direct message (send_dm).'),
  mediaId: z.string().optional().describe('Id of the uploaded media (upload_media).'),
  mediaUrl: z.string().optional().describe('URL of the uploaded media (upload_media).'),
  communityId: z.string().optional().describe('Id of the created community (create_community).'),
  communityName: z.string().optional().describe('Name of the created or affected community.'),
  resultId: z.string().optional().describe('Id of whatever the write produced, whatever its type.'),
  media: WriteActionMediaSchema.optional().describe('The uploaded media (upload_media).'),
  details: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'Structured context that helps recover from a failure (for example why nothing was charged); its keys are not part of the contract.',
    ),
  success: z.boolean().describe('True only when the status is success.'),
});
export type WriteAction = z.infer<typeof WriteActionSchema>;

/**
 * The error body of a write (reference `XWriteActionError`): the usual `{ error, message?, retryAfter? }` plus,
 * when a write action exists for the request, the fields that identify it and say whether to retry.
 */
export const WriteActionErrorSchema = z.looseObject({
  ...ErrorBodySchema.shape,
  error: z.string().describe('Error code (for example idempotency_conflict, invalid_input).'),
  message: z.string().optional().describe('Human-readable explanation.'),
  object: z
    .literal('x_write_action')
    .optional()
    .describe('Present when the body also describes a write action.'),
  id: z.string().optional().describe('Id of the write action concerned, when one exists.'),
  writeActionId: z.string().optional().describe('Same as `id`.'),
  action: openEnum(WRITE_ACTIONS).optional().describe('Which write was attempted.'),
  status: openEnum(WRITE_ACTION_STATUSES).optional().describe('State of the existing write action.'),
  terminal: z.boolean().optional().describe('True when the existing write action is final.'),
  retryable: z.boolean().optional().describe('True when the failure may clear on another attempt.'),
  safeToRetry: z
    .boolean()
    .optional()
    .describe('True only when sending again with a new Idempotency-Key is safe.'),
  statusUrl: z.string().optional().describe('Status URL of the existing write action.'),
  pollAfterMs: z.number().int().min(0).nullable().optional().describe('Milliseconds to wait before polling.'),
  requestHash: Sha256Hex.optional().describe('Hash of the request first stored under this Idempotency-Key.'),
  requestId: z.string().optional().describe('Id of the HTTP request.'),
  nextAction: WriteActionNextActionSchema.nullable()
    .optional()
    .describe('What the client should do next; null when nothing is left to do.'),
});
export type WriteActionError = z.infer<typeof WriteActionErrorSchema>;
