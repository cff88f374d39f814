import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** The prefix of a sealed value: the format's version. A value without it is not sealed (a legacy plain row). */
export const SEALED_PREFIX = 'v1.';

/**
 * What a key is for. Each purpose has its own AES key, derived from the server's secret key with HKDF, so
 * a value sealed for one use cannot be opened as another.
 */
export type SecretPurpose =
  /** Connected accounts' platform sessions and the state of a login waiting for an e-mailed code. */
  | 'x-account-sessions'
  /** Webhook endpoints' signing secrets. */
  | 'webhook-secrets';

/** The HKDF-SHA256 derivation of every key of the server: salt `xsvc`, `info` names the use. */
export function deriveKey(secret: string, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'xsvc', info, 32));
}

/**
 * Encryption at rest with one key: AES-256-GCM, a sealed value being `v1.<iv>.<tag>.<ciphertext>`
 * (base64url parts). Tampering, or another key, makes {@link SecretBox.open} throw.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** The box of `purpose` under a server secret key. */
  static fromSecret(secret: string, purpose: SecretPurpose = 'x-account-sessions'): SecretBox {
    return new SecretBox(deriveKey(secret, purpose));
  }

  /** Encrypts `plain`. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${SEALED_PREFIX}${[iv, cipher.getAuthTag(), data].map((p) => p.toString('base64url')).join('.')}`;
  }

  /** Decrypts what {@link seal} produced with the same key; throws on any other input. */
  open(sealed: string): string {
    const [version, iv, tag, data, extra] = sealed.split('.');
    if (`${version}.` !== SEALED_PREFIX || !iv || !tag || data === undefined || extra !== undefined)
      throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/**
 * The boxes of one purpose under the server's keys: seals with the current key, opens with the current
 * key or any previous one (a rotation in progress, `XSVC_SECRET_KEY_PREVIOUS`).
 */
export class KeyedBox {
  constructor(
    private readonly current: SecretBox,
    private readonly previous: readonly SecretBox[],
  ) {}

  /** Encrypts `plain` under the current key. */
  seal(plain: string): string {
    return this.current.seal(plain);
  }

  /** Decrypts a value sealed under the current key or a previous one; throws when none opens it. */
  open(sealed: string): string {
    return this.openWith(sealed).plain;
  }

  /** Decrypts `sealed`, saying whether the current key opened it (else it needs sealing again). */
  openWith(sealed: string): { plain: string; current: boolean } {
    try {
      return { plain: this.current.open(sealed), current: true };
    } catch (err) {
      for (const box of this.previous) {
        try {
          return { plain: box.open(sealed), current: false };
        } catch {
          /* the next key */
        }
      }
      throw err;
    }
  }
}

/**
 * The server's secret keys: the current one (`XSVC_SECRET_KEY`, or the key file) and those it replaces.
 * Every key the server uses derives from them (see `key-source.ts` for where they come from).
 */
export class SecretKeys {
  private readonly boxes = new Map<SecretPurpose, KeyedBox>();

  constructor(
    readonly current: string,
    readonly previous: readonly string[] = [],
  ) {}

  /** The box of `purpose`. */
  box(purpose: SecretPurpose): KeyedBox {
    let box = this.boxes.get(purpose);
    if (!box) {
      box = new KeyedBox(
        SecretBox.fromSecret(this.current, purpose),
        this.previous.map((p) => SecretBox.fromSecret(p, purpose)),
      );
      this.boxes.set(purpose, box);
    }
    return box;
  }

  /** A key derived from the current secret for another use (`info` names it: HMAC keys, for instance). */
  derive(info: string): Buffer {
    return deriveKey(this.current, info);
  }
}

/** The box of connected accounts' sessions and login states, under the server's keys. */
export function secretBox(services: { readonly secrets: SecretKeys }): Promise<KeyedBox> {
  return Promise.resolve(services.secrets.box('x-account-sessions'));
}
