/**
 * The tables owned by `features/webhooks` (endpoints, deliveries, attempts): their row types, and their names.
 * Only code under `features/webhooks` writes them; any code may read them through `Database`. They join
 * `Database` by declaration merging (see `core/db/schema.ts`).
 */

import type { Int } from '../../core/db/columns.js';
import type { Database } from '../../core/db/schema.js';

declare module '../../core/db/schema.js' {
  interface Database {
    webhooks: WebhooksTable;
    webhook_deliveries: WebhookDeliveriesTable;
    webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  }
}

/** The tables `features/webhooks` owns. */
export const WEBHOOKS_TABLES = [
  'webhooks',
  'webhook_deliveries',
  'webhook_delivery_attempts',
] as const satisfies readonly (keyof Database)[];

/**
 * A webhook endpoint (spec 2.6, migration 0005). `event_types` is a JSON array; `secret` the hex signing
 * secret, sealed (`webhook-secret.ts`; kept, since every delivery is signed with it); `health` is `active`
 * or `needs_attention` (spec 3.4), separate from `is_active` (switched off by the owner).
 */
export interface WebhooksTable {
  id: string;
  account_id: string;
  url: string;
  event_types: string;
  secret: string;
  is_active: Int;
  health: string;
  consecutive_failures: Int;
  failure_hard_cap: Int;
  created_at: Int;
  updated_at: Int;
}

/**
 * One delivery of a stored event to a webhook (spec 2.6, 3.3, migration 0005): `id` is the payload's
 * `deliveryId`, the same on every retry. `status` is `pending`, `delivered`, `failed` or `exhausted`;
 * `next_attempt_at` is null when nothing is scheduled (done, or parked while the endpoint is off or needs
 * attention). Its schedule and lease are its job's (`webhook.delivery`, keyed by the delivery id).
 */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  account_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: Int;
  last_status_code: Int | null;
  last_error: string | null;
  created_at: Int;
  delivered_at: Int | null;
  next_attempt_at: Int | null;
  /**
   * When the last attempt started (clock time) and how long it took (measured, ms), beside its
   * `last_status_code` and `last_error` (migration 0025): the attempt that delivers it is recorded here
   * only, without a `webhook_delivery_attempts` row. Null before the first attempt, and on deliveries whose
   * last attempt was recorded before the migration.
   */
  last_started_at: Int | null;
  last_duration_ms: Int | null;
}

/**
 * One attempt of a webhook delivery (migration 0015), written in the transaction that counts it on its
 * delivery: `attempt` is 1 for the first; `started_at` is clock time, `duration_ms` measured; `status_code`
 * is null when no answer came; `error` (bounded) is null on success; `outcome` is the delivery's status the
 * attempt led to (`failed`: retried, `exhausted`; `delivered` on rows written before migration 0025, since
 * when the delivering attempt is recorded on its delivery only: see `listAttemptRows`). Deleted with the
 * delivery.
 */
export interface WebhookDeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  webhook_id: string;
  account_id: string;
  attempt: Int;
  started_at: Int;
  duration_ms: Int;
  status_code: Int | null;
  error: string | null;
  outcome: string;
}
