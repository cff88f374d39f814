import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { storedSecret } from '../db/server-secret.js';
import type { Services } from '../services.js';

const SECRET_NAME = 'x-account-sessions';
const VERSION = 'v1';

/**
 * Encryption at rest of what a platform login gives (sessions, the state of a login waiting for an e-mailed
 * code): AES-256-GCM with a key derived (HKDF-SHA256) from `XSVC_SECRET_KEY`, or from a random secret the
 * server generates once and keeps in `server_secrets` when that variable is not set. A sealed value is
 * `v1.<iv>.<tag>.<ciphertext>` (base64url); tampering makes {@link SecretBox.open} throw.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** A box over a secret. */
  static fromSecret(secret: string): SecretBox {
    return new SecretBox(Buffer.from(hkdfSync('sha256', secret, 'xsvc', SECRET_NAME, 32)));
  }

  /** Encrypts `plain`. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** Decrypts what {@link seal} produced with the same key; throws on any other input. */
  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || data === undefined)
      throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

const boxes = new WeakMap<object, Promise<SecretBox>>();

/** The box of a server: from its configured secret, else from the one kept in its database (made once). */
export function secretBox(services: Services): Promise<SecretBox> {
  const key = services.database;
  let box = boxes.get(key);
  if (!box) {
    box = load(services);
    boxes.set(key, box);
    box.catch(() => boxes.delete(key));
  }
  return box;
}

async function load(services: Services): Promise<SecretBox> {
  if (services.config.secretKey) return SecretBox.fromSecret(services.config.secretKey);
  return SecretBox.fromSecret(await storedSecret(services.database.db, SECRET_NAME, services.clock.now()));
}
