/**
 * Checks of the caller's options. They throw `TypeError`: a wrong option is a bug in the receiver, which must
 * never be confused with a bad delivery (a `WebhookVerificationError`) and must never be answered as one.
 */

/** A count such as `maxEntries`. */
export function positiveInteger(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`${name} must be a positive integer; got ${String(value)}.`);
  }
  return value;
}

/** A duration in ms such as `toleranceMs` or `windowMs`: finite, so expiry times stay finite too. */
export function positiveDuration(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`${name} must be a positive, finite number of milliseconds; got ${String(value)}.`);
  }
  return value;
}

/**
 * The secret or secrets: a non-empty string, or a non-empty list of them. A single string is returned as is
 * (not wrapped in an array) because it is the common case on the hot path.
 */
export function checkSecrets(secret: unknown, caller: string): string | readonly string[] {
  if (typeof secret === 'string') {
    if (secret.length === 0) throw new TypeError(`${caller}: secret is an empty string.`);
    return secret;
  }
  if (!Array.isArray(secret)) {
    throw new TypeError(`${caller}: secret must be a string or an array of strings (during a key rotation).`);
  }
  if (secret.length === 0) throw new TypeError(`${caller}: secret is an empty array; give at least one.`);
  for (const s of secret) {
    if (typeof s !== 'string' || s.length === 0) {
      throw new TypeError(`${caller}: every secret must be a non-empty string.`);
    }
  }
  return secret as readonly string[];
}
