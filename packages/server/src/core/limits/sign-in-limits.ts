import { isIP } from 'node:net';
import { sql } from 'kysely';
import { sha256 } from '../auth/keys.js';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';

/** One fixed-window limit: at most `limit` sign-in links per `windowMs`. */
export interface WindowLimit {
  limit: number;
  windowMs: number;
}

/**
 * Limits of `POST /auth/magic-link`, so that the sign-in cannot be used to flood the log (or a mailbox, once
 * mail is sent): 5 links per e-mail address and 20 per client address every 15 minutes (the lifetime of a
 * link). Fixed windows, as the rate limits of spec 8.1; the answer past a limit is 429 `rate_limit_exceeded`
 * with `Retry-After` (seconds to the end of the window) and body `retryAfter`.
 */
export const SIGN_IN_LIMITS = {
  perEmail: { limit: 5, windowMs: 15 * 60_000 },
  perClient: { limit: 20, windowMs: 15 * 60_000 },
} as const satisfies Record<string, WindowLimit>;

/** Counter rows older than this are swept. */
const KEEP_MS = 3_600_000;
const BUCKET_PREFIX = 'signin:';

/**
 * The key of a client address: IPv4 as is (IPv4-mapped IPv6 unwrapped), IPv6 by its /64 prefix, since one
 * host usually holds a whole /64 and could otherwise rotate through it.
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (isIP(ip) !== 6) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/**
 * Counts one event in `bucket`'s current fixed window of the shared `rate_limit_counters` table (one atomic
 * upsert, so it holds across restarts and instances on one Postgres). `over` when the window already held
 * `limit` events; `retryAfter` is the seconds to the window's end.
 */
export async function countInWindow(
  database: Db,
  bucket: string,
  cfg: WindowLimit,
  now: number,
): Promise<{ over: boolean; retryAfter: number }> {
  const windowStart = now - (now % cfg.windowMs);
  const r = await sql<{ count: bigint | number }>`
    insert into rate_limit_counters (bucket, window_start, count) values (${bucket}, ${windowStart}, 1)
    on conflict (bucket, window_start) do update set count = rate_limit_counters.count + 1
    returning count`.execute(database.db);
  const count = Number(r.rows[0]?.count ?? 1);
  return {
    over: count > cfg.limit,
    retryAfter: Math.max(1, Math.ceil((windowStart + cfg.windowMs - now) / 1000)),
  };
}

/**
 * Counts sign-in link requests per e-mail and per client in the shared `rate_limit_counters` table (one
 * atomic upsert per count), so the limits hold across restarts and across every instance on one Postgres.
 */
export class SignInLimiter {
  private lastSweep = 0;

  constructor(
    private readonly database: Db,
    private readonly limits: { perEmail: WindowLimit; perClient: WindowLimit } = SIGN_IN_LIMITS,
  ) {}

  /**
   * Counts one request for a link to `email` from `ip`; throws 429 `rate_limit_exceeded` when either limit
   * is reached. The client is checked first: a refused client does not use up the address's allowance.
   */
  async hit(email: string, ip: string, now: number): Promise<void> {
    await this.sweep(now);
    await this.count(`client:${clientKey(ip)}`, this.limits.perClient, now, 'from this address');
    await this.count(`email:${sha256(email)}`, this.limits.perEmail, now, 'for this e-mail address');
  }

  private async count(key: string, cfg: WindowLimit, now: number, what: string): Promise<void> {
    const { over, retryAfter } = await countInWindow(this.database, `${BUCKET_PREFIX}${key}`, cfg, now);
    if (!over) return;
    throw new HttpError(
      'rate_limit_exceeded',
      `too many sign-in links requested ${what}: at most ${cfg.limit} per ${cfg.windowMs / 60_000} minutes`,
      { retryAfter },
      429,
      { 'retry-after': String(retryAfter) },
    );
  }

  /** Removes this limiter's expired counters, at most once a minute. */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    await this.database.db
      .deleteFrom('rate_limit_counters')
      .where('bucket', 'like', `${BUCKET_PREFIX}%`)
      .where('window_start', '<', now - KEEP_MS)
      .execute();
  }
}
