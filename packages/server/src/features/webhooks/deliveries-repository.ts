import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../core/db/schema.js';
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
 * public API (its delivery record names no such field): the dashboard's delivery log reads it.
 */
export async function listAttemptRows(
  db: Kysely<Database>,
  accountId: string,
  webhookId: string,
  deliveryIds: readonly string[],
): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .where('webhook_id', '=', webhookId)
    .where('account_id', '=', accountId)
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
}

/**
 * Takes a webhook's open deliveries off the schedule (the endpoint was switched off or needs attention):
 * they keep their state and attempts, and the engine's due scan no longer walks over them.
 */
export async function parkDeliveries(db: Kysely<Database>, webhookId: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: null })
    .where('webhook_id', '=', webhookId)
    .where('status', 'in', OPEN_STATUSES)
    .where('next_attempt_at', 'is not', null)
    .execute();
}

/** Puts a webhook's parked deliveries back on the schedule, due now. */
export async function unparkDeliveries(db: Kysely<Database>, webhookId: string, now: number): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now })
    .where('webhook_id', '=', webhookId)
    .where('status', 'in', OPEN_STATUSES)
    .where('next_attempt_at', 'is', null)
    .execute();
}
