/**
 * Why a delivery was rejected. A closed list so receivers can switch on it and answer every case; it is an
 * `as const` array rather than an enum so it also exists at runtime (for validation, docs and tests).
 */
export const WEBHOOK_VERIFICATION_REASONS = [
  'missing_header',
  'malformed_header',
  'timestamp_out_of_range',
  'signature_mismatch',
  'nonce_replayed',
  'invalid_payload',
] as const;

/** One of {@link WEBHOOK_VERIFICATION_REASONS}: the machine-readable cause of a rejected delivery. */
export type WebhookVerificationReason = (typeof WEBHOOK_VERIFICATION_REASONS)[number];

// A registry symbol rather than `instanceof`: the guard must also recognise errors thrown by another copy
// of this package (the ESM and CJS builds loaded side by side) or by code from another realm (a VM).
const BRAND = Symbol.for('@xsvc/webhook-verifier/WebhookVerificationError');

/**
 * A delivery that failed verification: the sender's fault (or an attacker's), never the caller's. Receivers
 * answer it with 400 and `{ error: reason }`; misuse by the caller is a `TypeError` instead, so the two can
 * never be confused. The message never contains the secret, the expected signature or the body.
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  /** The machine-readable cause; switch on this, not on the message. */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/**
 * True when `error` is a {@link WebhookVerificationError}, from this or any other copy of the package; use it
 * in a `catch` to tell a rejected delivery (answer 400) from a bug or a store failure (answer 500).
 */
export function isWebhookVerificationError(error: unknown): error is WebhookVerificationError {
  return typeof error === 'object' && error !== null && (error as { [BRAND]?: unknown })[BRAND] === true;
}
