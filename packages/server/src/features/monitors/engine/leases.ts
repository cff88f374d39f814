import { type Kysely, sql } from 'kysely';
import { num } from '../../../core/db/database.js';
import type { Database } from '../../../core/db/schema.js';

/** Timing of the shard leases. */
export interface LeaseTiming {
  /** How long a claimed shard stays this engine's without renewal. */
  leaseMs: number;
}

/**
 * The shards (rows of `monitor_shards`) this engine instance checks. Every check renews the instance's
 * leases and heartbeat; instances share the shards evenly (each takes at most ⌈shards / live instances⌉,
 * handing back extras when another instance appears); a shard whose lease ran out (its instance stopped or
 * died) is claimed by another. Claims are conditional updates (`where owner is null or lease expired`),
 * atomic on SQLite and on Postgres, so two instances never hold one shard at once; an instance that lost a
 * lease in the middle of a check may still finish it, which the events' unique key makes harmless.
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

  /** The shards held after the last {@link refresh}. */
  get shards(): readonly number[] {
    return this.owned;
  }

  /** Heartbeat, renew, rebalance and claim; returns the shards this instance holds now. */
  async refresh(now: number): Promise<readonly number[]> {
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
    const target = Math.ceil(this.total / Math.max(1, live));
    const renewed = await this.db
      .updateTable('monitor_shards')
      .set({ lease_expires_at: now + leaseMs })
      .where('owner', '=', this.owner)
      .returning('shard')
      .execute();
    let owned = renewed.map((r) => num(r.shard)).sort((a, b) => a - b);
    if (owned.length > target) {
      const extra = owned.slice(target);
      await this.db
        .updateTable('monitor_shards')
        .set({ owner: null, lease_expires_at: 0 })
        .where('owner', '=', this.owner)
        .where('shard', 'in', extra)
        .execute();
      owned = owned.slice(0, target);
    } else if (owned.length < target) {
      const claimed = await sql<{ shard: bigint | number }>`
        update monitor_shards set owner = ${this.owner}, lease_expires_at = ${now + leaseMs}
        where shard in (
          select shard from monitor_shards where owner is null or lease_expires_at < ${now}
          order by shard limit ${target - owned.length}
        ) and (owner is null or lease_expires_at < ${now})
        returning shard
      `.execute(this.db);
      owned = [...owned, ...claimed.rows.map((r) => num(r.shard))].sort((a, b) => a - b);
    }
    this.owned = owned;
    return owned;
  }

  /**
   * Frees the leases and heartbeats a process that died left behind (`kill -9`: it never handed its shards
   * back). Only where this process is the one engine on the database (SQLite, like the webhook engine's
   * deliveries): every lease found there is such a leftover, and its monitors would otherwise wait for it to
   * expire. On Postgres other instances may be alive: a dead one's shards are claimed when its lease runs
   * out, which takes a few check intervals. Returns how many shards were freed.
   */
  async releaseLeftovers(): Promise<number> {
    const freed = await this.db
      .updateTable('monitor_shards')
      .set({ owner: null, lease_expires_at: 0 })
      .where('owner', 'is not', null)
      .where('owner', '!=', this.owner)
      .executeTakeFirst();
    await this.db.deleteFrom('monitor_engines').where('id', '!=', this.owner).execute();
    return Number(freed.numUpdatedRows);
  }

  /** Hands every shard back and removes the heartbeat (a clean stop: another instance takes over at once). */
  async release(): Promise<void> {
    if (!this.joined) return; // never took part: nothing to hand back
    await this.db
      .updateTable('monitor_shards')
      .set({ owner: null, lease_expires_at: 0 })
      .where('owner', '=', this.owner)
      .execute();
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
      .where('owner', '=', this.owner)
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
