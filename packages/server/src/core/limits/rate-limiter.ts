import { limits } from '@xsvc/sdk/contract';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { consume, MemoryWindows, Sweeper, sweep, type WindowState } from './fixed-window.js';

/** The three tiers of spec 8.1. */
export type Tier = 'read' | 'write' | 'delete';

/** The tier of an HTTP method. */
export function tierOf(method: string): Tier {
  if (method === 'DELETE') return 'delete';
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return 'read';
  return 'write';
}

/** Per-tier limits. */
export type TierLimits = Record<Tier, { limit: number; windowMs: number; retryAfterSeconds: number }>;

/** Counter rows of windows that ended longer ago than this are swept. */
const KEEP_MS = 3_600_000;

/**
 * Fixed-window counters per account and tier (spec 8.1), windows of the one limiter (`fixed-window.ts`). On
 * Postgres they live in the database, so the count is exact under concurrency and shared by every server
 * instance on it: one atomic upsert per request. A SQLite database belongs to one server process, so there
 * the same windows live in that process's memory: equally exact (one event loop), and no write transaction
 * per request.
 */
export class RateLimiter {
  private readonly sweeper = new Sweeper();
  private readonly memory = new MemoryWindows();

  constructor(
    private readonly database: Db,
    private readonly tiers: TierLimits = limits.rateLimits.newer,
  ) {}

  /** Counts one request; throws 429 `rate_limit_exceeded` with `Retry-After` when the window is full. */
  async hit(accountId: string, tier: Tier, now: number): Promise<{ remaining: number; resetMs: number }> {
    const cfg = this.tiers[tier];
    const input = { key: `${accountId}:${tier}`, limit: cfg.limit, windowMs: cfg.windowMs, now };
    let window: WindowState;
    if (this.database.dialect === 'postgres') {
      window = await consume(this.database.db, input);
      if (this.sweeper.due(now)) await sweep(this.database.db, now - KEEP_MS);
    } else window = this.memory.consume(input);
    if (!window.allowed) {
      const retryAfter = cfg.retryAfterSeconds;
      throw new HttpError(
        'rate_limit_exceeded',
        `${tier} limit of ${cfg.limit} requests per ${cfg.windowMs / 1000} s reached`,
        { retryAfter },
        429,
        { 'retry-after': String(retryAfter) },
      );
    }
    return { remaining: window.remaining, resetMs: window.resetAt - now };
  }
}
