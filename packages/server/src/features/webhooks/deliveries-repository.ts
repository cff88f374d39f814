import type { Kysely, Selectable } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { enqueueForRows, parkJobs, unparkJobs } from '../../core/jobs/index.js';
import type { WebhookDeliveriesTable, WebhookDeliveryAttemptsTable } from './tables.js';

/** A delivery row. */
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** An attempt row (the history of a delivery). */
export type AttemptRow = Selectable<WebhookDeliveryAttemptsTable>;

/** `webhook_deliveries.status` values (spec 3.3, plus `pending` before the first answer). */
export const DELIVERY_STATUS = {
  pending: 'pending',
  delivered: 'delivered',
  failed: 'failed',
  exhausted: 'exhausted',
} as const;

/** The job kind of a delivery's attempts: one job per open delivery, keyed by the delivery id. */
export const DELIVERY_JOB_KIND = 'webhook.delivery';

/**
 * Enqueues the jobs of new deliveries (in the transaction that creates them): due at their
 * `next_attempt_at`, or parked when it is null (their endpoint needs attention). One INSERT … SELECT from
 * the delivery rows, so a burst costs one statement, not a value per column. With `lease`, the jobs are
 * created held by `lease.owner` (the engine attempts them at once); returns the ids of the jobs created.
 */
export async function enqueueDeliveryJobs(
  db: Kysely<Database>,
  deliveryIds: readonly string[],
  now: number,
  lease?: { readonly owner: string; readonly until: number },
): Promise<string[]> {
  return enqueueForRows(db, {
    kind: DELIVERY_JOB_KIND,
    table: 'webhook_deliveries',
    runAtColumn: 'next_attempt_at',
    ids: deliveryIds,
    now,
    ...(lease && { lease }),
  });
}

/** Statuses of a delivery that still has attempts to make. */
export const OPEN_STATUSES: readonly string[] = [DELIVERY_STATUS.pending, DELIVERY_STATUS.failed];

/** The most recent deliveries of a webhook, newest first. */
export function listDeliveryRows(
  db: Kysely<Database>,
  webhookId: string,
  limit: number,
): Promise<DeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The attempts of some deliveries of one webhook of an account, by delivery then attempt number. Not in the
 * public API (its delivery record names no such field): the dashboard's delivery log reads it. The failed
 * attempts are history rows; the attempt that delivered a delivery is recorded on the delivery itself
 * (migration 0025) and listed here as its last row, as it would have been written. A delivery delivered
 * before the migration has that row stored, and it is not listed twice.
 */
export async function listAttemptRows(
  db: Kysely<Database>,
  accountId: string,
  webhookId: string,
  deliveryIds: readonly string[],
): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  const [stored, delivered] = await Promise.all([
    db
      .selectFrom('webhook_delivery_attempts')
      .selectAll()
      .where('delivery_id', 'in', deliveryIds)
      .where('webhook_id', '=', webhookId)
      .where('account_id', '=', accountId)
      .execute(),
    db
      .selectFrom('webhook_deliveries')
      .select(['id', 'attempts', 'last_started_at', 'last_duration_ms', 'last_status_code'])
      .where('id', 'in', deliveryIds)
      .where('webhook_id', '=', webhookId)
      .where('account_id', '=', accountId)
      .where('status', '=', DELIVERY_STATUS.delivered)
      .where('last_started_at', 'is not', null)
      .execute(),
  ]);
  const have = new Set(stored.map((a) => `${a.delivery_id}_${num(a.attempt)}`));
  const rows: AttemptRow[] = [...stored];
  for (const d of delivered) {
    const id = `${d.id}_${num(d.attempts)}`;
    if (have.has(id)) continue;
    rows.push({
      id,
      delivery_id: d.id,
      webhook_id: webhookId,
      account_id: accountId,
      attempt: d.attempts,
      started_at: d.last_started_at ?? 0,
      duration_ms: d.last_duration_ms ?? 0,
      status_code: d.last_status_code,
      error: null,
      outcome: DELIVERY_STATUS.delivered,
    });
  }
  return rows.sort((a, b) =>
    a.delivery_id === b.delivery_id
      ? num(a.attempt) - num(b.attempt)
      : a.delivery_id < b.delivery_id
        ? -1
        : 1,
  );
}

/**
 * Takes a webhook's open deliveries off the schedule (the endpoint was switched off or needs attention):
 * they keep their state and attempts, and their jobs are parked, so no engine claims them.
 */
export async function parkDeliveries(db: Kysely<Database>, webhookId: string, now: number): Promise<void> {
  const parked = await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: null })
    .where('webhook_id', '=', webhookId)
    .where('status', 'in', OPEN_STATUSES)
    .where('next_attempt_at', 'is not', null)
    .returning('id')
    .execute();
  await parkJobs(
    db,
    DELIVERY_JOB_KIND,
    parked.map((r) => r.id),
    now,
  );
}

/** Parks these open deliveries and their jobs (claimed while their endpoint was being switched off). */
export async function parkDeliveryIds(
  db: Kysely<Database>,
  ids: readonly string[],
  now: number,
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: null })
    .where('id', 'in', ids)
    .where('status', 'in', OPEN_STATUSES)
    .execute();
  await parkJobs(db, DELIVERY_JOB_KIND, ids, now);
}

/** Puts a webhook's parked deliveries back on the schedule, due now. */
export async function unparkDeliveries(db: Kysely<Database>, webhookId: string, now: number): Promise<void> {
  const unparked = await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now })
    .where('webhook_id', '=', webhookId)
    .where('status', 'in', OPEN_STATUSES)
    .where('next_attempt_at', 'is', null)
    .returning('id')
    .execute();
  await unparkJobs(
    db,
    DELIVERY_JOB_KIND,
    unparked.map((r) => r.id),
    now,
  );
}
