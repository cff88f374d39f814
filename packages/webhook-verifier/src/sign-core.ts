import { WEBHOOK_NONCE_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from './headers.js';
import { encodeHex, isHex } from './hex.js';
import { toBody } from './payload.js';
import type { WebhookSignatureHeaders, WebhookSignOptions } from './types.js';

/** The validated input of a signature: the runtime-neutral half of `signWebhook`, shared by both builds. */
export interface PreparedSignature {
  readonly secret: string;
  readonly timestamp: string;
  readonly nonce: string;
  /** `<timestamp>.<nonce>.` */
  readonly prefix: string;
  readonly body: string | Uint8Array;
}

/**
 * Validates the sender's options (`TypeError` on misuse: signing something a receiver must reject is a bug)
 * and fills in the default timestamp and a fresh random nonce.
 */
export function prepareSignature(options: WebhookSignOptions, caller: string): PreparedSignature {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${caller}: expected an options object { secret, payload }.`);
  }
  const { secret } = options;
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError(`${caller}: secret must be a non-empty string (sign with the current secret only).`);
  }
  const body = toBody(options.payload, caller);
  const timestamp = options.timestamp ?? Date.now();
  if (!Number.isSafeInteger(timestamp) || timestamp < 0 || timestamp >= 1e16) {
    throw new TypeError(`${caller}: timestamp must be a non-negative integer of epoch milliseconds.`);
  }
  const nonce = options.nonce ?? randomNonce();
  if (typeof nonce !== 'string' || !isHex(nonce, 32)) {
    throw new TypeError(`${caller}: nonce must be 32 hex characters (16 bytes).`);
  }
  const timestampText = String(timestamp);
  return { secret, timestamp: timestampText, nonce, prefix: `${timestampText}.${nonce}.`, body };
}

/** The three delivery headers from a prepared signature and its raw HMAC. */
export function signatureHeaders(prepared: PreparedSignature, mac: Uint8Array): WebhookSignatureHeaders {
  return {
    [WEBHOOK_TIMESTAMP_HEADER]: prepared.timestamp,
    [WEBHOOK_NONCE_HEADER]: prepared.nonce,
    [WEBHOOK_SIGNATURE_HEADER]: `sha256=${encodeHex(mac)}`,
  };
}

/** 16 random bytes as hex, from the Web Crypto RNG that every supported runtime provides. */
export function randomNonce(): string {
  return encodeHex(globalThis.crypto.getRandomValues(new Uint8Array(16)));
}
