import { WebhookVerificationError } from './errors.js';
import {
  readHeader,
  WEBHOOK_NONCE_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from './headers.js';
import { decodeHex, isHex } from './hex.js';
import { defaultNonceStore, type NonceStore } from './nonce-store.js';
import { toBody } from './payload.js';
import type { WebhookVerifyOptions } from './types.js';
import { checkSecrets, positiveDuration } from './validate.js';

/** Spec 6.4 rule 2 and 8.3: a delivery may be 5 minutes early or late. */
export const DEFAULT_TOLERANCE_MS = 300_000;

const SIGNATURE_PREFIX = 'sha256=';
const SIGNATURE_LENGTH = SIGNATURE_PREFIX.length + 64;

/**
 * A delivery whose options, headers and timestamp passed: everything the crypto step of either build and
 * the nonce step need. Built once per call by {@link prepareDelivery}, the runtime-neutral part of the
 * verification, so the two builds cannot drift apart.
 */
export interface PreparedDelivery {
  /** One secret, or several during a rotation. */
  readonly secrets: string | readonly string[];
  readonly body: string | Uint8Array;
  /** `<timestamp>.<nonce>.`, the ASCII text signed before the body. */
  readonly prefix: string;
  /** The header's 32 signature bytes, decoded once (by the build's {@link SignatureDecoder}). */
  readonly signature: Uint8Array<ArrayBuffer>;
  readonly nonceStore: NonceStore | undefined;
  /** `<webhookId>:<nonce>`: nonces are scoped per endpoint (spec 6.4 rule 3). */
  readonly nonceKey: string;
  /** `max(receivedAt, timestamp) + tolerance`: a future-dated delivery stays remembered until it is stale. */
  readonly nonceExpiresAt: number;
  readonly receivedAt: number;
}

/**
 * Decodes the 64 hex digits that follow `sha256=` in a signature header whose length is already checked;
 * `undefined` when any is not a hex digit. Per build: the Web build allocates, the Node build reuses one
 * buffer because it compares synchronously right after decoding.
 */
export type SignatureDecoder = (header: string) => Uint8Array<ArrayBuffer> | undefined;

/** The Web build's decoder: a fresh array, as the bytes must outlive the awaits of Web Crypto. */
export const decodeSignatureHex: SignatureDecoder = (header) =>
  decodeHex(header, SIGNATURE_PREFIX.length, 32);

/**
 * Runs every check that needs no key and no store, in the documented order: the caller's options
 * (`TypeError`), headers present (`missing_header`), well-formed (`malformed_header`), timestamp within the
 * tolerance either way (`timestamp_out_of_range`).
 */
export function prepareDelivery(
  options: WebhookVerifyOptions,
  caller: string,
  decodeSignature: SignatureDecoder,
): PreparedDelivery {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${caller}: expected an options object { payload, headers, secret }.`);
  }
  const secrets = checkSecrets(options.secret, caller);
  const body = toBody(options.payload, caller);
  const headers = options.headers;
  if (typeof headers !== 'object' || headers === null) {
    throw new TypeError(`${caller}: headers must be a Headers object or a record of header values.`);
  }
  const tolerance =
    options.toleranceMs === undefined
      ? DEFAULT_TOLERANCE_MS
      : positiveDuration(options.toleranceMs, `${caller}: toleranceMs`);
  const nonceStore = resolveNonceStore(options.nonceStore, caller);
  const webhookId = options.webhookId ?? '';
  if (typeof webhookId !== 'string') throw new TypeError(`${caller}: webhookId must be a string.`);
  const clock = options.now ?? Date.now;
  if (typeof clock !== 'function')
    throw new TypeError(`${caller}: now must be a function returning epoch ms.`);

  const timestampText = readHeader(headers, 'x-svc-timestamp');
  const nonce = readHeader(headers, 'x-svc-nonce');
  const signatureText = readHeader(headers, 'x-svc-signature');
  if (timestampText === undefined || nonce === undefined || signatureText === undefined) {
    throw missingHeader(timestampText, nonce, signatureText);
  }
  const timestamp = timestampText === null ? -1 : parseTimestamp(timestampText);
  if (timestamp < 0) {
    throw malformed(WEBHOOK_TIMESTAMP_HEADER, 'must be 1 to 16 decimal digits (epoch milliseconds)');
  }
  if (nonce === null || !isHex(nonce, 32)) {
    throw malformed(WEBHOOK_NONCE_HEADER, 'must be 32 hex characters (16 bytes)');
  }
  const signature =
    signatureText !== null &&
    signatureText.length === SIGNATURE_LENGTH &&
    signatureText.startsWith(SIGNATURE_PREFIX)
      ? decodeSignature(signatureText)
      : undefined;
  if (signature === undefined) {
    throw malformed(WEBHOOK_SIGNATURE_HEADER, 'must be "sha256=" followed by 64 hex characters');
  }

  const receivedAt = clock();
  if (typeof receivedAt !== 'number' || !Number.isFinite(receivedAt)) {
    throw new TypeError(`${caller}: now() must return a finite number of epoch milliseconds.`);
  }
  if (Math.abs(receivedAt - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_range',
      `${WEBHOOK_TIMESTAMP_HEADER} is more than ${tolerance} ms away from the receiver's clock.`,
    );
  }
  return {
    secrets,
    body,
    prefix: `${timestampText}.${nonce}.`,
    signature,
    nonceStore,
    // Only built when a store will use them: this object is made on every delivery.
    nonceKey: nonceStore === undefined ? '' : `${webhookId}:${nonce}`,
    nonceExpiresAt: nonceStore === undefined ? 0 : Math.max(receivedAt, timestamp) + tolerance,
    receivedAt,
  };
}

