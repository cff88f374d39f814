import type { EventType, schemas } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import { num } from '../../core/db/database.js';
import type { DeliveryRow } from './deliveries-repository.js';
import { parseTypes } from './fanout.js';
import { HEALTH, type WebhookRow } from './webhooks-repository.js';

/** A webhook as the handlers answer it (the contract's input side: known enum values only). */
export type WebhookBody = z.input<typeof schemas.WebhookSchema>;
/** A delivery record as the handlers answer it. */
export type DeliveryBody = z.input<typeof schemas.DeliverySchema>;

const iso = (ms: bigint | number) => new Date(Number(ms)).toISOString();

/**
 * `deliveryStatus` of a webhook (reference enum: active, paused, needs_attention): needing attention wins,
 * because only a succeeding signed test clears it; otherwise `paused` while switched off.
 */
export function deliveryStatusOf(row: WebhookRow): WebhookBody['deliveryStatus'] {
  if (row.health === HEALTH.needsAttention) return 'needs_attention';
  return num(row.is_active) === 1 ? 'active' : 'paused';
}

/** A webhook as listed and updated (no secret). */
export function toWebhook(row: WebhookRow): WebhookBody {
  return {
    id: row.id,
    url: row.url,
    eventTypes: parseTypes(row.event_types) as EventType[],
    isActive: num(row.is_active) === 1,
    deliveryStatus: deliveryStatusOf(row),
    consecutiveFailures: num(row.consecutive_failures),
    failureHardCap: num(row.failure_hard_cap),
    createdAt: iso(row.created_at),
  };
}

/** A delivery record (spec 2.6); fields without a value are omitted. */
export function toDelivery(row: DeliveryRow): DeliveryBody {
  return {
    id: row.id,
    deliveryId: row.id,
    streamEventId: row.event_id,
    eventType: row.event_type as EventType,
    status: row.status as DeliveryBody['status'],
    attempts: num(row.attempts),
    ...(row.last_status_code !== null && { lastStatusCode: num(row.last_status_code) }),
    ...(row.last_error !== null && { lastError: row.last_error }),
    createdAt: iso(row.created_at),
    ...(row.delivered_at !== null && { deliveredAt: iso(row.delivered_at) }),
    ...(row.next_attempt_at !== null && { nextAttemptAt: iso(row.next_attempt_at) }),
  };
}
