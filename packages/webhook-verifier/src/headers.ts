import type { HeadersLike, WebhookHeaders } from './types.js';

/** Header carrying the send time in Unix epoch milliseconds (spec 6.3). */
export const WEBHOOK_TIMESTAMP_HEADER = 'X-Svc-Timestamp';
/** Header carrying 16 random bytes as 32 hex characters, unique per delivery attempt (spec 6.3). */
export const WEBHOOK_NONCE_HEADER = 'X-Svc-Nonce';
/** Header carrying `sha256=` + hex HMAC-SHA256 of `<timestamp>.<nonce>.<rawBody>` (spec 6.3). */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Svc-Signature';

/**
 * The three header names in one object, for code that builds or forwards deliveries (CORS allow-lists,
 * proxies, test clients) and should not spell them out again.
 */
export const WEBHOOK_HEADERS = {
  timestamp: WEBHOOK_TIMESTAMP_HEADER,
  nonce: WEBHOOK_NONCE_HEADER,
  signature: WEBHOOK_SIGNATURE_HEADER,
} as const;

/** Marks a header that is present but unusable: repeated, or not a string. */
export const REPEATED = null;

/**
 * Reads one header from a `Headers` or a record. Returns the value, `undefined` when absent, or
 * {@link REPEATED} when it was sent more than once (a record array of several values) or is not a string.
 * `lower` must be the lower-case name: Node's records use it, so it is tried first and costs one lookup.
 */
export function readHeader(headers: WebhookHeaders, lower: string): string | undefined | null {
  if (typeof (headers as HeadersLike).get === 'function') {
    // Headers.get joins repeated values with ", ", which the format checks then reject as malformed.
    const value: unknown = (headers as HeadersLike).get(lower);
    if (typeof value === 'string') return value;
    return value === null || value === undefined ? undefined : REPEATED;
  }
  const record = headers as Readonly<Record<string, unknown>>;
  let value = record[lower];
  if (value === undefined) value = findCaseInsensitive(record, lower);
  if (value === undefined || typeof value === 'string') return value;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    if (value.length === 1 && typeof value[0] === 'string') return value[0];
  }
  return REPEATED;
}

// Slow path for records built by hand with another casing ("X-Svc-Nonce"); frameworks lower-case names.
function findCaseInsensitive(record: Readonly<Record<string, unknown>>, lower: string): unknown {
  for (const key of Object.keys(record)) {
    if (key.length === lower.length && key.toLowerCase() === lower) return record[key];
  }
  return undefined;
}
