import { HttpError } from '../../core/http/errors.js';
import { Answer, type HandlerContext } from '../../core/http/handler.js';
import {
  IdempotencyRace,
  type KeyedRequest,
  lookup,
  remember,
  type StoredAnswer,
} from '../../core/idempotency/idempotency.js';
import type { WriteCommand, WriteOutcome } from '../../core/platform/account-writes.js';
import { PlatformUnavailableError, PlatformWriteAmbiguousError } from '../../core/platform/platform.js';
import { actingAccount } from './acting-account.js';
import { checkActionLimits } from './action-limits.js';
import { type ActionRow, actionById, insertAction, updateActive, type WriteTarget } from './action-rows.js';
import { errorFields, toWriteAction, type WriteActionView } from './action-view.js';
import { idempotencyKey, requestPayload, writeRequestHash, writeScope } from './idempotency.js';
import { CONFIRM_WINDOW_MS, fail, learnOf, refresh, settle } from './settle.js';

/**
 * Credits of a confirmed write whose operation states no price: the one write price the spec gives (8.2:
 * deleting a tweet costs 10) applies to every write.
 */
export const WRITE_CREDITS = 10;

/** A write to perform: the platform command, the connected account that acts, what it acts on. */
export interface WriteSpec {
  command: WriteCommand;
  /** The `account` of the body: id, platform user id or @username of a connection. */
  account: string;
  /** The existing object acted on; none for writes that create something or change the own profile. */
  target?: WriteTarget;
}

/**
 * Runs a write through the durable write-action flow (spec 2.16, 3.6, 4.13):
 *
 * 1. `Idempotency-Key` (required): the same key with the same request answers the action it made (nothing is
 *    sent twice); with another request 409 `idempotency_conflict`.
 * 2. The connected account (400/404/403), the platform's action limits (429), the price (402).
 * 3. An `accepted` action is stored, marked dispatched, and the write sent with the action id as its token.
 * 4. The platform's answer settles it: 200 `success` (charged), or the refusal's error (422, 401
 *    `x_auth_failure`) with the action's fields; a write that was not sent is 500 `x_write_failed`
 *    (`safeToRetry`); a lost answer leaves it `pending_confirmation`: 202 `x_write_unconfirmed`, to poll.
 */
export async function performWrite(ctx: HandlerContext, spec: WriteSpec): Promise<WriteActionView | Answer> {
  const { accountId } = ctx.requirePrincipal();
  const { db } = ctx.services.database;
  const key = idempotencyKey(ctx.request, ctx.op);
  const hash = await writeRequestHash(ctx.op.id, ctx.params, ctx.body);
  const keyed: KeyedRequest = { scope: writeScope(accountId), key, hash };
  const earlier = await earlierAction(ctx, accountId, keyed);
  if (earlier) return answer(ctx, await refresh(ctx.services, earlier), true);

  const { row: connection, actor } = await actingAccount(ctx, spec.account);
  const action = spec.command.action;
  const now = ctx.services.clock.now();
  await checkActionLimits(db, connection.id, action, now);
  const credits = ctx.op.cost.kind === 'per_call' ? ctx.op.cost.credits : WRITE_CREDITS;
  await ctx.services.credits.affordable(accountId, 1, credits);

  const newAction = {
    accountId,
    idempotencyKey: key,
    requestHash: hash,
    requestPayload: await requestPayload(ctx.params, ctx.body),
    requestId: ctx.requestId,
    method: ctx.request.method,
    path: ctx.request.url.split('?')[0] ?? ctx.request.url,
    action,
    xAccountId: connection.id,
    xUserId: connection.x_user_id,
    xUsername: connection.x_username,
    target: spec.target ?? {},
    credits,
    now,
  };
  let row: ActionRow;
  try {
    row = await db.transaction().execute(async (trx) => {
      const stored = await insertAction(trx, newAction);
      if (!stored) throw new IdempotencyRace(keyed);
      await remember(trx, { ...keyed, answer: stored.id, now });
      return stored;
    });
  } catch (err) {
    if (!(err instanceof IdempotencyRace)) throw err;
    // A concurrent request with the same key stored its action first: answer that one.
    const winner = await earlierAction(ctx, accountId, keyed);
    if (!winner) throw new HttpError('write_tracking_unavailable', 'the write action could not be stored');
    return answer(ctx, await refresh(ctx.services, winner), true);
  }
  const dispatched =
    (await updateActive(db, row.id, { status: 'dispatching', send_dispatched_at: now, updated_at: now })) ??
    row;
  let outcome: WriteOutcome;
  try {
    outcome = await ctx.services.platform.write(row.id, actor, spec.command);
  } catch (err) {
    if (err instanceof PlatformUnavailableError) {
      await learnOf(ctx.services, dispatched, 'unavailable');
      const failed = await fail(ctx.services, dispatched, 'x_write_failed', err.message, true);
      return answer(ctx, failed, undefined);
    }
    if (err instanceof PlatformWriteAmbiguousError) {
      // No receipt can ever tell (X has no idempotency key): it ends now, never to be sent again by us.
      await learnOf(ctx.services, dispatched, 'unavailable');
      const failed = await fail(ctx.services, dispatched, 'x_write_ambiguous', err.message, false);
      return answer(ctx, failed, undefined);
    }
    ctx.request.log.warn({ err, writeActionId: row.id }, 'write outcome unknown');
    const pending = await updateActive(db, row.id, {
      status: 'pending_confirmation',
      error: 'x_write_unconfirmed',
      message: 'the platform has not confirmed the write yet; poll the status URL',
      expires_at: now + CONFIRM_WINDOW_MS,
      updated_at: ctx.services.clock.now(),
    });
    return answer(ctx, pending ?? dispatched, undefined);
  }
  return answer(ctx, await settle(ctx.services, dispatched, outcome), undefined);
}

