import type { EventType, ProfileEventData, TweetEventData, TweetEventType } from './types.generated.js';

/** A delivered monitor event of one type, with `data` typed by the type (spec 6.3). */
export interface MonitorEventOf<T extends EventType> {
  readonly eventType: T;
  readonly schemaVersion: number;
  /** Delivery-level idempotency key, stable across the delivery's retries. */
  readonly deliveryId: string;
  /** The stored event's id: the event-level de-duplication key. */
  readonly streamEventId: string;
  readonly occurredAt: string;
  /** The monitored account (account monitors). */
  readonly username?: string;
  /** The keyword monitor's query (keyword monitors). */
  readonly query?: string;
  readonly data: T extends TweetEventType ? TweetEventData : ProfileEventData;
}

/** The `webhook.test` delivery sent by the test and resume operations. */
export interface WebhookTestEventPayload {
  readonly eventType: 'webhook.test';
  readonly data: { readonly message: string };
  readonly timestamp: string;
}

/** Every delivery a receiver can get, discriminated by `eventType`. */
export type TypedWebhookEvent = { [T in EventType]: MonitorEventOf<T> }[EventType] | WebhookTestEventPayload;
