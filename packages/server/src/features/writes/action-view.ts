import type { schemas } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import { num } from '../../core/db/database.js';
import type { WriteResult } from '../../core/platform/account-writes.js';
import { type ActionRow, isTerminal } from './action-rows.js';

/** A write action as answered (the input side of the contract's schema). */
export type WriteActionView = z.input<typeof schemas.WriteActionSchema>;
type NextAction = WriteActionView['nextAction'];

/** How long to wait before polling an active action again. */
export const POLL_AFTER_MS = 1_000;

type ResultType = NonNullable<WriteResult['type']>;
const RESULT_TYPES: Record<string, ResultType> = {
  create_tweet: 'tweet',
  send_dm: 'direct_message',
  upload_media: 'media',
  create_community: 'community',
  delete_community: 'community',
};

/** Where an action is polled. */
export const statusPath = (id: string) => `/api/v1/x/write-actions/${id}`;

const iso = (ms: unknown) => new Date(num(ms as number)).toISOString();

/** The platform's result stored on an action. */
export function storedResult(row: ActionRow): WriteResult | undefined {
  return row.result ? (JSON.parse(row.result) as WriteResult) : undefined;
}

/**
 * What the client should do next, by state (spec 4.13): null once confirmed (the reference's enum has no
 * "nothing to do" value), `verify_result` when the outcome stayed unknown, `retry` (a fresh key) when
 * nothing was sent, `fix_request` when the platform refused it, and `poll` while active.
 */
function nextAction(row: ActionRow, statusUrl: string): NextAction {
  switch (row.status) {
    case 'success':
      return null;
    case 'expired':
      return { type: 'verify_result' };
    case 'failed':
      return { type: num(row.safe_to_retry) ? 'retry' : 'fix_request', requiresNewIdempotencyKey: true };
    default:
      return { type: 'poll', afterMs: POLL_AFTER_MS, url: statusUrl };
  }
}

/** The state a confirmed state change leaves (reference `result.state`), by action. */
const RESULT_STATES: Record<string, string> = {
  delete_tweet: 'deleted',
  like: 'liked',
  unlike: 'not_liked',
  retweet: 'retweeted',
  unretweet: 'not_retweeted',
  follow: 'following',
  unfollow: 'not_following',
  remove_follower: 'removed',
  update_profile: 'updated',
  update_avatar: 'updated',
  update_banner: 'updated',
  delete_community: 'deleted',
  join_community: 'member',
  leave_community: 'not_member',
};

/** `result`: what the confirmed write produced; null until the platform confirmed it. */
function resultOf(row: ActionRow, result: WriteResult | undefined): WriteActionView['result'] {
  if (row.status !== 'success' || !result) return null;
  const type = result.type ?? RESULT_TYPES[row.action] ?? 'state_change';
  const state =
    type === 'state_change' || row.action === 'delete_community' ? RESULT_STATES[row.action] : undefined;
  return {
    ...(type !== 'state_change' && result.id && { id: result.id }),
    ...(state && { state }),
    type,
  };
}

/** `target`: the existing tweet, user or community acted on, once its id is known; else null. */
function targetOf(row: ActionRow): WriteActionView['target'] {
  if (!row.target_type || !row.target_id) return null;
  return { id: row.target_id, type: row.target_type as 'tweet' | 'user' | 'community' };
}

/** A write action in the API's shape (spec 2.16, reference `XWriteAction`). */
export function toWriteAction(
  row: ActionRow,
  origin: string,
  extra: { idempotent?: boolean } = {},
): WriteActionView {
  const statusUrl = `${origin}${statusPath(row.id)}`;
  const terminal = isTerminal(row);
  const result = storedResult(row);
  const charged = row.billing_status === 'charged';
  const credits = String(num(row.credits));
  const chargedCredits = charged ? credits : '0';
  const target = targetOf(row);
  // State changes (likes, follows, ...) create nothing: their result names no id.
  const created = result?.type === 'state_change' ? undefined : result?.id;
  return {
    object: 'x_write_action',
    id: row.id,
    writeActionId: row.id,
    action: row.action as WriteActionView['action'],
    status: row.status as WriteActionView['status'],
    terminal,
    retryable: num(row.retryable) === 1,
    safeToRetry: num(row.safe_to_retry) === 1,
    statusUrl,
    pollAfterMs: terminal ? null : POLL_AFTER_MS,
    charged,
    chargedCredits,
    billing: {
      status: row.billing_status as WriteActionView['billing']['status'],
      charged,
      chargedCredits,
      plannedCredits: credits,
    },
    request: {
      hash: row.request_hash,
      payload: row.request_payload ? (JSON.parse(row.request_payload) as Record<string, unknown>) : null,
    },
    account: { id: row.x_account_id, username: row.x_username },
    target,
    targetId: target?.id ?? null,
    result: resultOf(row, result),
    nextAction: nextAction(row, statusUrl),
    requestHash: row.request_hash,
    requestId: row.request_id,
    ...(extra.idempotent !== undefined && { idempotent: extra.idempotent }),
    ...(row.error && { error: row.error }),
    ...(row.message && { message: row.message }),
    ...(row.billing_reason && { details: { billingReason: row.billing_reason } }),
    sendDispatched: row.send_dispatched_at != null,
    ...(row.send_dispatched_at != null && { sendDispatchedAt: iso(row.send_dispatched_at) }),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    ...(row.completed_at != null && { completedAt: iso(row.completed_at) }),
    ...(row.expires_at != null && { expiresAt: iso(row.expires_at) }),
    ...(row.confirmed_at != null && { confirmedAt: iso(row.confirmed_at) }),
    ...(row.confirmation_checked_at != null && { confirmationCheckedAt: iso(row.confirmation_checked_at) }),
    confirmationAttempts: num(row.confirmation_attempts),
    ...(created && resultIds(row.action, result)),
    ...(created && { resultId: created }),
    ...(result?.media && { media: result.media }),
    success: row.status === 'success',
  };
}

/** The action-specific id fields (`tweetId`, `messageId`, `mediaId`, `communityId`, ...). */
function resultIds(action: string, result: WriteResult | undefined): Partial<WriteActionView> {
  if (!result?.id) return {};
  switch (action) {
    case 'create_tweet':
      return { tweetId: result.id };
    case 'send_dm':
      return { messageId: result.id };
    case 'upload_media':
      return { mediaId: result.id, ...(result.url && { mediaUrl: result.url }) };
    case 'create_community':
    case 'delete_community':
      return { communityId: result.id, ...(result.communityName && { communityName: result.communityName }) };
    default:
      return result.communityName ? { communityName: result.communityName } : {};
  }
}

/** The fields of a write error body that identify the action and say whether to retry. */
export function errorFields(view: WriteActionView): Record<string, unknown> {
  return {
    object: view.object,
    id: view.id,
    writeActionId: view.writeActionId,
    action: view.action,
    status: view.status,
    terminal: view.terminal,
    retryable: view.retryable,
    safeToRetry: view.safeToRetry,
    statusUrl: view.statusUrl,
    pollAfterMs: view.pollAfterMs,
    requestHash: view.requestHash,
    ...(view.requestId && { requestId: view.requestId }),
    nextAction: view.nextAction,
    ...(view.idempotent !== undefined && { idempotent: view.idempotent }),
  };
}
