import { isIP } from 'node:net';
import { sha256 } from '../auth/keys.js';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { consume, Sweeper, sweep, type WindowLimit } from './fixed-window.js';

export type { WindowLimit } from './fixed-window.js';

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
 * Counts sign-in link requests per e-mail and per client with the one fixed-window limiter (shared
 * `rate_limit_counters`, one atomic upsert per count), so the limits hold across restarts and across every
 * instance on one Postgres.
 */
export class SignInLimiter {
  private readonly sweeper = new Sweeper();

  constructor(
    private readonly database: Db,
    private readonly limits: { perEmail: WindowLimit; perClient: WindowLimit } = SIGN_IN_LIMITS,
  ) {}

  /**
   * Counts one request for a link to `email` from `ip`; throws 429 `rate_limit_exceeded` when either limit
   * is reached. The client is checked first: a refused client does not use up the address's allowance.
   */
  async hit(email: string, ip: string, now: number): Promise<void> {
    if (this.sweeper.due(now)) await sweep(this.database.db, now - KEEP_MS, BUCKET_PREFIX);
    await this.count(`client:${clientKey(ip)}`, this.limits.perClient, now, 'from this address');
    await this.count(`email:${sha256(email)}`, this.limits.perEmail, now, 'for this e-mail address');
  }

  private async count(key: string, cfg: WindowLimit, now: number, what: string): Promise<void> {
    const w = await consume(this.database.db, { key: `${BUCKET_PREFIX}${key}`, ...cfg, now });
    if (w.allowed) return;
    throw new HttpError(
      'rate_limit_exceeded',
      `too many sign-in links requested ${what}: at most ${cfg.limit} per ${cfg.windowMs / 60_000} minutes`,
      { retryAfter: w.retryAfter },
      429,
      { 'retry-after': String(w.retryAfter) },
    );
  }
}
