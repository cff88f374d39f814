import type { Kysely } from 'kysely';
import { num } from '../../../core/db/database.js';
import type { Database } from '../../../core/db/schema.js';
import { releaseOthersLeases } from '../../../core/jobs/index.js';

/** The job kind of a shard's checks: one recurring job per shard (key: the shard number), every second. */
export const SHARD_JOB_KIND = 'monitor.shard';
/** The job kind of a shard's hourly billing: one recurring job per shard. */
export const BILLING_JOB_KIND = 'monitor.billing';

/** Timing of the shard leases. */
export interface LeaseTiming {
  /** How long a claimed shard stays this engine's without renewal. */
  leaseMs: number;
}

/**
 * The shards this engine instance checks: the `monitor.shard` jobs it holds the leases of (the jobs engine
 * claims them, `FOR UPDATE SKIP LOCKED` on Postgres, so two instances never hold one shard at once; a
 * shard whose lease ran out is claimed by another). Instances share the shards evenly: each heartbeat in
 * `monitor_engines` counts a live instance, and each claims at most ⌈shards / live instances⌉. An instance
 * that lost a lease in the middle of a check may still finish it, which the events' unique key makes
 * harmless. The tweet cursor of each shard stays in `monitor_shards`.
 */
export class ShardLeases {
  private owned: number[] = [];
  private total: number | undefined;
  private joined = false;

  constructor(
    private readonly db: Kysely<Database>,
    readonly owner: string,
    private readonly timing: LeaseTiming,
  ) {}

  /** The shards held by the check in progress (or the last one). */
  get shards(): readonly number[] {
    return this.owned;
  }

  /** Sets the shards the check about to run holds (the claimed jobs). */
  hold(shards: readonly number[]): void {
    this.owned = [...shards].sort((a, b) => a - b);
  }

  /** Heartbeat; returns how many shards this instance may hold now (its fair share). */
  async share(now: number): Promise<number> {
    const { leaseMs } = this.timing;
    this.joined = true;
    await this.db
      .insertInto('monitor_engines')
      .values({ id: this.owner, seen_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: now }))
      .execute();
    await this.db
      .deleteFrom('monitor_engines')
      .where('seen_at', '<', now - 3 * leaseMs)
      .execute();
    const live = num(
      (
        await this.db
          .selectFrom('monitor_engines')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('seen_at', '>=', now - leaseMs)
          .executeTakeFirst()
      )?.n,
    );
    this.total ??= num(
      (
        await this.db
          .selectFrom('monitor_shards')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      )?.n,
    );
    return Math.ceil(this.total / Math.max(1, live));
  }

  /**
   * Frees the shard leases and heartbeats a process that died left behind (`kill -9`: it never handed its
   * shards back). Only where this process is the one engine on the database (SQLite): every lease found there
   * is such a leftover, and its monitors would otherwise wait for it to expire. On Postgres other instances
   * may be alive: a dead one's shards are claimed when its lease runs out. Returns how many were freed.
   */
  async releaseLeftovers(): Promise<number> {
    const freed = await releaseOthersLeases(this.db, [SHARD_JOB_KIND, BILLING_JOB_KIND], this.owner);
    await this.db.deleteFrom('monitor_engines').where('id', '!=', this.owner).execute();
    return freed;
  }

  /** Removes the heartbeat (a clean stop: the shards' leases were given back by the jobs engine). */
  async release(): Promise<void> {
    if (!this.joined) return; // never took part: nothing to hand back
    await this.db.deleteFrom('monitor_engines').where('id', '=', this.owner).execute();
    this.owned = [];
    this.joined = false;
  }

  /** Records how far the account-monitor tweet stream of every held shard has been processed. */
  async saveCursor(cursor: string): Promise<void> {
    if (this.owned.length === 0) return;
    await this.db
      .updateTable('monitor_shards')
      .set({ tweet_cursor: cursor })
      .where('shard', 'in', [...this.owned])
      .execute();
  }

  /** The saved tweet cursor of each held shard. */
  async cursors(): Promise<Map<number, string | null>> {
    if (this.owned.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('monitor_shards')
      .select(['shard', 'tweet_cursor'])
      .where('shard', 'in', [...this.owned])
      .execute();
    return new Map(rows.map((r) => [num(r.shard), r.tweet_cursor]));
  }
}
