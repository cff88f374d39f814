/**
 * HMAC-SHA256 through Web Crypto, the only crypto every target runtime shares (Workers, Deno, Bun, browsers,
 * Node). Importing a key costs more than the HMAC of a 1 KiB body, so the imported `CryptoKey` is cached per
 * secret (as a promise, so concurrent first calls share one import).
 */

const MAX_CACHED_KEYS = 64;
const keys = new Map<string, Promise<CryptoKey>>();
const encoder = new TextEncoder();

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (s === undefined) {
    throw new TypeError(
      'Web Crypto (crypto.subtle) is not available; a secure context or Node >= 20 is needed.',
    );
  }
  return s;
}

/** The imported HMAC key of a secret (its UTF-8 bytes), from a small cache of recent secrets. */
export function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value as string);
    key = subtle().importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    keys.set(secret, key);
    // A failed import must not be remembered, or one bad moment would poison the secret forever.
    key.catch(() => keys.delete(secret));
  }
  return key;
}

/** The bytes that are signed: `<prefix><body>` as one buffer, as Web Crypto takes a single input. */
export function signedBytes(prefix: string, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return encoder.encode(prefix + body);
  const out = new Uint8Array(prefix.length + body.length);
  // The prefix is ASCII (digits, hex, dots), so one character is one byte.
  encoder.encodeInto(prefix, out);
  out.set(body, prefix.length);
  return out;
}

/**
 * True when `signature` is the HMAC of `data` under any of `secrets`. `subtle.verify` compares in constant
 * time and checks the length itself.
 */
export async function verifyHmac(
  secrets: string | readonly string[],
  data: Uint8Array<ArrayBuffer>,
  signature: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  const s = subtle();
  if (typeof secrets === 'string') return s.verify('HMAC', await hmacKey(secrets), signature, data);
  for (const secret of secrets) {
    if (await s.verify('HMAC', await hmacKey(secret), signature, data)) {
      return true;
    }
  }
  return false;
}

/** The raw HMAC-SHA256 of `data` under `secret`. */
export async function signHmac(secret: string, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  return new Uint8Array(await subtle().sign('HMAC', await hmacKey(secret), data));
}
