import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { HttpError } from '../../core/http/errors.js';
import { consume, peek, reset } from '../../core/limits/fixed-window.js';

/** Failed logins of one username, within {@link FAILURE_WINDOW_MS}, that start a cooldown. */
export const MAX_FAILED_LOGINS = 3;
/** The window failed logins are counted in. */
export const FAILURE_WINDOW_MS = 15 * 60_000;
/** How long logins of that username are refused after the last failure that reached the limit. */
export const LOGIN_COOLDOWN_MS = 5 * 60_000;

/** The key of a service account's logins to one platform username. */
export const loginKey = (accountId: string, username: string) => `${accountId}:${username.toLowerCase()}`;

/**
 * The two windows of the one fixed-window limiter a login key uses: its failures, counted from the first
 * one for {@link FAILURE_WINDOW_MS}, and its cooldown, a window of {@link LOGIN_COOLDOWN_MS} opened by
 * the failure that reached {@link MAX_FAILED_LOGINS} (logins are refused while it holds a unit).
 */
const failures = (key: string) => ({
  key: `x-login:failures:${key}`,
  limit: Number.MAX_SAFE_INTEGER,
  windowMs: FAILURE_WINDOW_MS,
  anchor: 'first' as const,
});
const cooldown = (key: string) => ({
  key: `x-login:cooldown:${key}`,
  limit: 1,
  windowMs: LOGIN_COOLDOWN_MS,
  anchor: 'first' as const,
});

/**
 * 429 `login_cooldown` while logins of `key` cool down (spec 7): `retryAfterMs` in the body and
 * `Retry-After` (seconds) in the headers. Repeating failed logins would get the platform account locked, so
 * the service stops sending them for a while.
 */
export async function checkCooldown(db: Kysely<Database>, key: string, now: number): Promise<void> {
  const w = await peek(db, { ...cooldown(key), now });
  if (w.allowed) return;
  const retryAfterMs = w.resetAt - now;
  const seconds = Math.ceil(retryAfterMs / 1_000);
  throw new HttpError(
    'login_cooldown',
    `${MAX_FAILED_LOGINS} logins failed; try again in ${seconds} seconds`,
    { retryAfterMs, retryAfter: seconds },
    undefined,
    { 'retry-after': String(seconds) },
  );
}

/** Counts a failed login; the {@link MAX_FAILED_LOGINS}th within the window (and each after it) starts the cooldown. */
export async function recordFailure(db: Kysely<Database>, key: string, now: number): Promise<void> {
  const w = await consume(db, { ...failures(key), now });
  if (w.count < MAX_FAILED_LOGINS) return;
  await reset(db, cooldown(key).key);
  await consume(db, { ...cooldown(key), now });
}

/** Forgets the failures of `key` (a login succeeded). */
export async function clearFailures(db: Kysely<Database>, key: string): Promise<void> {
  await reset(db, failures(key).key);
  await reset(db, cooldown(key).key);
}
