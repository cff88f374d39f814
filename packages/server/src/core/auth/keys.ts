import * as crypto from 'node:crypto';
import { createHash, randomBytes } from 'node:crypto';

/** API key format (spec 2.3): `svc_` + 64 hex characters. */
export const API_KEY_PATTERN = /^svc_[0-9a-f]{64}$/;

/** A new random API key. */
export function generateApiKey(): string {
  return `svc_${randomBytes(32).toString('hex')}`;
}

// One-shot `crypto.hash` (Node >= 20.12) skips the Hash object; older Node 20 releases lack it.
const oneShot: ((algorithm: string, data: string, encoding: 'hex') => string) | undefined = (
  crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }
).hash;

/** SHA-256 hex: keys, session tokens and magic links are stored only as hashes. */
export function sha256(value: string): string {
  return oneShot ? oneShot('sha256', value, 'hex') : createHash('sha256').update(value).digest('hex');
}

/** The part of a key shown in listings (`svc_1a2b3c4d`). */
export function keyPrefix(key: string): string {
  return key.slice(0, 12);
}

/** A new signing secret: `bytes` random bytes as hex (spec 2.6: a webhook's hex secret, shown once). */
export function hexSecret(bytes = 32): string {
  return randomBytes(bytes).toString('hex');
}

/** A random opaque token (sessions, magic links). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
