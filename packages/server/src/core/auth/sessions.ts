import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { randomToken, sha256 } from './keys.js';

/** How long a dashboard session lasts. */
export const SESSION_TTL_MS = 30 * 24 * 3_600_000;

/** Opens a session for an account; only the token's hash is stored. Returns the cookie value. */
export async function createSession(
  db: Kysely<Database>,
  accountId: string,
  now: number,
): Promise<{ token: string; expiresAt: number }> {
  const token = randomToken();
  const expiresAt = now + SESSION_TTL_MS;
  await db
    .insertInto('sessions')
    .values({ token_hash: sha256(token), account_id: accountId, created_at: now, expires_at: expiresAt })
    .execute();
  return { token, expiresAt };
}

/** Ends the session of a cookie value (nothing when it is unknown). */
export async function deleteSession(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', sha256(token)).execute();
}
