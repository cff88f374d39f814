import type { schemas } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import { num } from '../../db/database.js';
import type { WriteResult } from '../../platform/account-writes.js';
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

/** What the client should do next, by state (spec 4.13). */
function nextAction(row: ActionRow, statusUrl: string): NextAction {
  switch (row.status) {
    case 'success':
      return { type: 'none' };
    case 'expired':
      return {
        type: 'verify_result',
        message: 'the platform never confirmed this write: check on the platform before sending it again',
      };
    case 'failed':
      return num(row.safe_to_retry)
        ? { type: 'retry', message: 'nothing was done: send the write again with a new Idempotency-Key' }
        : { type: 'fix_request', message: row.message ?? 'the platform refused this write: change it first' };
    default:
      return { type: 'poll', afterMs: POLL_AFTER_MS, url: statusUrl };
  }
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
    chargedCredits: charged ? credits : '0',
    billing: {
      status: row.billing_status as WriteActionView['billing']['status'],
      credits,
      ...(row.charged_at != null && { chargedAt: iso(row.charged_at) }),
      ...(row.billing_reason && { reason: row.billing_reason }),
    },
    request: {
      hash: row.request_hash,
      idempotencyKey: row.idempotency_key,
      method: row.method,
      path: row.path,
      receivedAt: iso(row.created_at),
    },
    account: { id: row.x_account_id, xUserId: row.x_user_id, xUsername: row.x_username },
    target: {
      ...(row.target_type && { type: row.target_type as NonNullable<WriteActionView['target']['type']> }),
      ...(row.target_id && { id: row.target_id }),
      ...(row.target_username && { username: row.target_username }),
    },
    targetId: row.target_id ?? null,
    result: {
      type: result?.type ?? RESULT_TYPES[row.action] ?? 'state_change',
      ...(created && { id: created }),
      ...(result?.url && { url: result.url }),
      ...(result?.active !== undefined && { active: result.active }),
    },
    nextAction: nextAction(row, statusUrl),
    requestHash: row.request_hash,
    requestId: row.request_id,
    ...(extra.idempotent !== undefined && { idempotent: extra.idempotent }),
    ...(row.error && { error: row.error }),
    ...(row.message && { message: row.message }),
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
