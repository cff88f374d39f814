import type { AuthMode } from '@xsvc/sdk/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { GUEST_KEY_PREFIX, walletOfKey } from './guest-keys.js';
import { findKey, touchKey } from './key-lookup.js';
import { sha256 } from './keys.js';
import { ACCESS_TOKEN_PREFIX, findToken } from './oauth-store.js';

/** Who is calling, once credentials are checked. */
export interface Principal {
  readonly accountId: string;
  /** How the caller authenticated. */
  readonly mode: Extract<AuthMode, 'apiKey' | 'session' | 'oauth' | 'guest' | 'payment'>;
  readonly keyId?: string;
  readonly isOwner: boolean;
}

/**
 * The caller of a request paid by a machine payment (spec 5.4): no account, so nothing is charged to
 * one and no account's rate limit applies; the payment settles that one request.
 */
export const PAYMENT_PRINCIPAL: Principal = Object.freeze({ accountId: '', mode: 'payment', isOwner: false });

/** The credential headers of a request. */
export interface Credentials {
  apiKey?: string | undefined;
  authorization?: string | undefined;
  cookie?: string | undefined;
}

const lastUseWritten = new Map<string, number>();

/**
 * Reads `session_token` from a Cookie header. A value that is not valid percent-encoding cannot be a token
 * the server issued: 401 `unauthenticated`, like any other wrong credential.
 */
export function sessionCookie(cookie: string | undefined): string | undefined {
  if (!cookie) return undefined;
  for (const part of cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k !== 'session_token') continue;
    try {
      return decodeURIComponent(v.join('='));
    } catch {
      throw new HttpError('unauthenticated', 'the session_token cookie is malformed; sign in again');
    }
  }
  return undefined;
}

/**
 * Resolves the caller (spec part 5): `x-api-key` (or `Svc-Api-Key`), `Authorization: Bearer svc_…` (an API
 * key), `Bearer xat_…` (an OAuth access token, spec 5.3) or a guest key `sgk_…` (spec 5.5) as a bearer token
 * or in `x-api-key` (the reference lists the api-key header on the guest-wallet operations, and generated
 * clients send it there), or the `session_token` cookie. An API key and a bearer token together are refused.
 * Returns undefined when no credential was sent; throws 401 `unauthenticated` for a wrong one.
 */
export async function authenticate(
  db: Kysely<Database>,
  creds: Credentials,
  now: number,
): Promise<Principal | undefined> {
  const bearer = /^Bearer\s+(.+)$/i.exec(creds.authorization ?? '')?.[1]?.trim();
  if (creds.apiKey && bearer) {
    throw new HttpError('unauthenticated', 'send an API key or a bearer token, not both');
  }
  const guestKey = [creds.apiKey, bearer].find((k) => k?.startsWith(GUEST_KEY_PREFIX));
  if (guestKey) {
    const wallet = await walletOfKey(db, guestKey);
    if (!wallet) throw new HttpError('unauthenticated', 'invalid guest key');
    return { accountId: wallet.accountId, mode: 'guest', isOwner: false };
  }
  const key = creds.apiKey ?? (bearer?.startsWith('svc_') ? bearer : undefined);
  if (key) {
    const row = await findKey(db, key, now);
    if (!row || row.revokedAt !== null) throw new HttpError('unauthenticated', 'invalid or revoked API key');
    // `lastUsedAt` is informational: written at most once a minute per key, not on every request.
    if (now - (lastUseWritten.get(row.keyId) ?? 0) >= 60_000) {
      lastUseWritten.set(row.keyId, now);
      await touchKey(db, row.keyId, now);
    }
    return { accountId: row.accountId, mode: 'apiKey', keyId: row.keyId, isOwner: Number(row.isOwner) === 1 };
  }
  if (bearer) {
    const token = bearer.startsWith(ACCESS_TOKEN_PREFIX) ? await findToken(db, bearer) : undefined;
    if (token?.kind !== 'access')
      throw new HttpError(
        'unauthenticated',
        'invalid bearer token: send an API key or an OAuth access token',
      );
    if (token.revokedAt !== null || token.expiresAt <= now)
      throw new HttpError(
        'unauthenticated',
        'the access token has expired or was revoked: refresh it, or authorize again',
      );
    const account = await db
      .selectFrom('accounts')
      .select('is_owner')
      .where('id', '=', token.accountId)
      .executeTakeFirst();
    if (!account) throw new HttpError('unauthenticated', 'the account of this access token no longer exists');
    return { accountId: token.accountId, mode: 'oauth', isOwner: Number(account.is_owner) === 1 };
  }
  const session = sessionCookie(creds.cookie);
  if (session) {
    const row = await db
      .selectFrom('sessions')
      .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
      .select([
        'sessions.account_id as accountId',
        'sessions.expires_at as expiresAt',
        'accounts.is_owner as isOwner',
      ])
      .where('sessions.token_hash', '=', sha256(session))
      .executeTakeFirst();
    if (!row || Number(row.expiresAt) <= now)
      throw new HttpError('unauthenticated', 'session expired; sign in again');
    return { accountId: row.accountId, mode: 'session', isOwner: Number(row.isOwner) === 1 };
  }
  return undefined;
}
