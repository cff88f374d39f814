import type { Kysely } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { HttpError } from '../../core/http/errors.js';

/** Failed logins of one username, within {@link FAILURE_WINDOW_MS}, that start a cooldown. */
export const MAX_FAILED_LOGINS = 3;
/** The window failed logins are counted in. */
export const FAILURE_WINDOW_MS = 15 * 60_000;
/** How long logins of that username are refused after the last failure that reached the limit. */
export const LOGIN_COOLDOWN_MS = 5 * 60_000;

/** The key of a service account's logins to one platform username. */
export const loginKey = (accountId: string, username: string) => `${accountId}:${username.toLowerCase()}`;

/**
 * 429 `login_cooldown` while logins of `key` cool down (spec 7): `retryAfterMs` in the body and
 * `Retry-After` (seconds) in the headers. Repeating failed logins would get the platform account locked, so
 * the service stops sending them for a while.
 */
export async function checkCooldown(db: Kysely<Database>, key: string, now: number): Promise<void> {
  const row = await db.selectFrom('x_login_failures').selectAll().where('key', '=', key).executeTakeFirst();
  const until = row?.cooldown_until == null ? 0 : num(row.cooldown_until);
  if (until <= now) return;
  const retryAfterMs = until - now;
  const seconds = Math.ceil(retryAfterMs / 1_000);
  throw new HttpError(
    'login_cooldown',
    `${MAX_FAILED_LOGINS} logins failed; try again in ${seconds} seconds`,
    { retryAfterMs, retryAfter: seconds },
    undefined,
    { 'retry-after': String(seconds) },
  );
}

/** Counts a failed login; the {@link MAX_FAILED_LOGINS}th within the window starts the cooldown. */
export async function recordFailure(db: Kysely<Database>, key: string, now: number): Promise<void> {
  const row = await db.selectFrom('x_login_failures').selectAll().where('key', '=', key).executeTakeFirst();
  const fresh = !row || num(row.first_failed_at) < now - FAILURE_WINDOW_MS;
  const failures = fresh ? 1 : num(row.failures) + 1;
  const values = {
    key,
    failures,
    first_failed_at: fresh ? now : num(row.first_failed_at),
    cooldown_until: failures >= MAX_FAILED_LOGINS ? now + LOGIN_COOLDOWN_MS : null,
  };
  await db
    .insertInto('x_login_failures')
    .values(values)
    .onConflict((oc) => oc.column('key').doUpdateSet(values))
    .execute();
}

/** Forgets the failures of `key` (a login succeeded). */
export async function clearFailures(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('x_login_failures').where('key', '=', key).execute();
}
