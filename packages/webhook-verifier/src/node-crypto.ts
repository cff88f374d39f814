/**
 * HMAC-SHA256 through node:crypto for the Node build: synchronous (so `verifyWebhookSync` exists) and about
 * five times faster than Web Crypto on a small body. The prefix and body are fed to the HMAC separately, so
 * the body is never copied or converted to a string before the signature is known to be good. The secret is
 * turned into a `KeyObject` once and cached, which skips re-encoding the key string on every delivery.
 */
import { Buffer } from 'node:buffer';
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

const MAX_CACHED_KEYS = 64;
// Reused for every decoded signature: the Node build compares synchronously, before anything else can run.
const signatureScratch = Buffer.alloc(32);

/**
 * Decodes the header's 64 hex digits (after `sha256=`) natively into a reused buffer; `undefined` if any is
 * not hex (Node's hex decoder stops at the first bad pair, so fewer than 32 bytes are written).
 */
export function decodeSignature(header: string): Buffer<ArrayBuffer> | undefined {
  return signatureScratch.write(header.slice(7), 0, 32, 'hex') === 32 ? signatureScratch : undefined;
}
const keys = new Map<string, KeyObject>();

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value as string);
    key = createSecretKey(secret, 'utf8');
    keys.set(secret, key);
  }
  return key;
}

/** The raw HMAC-SHA256 of `<prefix><body>` under `secret` (its UTF-8 bytes). */
export function hmac(secret: string, prefix: string, body: string | Uint8Array): Buffer {
  const h = createHmac('sha256', keyOf(secret)).update(prefix);
  return (typeof body === 'string' ? h.update(body, 'utf8') : h.update(body)).digest();
}

/** True when `signature` is the HMAC under any of `secrets`; lengths first, then a constant-time compare. */
export function verifyHmac(
  secrets: string | readonly string[],
  prefix: string,
  body: string | Uint8Array,
  signature: Uint8Array,
): boolean {
  if (typeof secrets === 'string') return equal(hmac(secrets, prefix, body), signature);
  for (let i = 0; i < secrets.length; i++) {
    if (equal(hmac(secrets[i]!, prefix, body), signature)) return true;
  }
  return false;
}

function equal(expected: Buffer, signature: Uint8Array): boolean {
  return expected.length === signature.length && timingSafeEqual(expected, signature);
}
