import type { NonceStore } from './nonce-store.js';

/**
 * The raw request body exactly as received. A Node `Buffer` is a `Uint8Array`, so it fits; a parsed object
 * does not, because the signature covers the bytes and re-serialising never reproduces them reliably.
 */
export type WebhookPayload = string | Uint8Array | ArrayBuffer;

/**
 * The part of the Fetch `Headers` class the verifier uses. Structural, so `Headers` from any runtime or
 * realm (undici, Deno, Workers, an edge VM) fits without this package depending on DOM typings.
 */
export interface HeadersLike {
  get(name: string): string | null;
}

/**
 * Request headers: a Fetch `Headers`, or a plain record such as Node's `IncomingHttpHeaders` (any casing;
 * an array value is a repeated header, and only a single element is accepted).
 */
export type WebhookHeaders = HeadersLike | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Everything {@link verifyWebhook} needs. Optional fields accept `undefined` explicitly so callers under
 * `exactOptionalPropertyTypes` can pass through values that may be absent.
 */
export interface WebhookVerifyOptions {
  /** The raw body, before any JSON parsing. */
  readonly payload: WebhookPayload;
  /** The request headers carrying `X-Svc-Timestamp`, `X-Svc-Nonce` and `X-Svc-Signature`. */
  readonly headers: WebhookHeaders;
  /** The endpoint secret; several during a rotation, any one of which may match. */
  readonly secret: string | readonly string[];
  /** Allowed clock difference in either direction, in ms. Default 300000 (spec 6.4: 5 minutes). */
  readonly toleranceMs?: number | undefined;
  /** Clock in epoch ms; injectable so tests never sleep. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /**
   * Where seen nonces are remembered. Omitted: one bounded in-memory store shared by the whole process, so
   * replay protection is on by default. `false`: no nonce check at all (only when something else, such as
   * a de-duplication store in front of every side effect, already makes replays harmless).
   */
  readonly nonceStore?: NonceStore | false | undefined;
  /** Scope of the nonces (spec 6.4 rule 3): the webhook id, when one store serves several endpoints. */
  readonly webhookId?: string | undefined;
}

/** Options of {@link verifyWebhookRequest}: the body and headers come from the `Request` itself. */
export type WebhookRequestVerifyOptions = Omit<WebhookVerifyOptions, 'payload' | 'headers'>;

/**
 * The part of the Fetch `Request` the verifier uses, structural for the same reason as {@link HeadersLike}
 * (Next.js, Hono, Workers, Deno and Bun all hand out a `Request`).
 */
export interface RequestLike {
  readonly headers: HeadersLike;
  readonly bodyUsed?: boolean;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** What {@link signWebhook} needs: the sender's side of the same format. */
export interface WebhookSignOptions {
  /** The endpoint secret (one: a sender signs with the current secret only). */
  readonly secret: string;
  /** The exact body that will be sent; serialise it first, the bytes are what is signed. */
  readonly payload: WebhookPayload;
  /** Epoch ms. Default `Date.now()`. */
  readonly timestamp?: number | undefined;
  /** 32 hex characters. Default: 16 fresh random bytes. */
  readonly nonce?: string | undefined;
}

/**
 * The three headers of a signed delivery (spec 6.3). A type alias rather than an interface, so the headers
 * `signWebhook` returns can be passed straight to `fetch` or back to `verifyWebhook` as `headers` (aliases
 * are assignable to index-signature records; interfaces are not).
 */
export type WebhookSignatureHeaders = {
  readonly 'X-Svc-Timestamp': string;
  readonly 'X-Svc-Nonce': string;
  readonly 'X-Svc-Signature': string;
};

/**
 * A delivered monitor event (spec 6.3). Generic so a typed client (the SDK) can narrow `eventType` and
 * `data` without redefining the envelope; unknown fields are kept, because the API may add fields.
 */
export interface MonitorWebhookEvent<TType extends string = string, TData = Record<string, unknown>> {
  readonly eventType: TType;
  readonly schemaVersion: number;
  /** Delivery-level idempotency key, stable across the delivery's retries. */
  readonly deliveryId: string;
  /** The stored event's id: the event-level de-duplication key. */
  readonly streamEventId: string;
  /** When the event happened, ISO 8601. */
  readonly occurredAt: string;
  /** The monitored account (account monitors; absent for keyword monitors and tests). */
  readonly username?: string;
  /** The keyword monitor's query (keyword monitors). */
  readonly query?: string;
  readonly data: TData;
}

/** The synthetic `webhook.test` delivery: no `deliveryId`/`streamEventId`, so it is never de-duplicated. */
export interface WebhookTestEvent {
  readonly eventType: 'webhook.test';
  readonly data: { readonly message: string };
  /** When the test was sent, ISO 8601. */
  readonly timestamp: string;
}

/**
 * Every verified delivery. {@link isWebhookTestEvent} tells a test from a monitor event and narrows both
 * ways (`eventType` stays a plain `string` so event types the service adds later still type-check; the SDK's
 * `TypedWebhookEvent` narrows by each known type). Only `eventType` is checked at runtime.
 */
export type WebhookEvent = MonitorWebhookEvent | WebhookTestEvent;

/** Narrows an event to the `webhook.test` delivery, which carries no ids and no monitor data. */
export function isWebhookTestEvent(event: WebhookEvent): event is WebhookTestEvent {
  return event.eventType === 'webhook.test';
}
