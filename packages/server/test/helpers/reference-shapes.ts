import { expect } from 'vitest';
import { z } from 'zod';

/**
 * Response shapes written by hand from `/work/shared/spec/reference-shapes.md` (the service's official SDK
 * types), deliberately NOT derived from our contract: tests check answers against both, so a drift between
 * our contract and the shapes file fails. Objects are strict (an extra key is a drift too) except where the
 * shapes file says `record` or an open index signature. Where interface-spec.md overrides the shapes file
 * (part 9 of it), the comment says so.
 */

const str = z.string();
const num = z.number();
const int = z.number().int();
const bool = z.boolean();
const record = z.record(z.string(), z.unknown());
const digits = z.string().regex(/^\d+$/);

// ---- 1. Write action ------------------------------------------------------------------------------------

const writeAccount = z.strictObject({ id: str, username: str });
const writeBilling = z.strictObject({
  status: z.enum(['not_charged', 'pending', 'charged', 'charge_failed', 'refunded']),
  charged: bool,
  chargedCredits: digits,
  plannedCredits: digits,
});
const writeRequest = z.strictObject({ hash: str.nullable(), payload: record.nullable() });
const writeTarget = z.strictObject({ id: str, type: z.enum(['tweet', 'user', 'community']) });
const writeResult = z.strictObject({
  id: str.optional(),
  state: str.optional(),
  type: z.enum(['tweet', 'direct_message', 'media', 'community', 'state_change']).optional(),
});
const writeNextAction = z.strictObject({
  type: z.enum(['poll', 'retry', 'verify_result', 'fix_request']),
  afterMs: num.optional(),
  requiresNewIdempotencyKey: bool.optional(),
  url: str.optional(),
});
const isoDate = z.iso.datetime({ offset: true });

/** `XWriteAction` (shapes file 1.1-1.3): every write's 200/202 body and `GET /x/write-actions/{id}`. */
export const XWriteAction = z.strictObject({
  object: z.literal('x_write_action'),
  id: str,
  writeActionId: str,
  action: z.enum([
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
  ]),
  status: z.enum(['accepted', 'dispatching', 'pending_confirmation', 'success', 'failed', 'expired']),
  terminal: bool,
  retryable: bool,
  safeToRetry: bool,
  statusUrl: str,
  pollAfterMs: int.min(0).nullable(),
  charged: bool,
  chargedCredits: digits,
  billing: writeBilling,
  request: writeRequest,
  account: writeAccount.nullable(),
  target: writeTarget.nullable(),
  targetId: str.nullable(),
  result: writeResult.nullable(),
  nextAction: writeNextAction.nullable(),
  sendDispatched: bool,
  success: bool,
  requestHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  requestId: str.optional(),
  idempotent: bool.optional(),
  error: str.optional(),
  message: str.optional(),
  details: record.optional(),
  media: record.optional(),
  sendDispatchedAt: isoDate.optional(),
  createdAt: isoDate.optional(),
  updatedAt: isoDate.optional(),
  completedAt: isoDate.optional(),
  confirmedAt: isoDate.optional(),
  confirmationCheckedAt: isoDate.optional(),
  expiresAt: isoDate.optional(),
  confirmationAttempts: int.min(0).optional(),
  tweetId: str.optional(),
  messageId: str.optional(),
  mediaId: str.optional(),
  mediaUrl: z.url().optional(),
  communityId: str.optional(),
  communityName: str.optional(),
  resultId: str.optional(),
});

/** Every reference shape by name, for {@link expectReferenceShape}. */
export const referenceShapes = {
  XWriteAction,
} as const;

/** Checks an answer against a reference shape written from the shapes file; the failure names the paths. */
export function expectReferenceShape(name: keyof typeof referenceShapes, body: unknown): void {
  const r = referenceShapes[name].safeParse(body);
  if (!r.success)
    throw new Error(
      `${name} differs from reference-shapes.md: ${JSON.stringify(r.error.issues.slice(0, 5))}`,
    );
  expect(r.success).toBe(true);
}