/**
 * The action an earlier request with the same `Idempotency-Key` made (the idempotency store keeps its id),
 * or undefined for a new key; 409 `idempotency_conflict` with that action's fields for another request.
 */
async function earlierAction(
  ctx: HandlerContext,
  accountId: string,
  keyed: KeyedRequest,
): Promise<ActionRow | undefined> {
  const { db } = ctx.services.database;
  const conflict = async (stored: StoredAnswer) => {
    const row = await actionById(db, accountId, stored.answer);
    return new HttpError(
      'idempotency_conflict',
      'this Idempotency-Key was used for another request; use a new key for a new write',
      row ? errorFields(toWriteAction(row, ctx.services.publicUrl())) : undefined,
    );
  };
  const id = await lookup(db, keyed, conflict);
  if (id !== undefined) return actionById(db, accountId, id);
  // Past the replay window the store forgot the key, but the action (the permanent history, unique per
  // account and key) remembers it: the same request is answered that action again, another one 409.
  const kept = await db
    .selectFrom('write_actions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', keyed.key)
    .executeTakeFirst();
  if (!kept) return undefined;
  if (kept.request_hash !== keyed.hash)
    throw await conflict({ requestHash: kept.request_hash, answer: kept.id });
  return kept;
}

/** 200 with a successful or expired action, 202 with an active one, the action's error when it failed. */
function answer(
  ctx: HandlerContext,
  row: ActionRow,
  idempotent: boolean | undefined,
): WriteActionView | Answer {
  const view = toWriteAction(row, ctx.services.publicUrl(), idempotent === undefined ? {} : { idempotent });
  if (row.status === 'failed') {
    const code = row.error ?? 'x_write_failed';
    // Spec 7: x_account_protected is 403 on reads but 422 on writes (the catalog holds the read status).
    const status = code === 'x_account_protected' ? 422 : undefined;
    throw new HttpError(code, row.message ?? 'the write failed', errorFields(view), status);
  }
  return statusAnswer(view);
}

/** The answer of an action's state: 200 when terminal, else 202 with `Location` and `Retry-After`. */
export function statusAnswer(view: WriteActionView): WriteActionView | Answer {
  if (view.terminal) return view;
  return new Answer(202, view, { location: view.statusUrl, 'retry-after': '1' });
}
