import { randomUUID } from 'node:crypto';
import { type MonitorWebhookEvent, signWebhook, type WebhookEvent } from '@xsvc/webhook-verifier';
import type { StoredEvent } from '../shared/event-stream.js';

/**
 * The sender's side of a delivery, exactly as the service builds it (spec 6.3): the JSON payload, then the
 * `X-Svc-*` headers signed over its bytes with the verifier package's own `signWebhook`, so the CLI and a
 * receiver can never disagree on the format.
 */

/** The `User-Agent` of deliveries (spec 6.3: a `xquik-webhooks/1.0` style agent string). */
export const WEBHOOK_USER_AGENT = 'xsvc-webhooks/1.0';

/** The payload schema version (spec 6.3: currently 1). */
export const PAYLOAD_SCHEMA_VERSION = 1;

/**
 * A new delivery id in the service's own form (`dlv_` and 32 hex digits, as its deliveries carry), so a
 * receiver that checks or stores ids sees from `listen` and `trigger` what it will see in production.
 */
export function newDeliveryId(): string {
  return `dlv_${randomUUID().replaceAll('-', '')}`;
}

/** A signed delivery, ready to POST. */
export interface SignedDelivery {
  /** The exact bytes that were signed, as text. */
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  /** A monitor event or the `webhook.test` delivery, in the verifier package's types (spec 6.3). */
  readonly payload: WebhookEvent;
}

/**
 * The payload of a stored event: its id becomes `streamEventId`; `username` is kept for account-monitor
 * events and omitted for keyword-only ones, which carry their `query`.
 */
export function payloadFromEvent(event: StoredEvent, deliveryId: string): MonitorWebhookEvent {
  const keyword = event.monitorType === 'keyword';
  return {
    eventType: event.type,
    schemaVersion: PAYLOAD_SCHEMA_VERSION,
    deliveryId,
    streamEventId: event.id,
    occurredAt: event.occurredAt,
    ...(!keyword && event.username !== undefined && { username: event.username }),
    ...(event.query !== undefined && { query: event.query }),
    data: event.data,
  };
}

/** Serializes a payload and signs it with `secret` at `timestamp` (epoch ms). */
export async function signDelivery(
  payload: WebhookEvent,
  secret: string,
  timestamp: number,
): Promise<SignedDelivery> {
  const body = JSON.stringify(payload);
  const signature = await signWebhook({ secret, payload: body, timestamp });
  return {
    body,
    payload,
    headers: { 'Content-Type': 'application/json', 'User-Agent': WEBHOOK_USER_AGENT, ...signature },
  };
}
