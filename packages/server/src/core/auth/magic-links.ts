import type { Kysely } from 'kysely';
import { num } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { randomToken, sha256 } from './keys.js';

/** How long a sign-in link works. */
export const MAGIC_LINK_TTL_MS = 15 * 60_000;

/** Why a sign-in link was refused. */
export type MagicLinkRefusal = 'unknown' | 'used' | 'expired';

/** Creates a single-use sign-in link for `email`; only its hash is stored. Returns the token to send. */
export async function createMagicLink(
  db: Kysely<Database>,
  email: string,
  now: number,
): Promise<{ token: string; expiresAt: number }> {
  const token = randomToken();
  const expiresAt = now + MAGIC_LINK_TTL_MS;
  await db
    .insertInto('magic_links')
    .values({ token_hash: sha256(token), email, created_at: now, expires_at: expiresAt, used_at: null })
    .execute();
  return { token, expiresAt };
}

/**
 * Uses a sign-in link: at most once (the conditional update is the only claim, so two concurrent clicks
 * cannot both succeed) and only before it expires. Returns the email it was sent to, or why it is refused.
 */
export async function consumeMagicLink(
  db: Kysely<Database>,
  token: string,
  now: number,
): Promise<{ email: string } | { refused: MagicLinkRefusal }> {
  const hash = sha256(token);
  const claimed = await db
    .updateTable('magic_links')
    .set({ used_at: now })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('email')
    .executeTakeFirst();
  if (claimed) return { email: claimed.email };
  const row = await db
    .selectFrom('magic_links')
    .select(['used_at', 'expires_at'])
    .where('token_hash', '=', hash)
    .executeTakeFirst();
  if (!row) return { refused: 'unknown' };
  return { refused: row.used_at !== null ? 'used' : num(row.expires_at) <= now ? 'expired' : 'unknown' };
}