/** The rejection for a signature that matches none of the secrets. */
export function signatureMismatch(): WebhookVerificationError {
  return new WebhookVerificationError(
    'signature_mismatch',
    `${WEBHOOK_SIGNATURE_HEADER} does not match the body signed with the endpoint secret.`,
  );
}

/**
 * Interprets a settled `checkAndStore` result: `true` passes, `false` is a replay, anything else is a store
 * that breaks its contract (a `TypeError`, so a bug is never mistaken for an attack or let through).
 */
export function acceptNonce(result: unknown): void {
  if (result === true) return;
  if (result === false) {
    throw new WebhookVerificationError('nonce_replayed', `${WEBHOOK_NONCE_HEADER} was already used.`);
  }
  throw new TypeError(`NonceStore.checkAndStore must return a boolean; got ${typeof result}.`);
}

/** True for a promise or any thenable, as returned by an asynchronous store. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function resolveNonceStore(
  option: WebhookVerifyOptions['nonceStore'],
  caller: string,
): NonceStore | undefined {
  if (option === undefined) return defaultNonceStore();
  if (option === false) return undefined;
  if (typeof option !== 'object' || option === null || typeof option.checkAndStore !== 'function') {
    throw new TypeError(`${caller}: nonceStore must be a NonceStore ({ checkAndStore }) or false.`);
  }
  return option;
}

// Validates and parses in one pass: 1 to 16 ASCII digits, else -1. (16 digits can exceed 2^53 and lose
// precision, but such a time is centuries away and fails the range check anyway.)
function parseTimestamp(text: string): number {
  const n = text.length;
  if (n === 0 || n > 16) return -1;
  let value = 0;
  for (let i = 0; i < n; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

function missingHeader(...values: (string | null | undefined)[]): WebhookVerificationError {
  const names = [WEBHOOK_TIMESTAMP_HEADER, WEBHOOK_NONCE_HEADER, WEBHOOK_SIGNATURE_HEADER];
  const missing = names.filter((_, i) => values[i] === undefined);
  return new WebhookVerificationError('missing_header', `Missing header: ${missing.join(', ')}.`);
}

function malformed(header: string, rule: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_header', `${header} ${rule}.`);
}
