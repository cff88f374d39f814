import { type AnyOperation, operations } from '@xsvc/sdk/contract';
import { type HealthSignal, learnHealth } from '../../core/accounts/health.js';
import { num } from '../../core/db/database.js';
import type { WriteOutcome } from '../../core/platform/account-writes.js';
import type { Services } from '../../core/services.js';
import { type ActionRow, isTerminal, updateActive, updateBilling } from './action-rows.js';

/** How long an unconfirmed write is checked for before it is given up as `expired`. */
export const CONFIRM_WINDOW_MS = 5 * 60_000;

/** Operation id by write action, for the ledger rows of confirmed writes. */
const OPERATION_OF = new Map(
  (operations as readonly AnyOperation[]).filter((o) => o.writeAction).map((o) => [o.writeAction, o.id]),
);

/** What a refusal says about the connection that wrote (spec 2.13: `health` follows it). */
const SIGNAL_OF: Partial<Record<string, HealthSignal>> = {
  x_auth_failure: 'auth_failure',
  x_account_suspended: 'suspended',
  account_restricted: 'locked',
};

/** Records on the action's connection what the platform's answer taught (see `core/accounts/health.ts`). */
export async function learnOf(services: Services, row: ActionRow, signal: HealthSignal): Promise<void> {
  const { db } = services.database;
  const connection = await db
    .selectFrom('x_accounts')
    .select(['id', 'health'])
    .where('id', '=', row.x_account_id)
    .executeTakeFirst();
  if (connection) await learnHealth(db, connection, signal, services.clock.now());
}

/** Rejections after which the same write may succeed, and sending it again cannot duplicate anything. */
const RETRYABLE = new Set(['x_auth_failure', 'x_write_failed']);

/**
 * Applies the platform's outcome to an active action, once: a success is `success` and charged (spec 8.2:
 * credits are taken only when the platform confirms the write; a charge the balance no longer covers leaves
 * billing `charge_failed`), except a state change that changed nothing (a repeated like or repost: an
 * idempotent no-op costs nothing, billing `not_charged`); a refusal is `failed`, never charged. The
 * connection's health learns from the answer: a dead session is `needsReauth`, a suspension `suspended`, a lock `locked`, a
 * success ends a temporary issue. Answers the row as it now is (another request may have settled it first).
 */
export async function settle(services: Services, row: ActionRow, outcome: WriteOutcome): Promise<ActionRow> {
  const { db } = services.database;
  const now = services.clock.now();
  if (!outcome.ok) {
    const signal = SIGNAL_OF[outcome.code];
    if (signal) await learnOf(services, row, signal);
    return fail(services, row, outcome.code, outcome.message, RETRYABLE.has(outcome.code));
  }
  await learnOf(services, row, 'ok');
  // A user named by username becomes a target with an id once the platform resolved it.
  const resolved =
    row.target_type === 'user' && row.target_id == null ? outcome.result.target?.id : undefined;
  // The success, its charge and the billing status commit together: a crash leaves the action active (the
  // next look at it asks the platform again and settles it then), never charged twice nor success unbilled.
  const operation = OPERATION_OF.get(row.action) ?? row.action;
  const settled = await db.transaction().execute(async (trx) => {
    const done = await updateActive(trx, row.id, {
      status: 'success',
      result: JSON.stringify(outcome.result),
      ...(resolved && { target_id: resolved }),
      error: null,
      message: null,
      retryable: 0,
      safe_to_retry: 0,
      confirmed_at: now,
      completed_at: now,
      updated_at: now,
    });
    if (!done) return undefined;
    if (outcome.result.changed === false)
      return updateBilling(trx, row.id, {
        billing_status: 'not_charged',
        billing_reason: 'nothing changed: the state asked for already held',
        updated_at: now,
      });
    const after = await services.credits.chargeWithin(
      trx,
      row.account_id,
      operation,
      1,
      num(row.credits),
      row.request_id,
    );
    if (after !== undefined)
      return updateBilling(trx, row.id, { billing_status: 'charged', charged_at: now, updated_at: now });
    return updateBilling(trx, row.id, {
      billing_status: 'charge_failed',
      billing_reason: 'the credits left no longer covered the write when it was confirmed',
      updated_at: now,
    });
  });
  return settled ?? reread(services, row);
}

/** Ends an active action as `failed` with an error code; nothing is charged. */
export async function fail(
  services: Services,
  row: ActionRow,
  code: string,
  message: string,
  safeToRetry: boolean,
): Promise<ActionRow> {
  const now = services.clock.now();
  const failed = await updateActive(services.database.db, row.id, {
    status: 'failed',
    error: code,
    message,
    retryable: safeToRetry ? 1 : 0,
    safe_to_retry: safeToRetry ? 1 : 0,
    billing_status: 'not_charged',
    billing_reason: 'the write failed',
    completed_at: now,
    updated_at: now,
  });
  return failed ?? reread(services, row);
}

/**
 * Brings an active action up to date: asks the platform whether the write happened (its receipt) and
 * settles it when it did; past its confirmation window it becomes `expired` (the outcome stays unknown:
 * verify on the platform before sending again). Terminal actions are returned as they are.
 */
export async function refresh(services: Services, row: ActionRow): Promise<ActionRow> {
  if (isTerminal(row)) return row;
  const now = services.clock.now();
  const receipt = await services.platform.writeReceipt(row.id);
  if (receipt) return settle(services, row, receipt);
  const expiresAt = row.expires_at == null ? num(row.created_at) + CONFIRM_WINDOW_MS : num(row.expires_at);
  const expired = now >= expiresAt;
  const updated = await updateActive(services.database.db, row.id, {
    confirmation_attempts: num(row.confirmation_attempts) + 1,
    confirmation_checked_at: now,
    updated_at: now,
    ...(expired && {
      status: 'expired',
      error: 'x_write_ambiguous',
      message: 'the platform never confirmed this write; it may or may not have happened',
      billing_status: 'not_charged',
      billing_reason: 'the write was never confirmed',
      completed_at: now,
    }),
  });
  return updated ?? reread(services, row);
}

async function reread(services: Services, row: ActionRow): Promise<ActionRow> {
  return services.database.db
    .selectFrom('write_actions')
    .selectAll()
    .where('id', '=', row.id)
    .executeTakeFirstOrThrow();
}
