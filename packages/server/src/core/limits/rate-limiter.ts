import { limits } from '@xsvc/sdk/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';

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

/**
 * Fixed-window counters per account and tier (spec 8.1). On Postgres they live in the database, so the count
 * is exact under concurrency and shared by every server instance on it: one atomic upsert per request. A
 * SQLite database belongs to one server process, so there the counters live in that process's memory:
 * equally exact (one event loop), and no write transaction per request.
 */
export class RateLimiter {
  private lastSweep = 0;
  private readonly memory = new Map<string, number>();

  constructor(
    private readonly database: Db,
    private readonly tiers: TierLimits = limits.rateLimits.newer,
  ) {}

  /** Counts one request; throws 429 `rate_limit_exceeded` with `Retry-After` when the window is full. */
  async hit(accountId: string, tier: Tier, now: number): Promise<{ remaining: number; resetMs: number }> {
    const cfg = this.tiers[tier];
    const windowStart = now - (now % cfg.windowMs);
    const bucket = `${accountId}:${tier}`;
    const count =
      this.database.dialect === 'postgres'
        ? await this.countInDb(bucket, windowStart, now)
        : this.countInMemory(bucket, windowStart, now);
    const resetMs = windowStart + cfg.windowMs - now;
    if (count > cfg.limit) {
      const retryAfter = cfg.retryAfterSeconds;
      throw new HttpError(
        'rate_limit_exceeded',
        `${tier} limit of ${cfg.limit} requests per ${cfg.windowMs / 1000} s reached`,
        { retryAfter },
        429,
        { 'retry-after': String(retryAfter) },
      );
    }
    return { remaining: cfg.limit - count, resetMs };
  }

  private async countInDb(bucket: string, windowStart: number, now: number): Promise<number> {
    const row = await sql<{ count: bigint | number }>`
      insert into rate_limit_counters (bucket, window_start, count) values (${bucket}, ${windowStart}, 1)
      on conflict (bucket, window_start) do update set count = rate_limit_counters.count + 1
      returning count`.execute(this.database.db);
    if (now - this.lastSweep > 60_000) {
      this.lastSweep = now;
      await this.database.db
        .deleteFrom('rate_limit_counters')
        .where('window_start', '<', now - 3_600_000)
        .execute();
    }
    return Number(row.rows[0]?.count ?? 1);
  }

  private countInMemory(bucket: string, windowStart: number, now: number): number {
    const key = `${bucket}:${windowStart}`;
    const count = (this.memory.get(key) ?? 0) + 1;
    this.memory.set(key, count);
    if (now - this.lastSweep > 60_000) {
      this.lastSweep = now;
      for (const k of this.memory.keys()) {
        if (Number(k.slice(k.lastIndexOf(':') + 1)) < now - 3_600_000) this.memory.delete(k);
      }
    }
    return count;
  }
}
