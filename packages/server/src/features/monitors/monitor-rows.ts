import { type EventType, limits } from '@xsvc/sdk/contract';
import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { snapshotOf } from './profile-diff.js';
import type { MonitorLifecycleColumns, MonitorsTable } from './tables.js';

/**
 * The tables of the two kinds of monitor (account and keyword), which share {@link MonitorLifecycleColumns}
 * and so the row operations of this module.
 */
export type MonitorTable = 'monitors' | 'keyword_monitors';

/** A row of monitor table `T` (its shared columns readable where `T` is not known yet). */
export type RowOf<T extends MonitorTable> = Selectable<Database[T]> & Selectable<MonitorLifecycleColumns>;

/** How many shards monitors are spread over (the rows of `monitor_shards`, migration 0004). */
export const SHARD_COUNT = 64;

/** The shard of a monitor id: a stable hash, so monitors spread evenly over the leased shards. */
export function shardOf(id: string): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return (h >>> 0) % SHARD_COUNT;
}

/** What {@link accountMonitorRow} is given: the monitor, its owner, the account it watches, and when. */
export interface AccountMonitorSeed {
  readonly id: string;
  readonly accountId: string;
  /** The watched account as seeded: a plain profile (no picture, bio, link or pinned tweet). */
  readonly user: { readonly id: string; readonly username: string; readonly name: string };
  readonly eventTypes: readonly EventType[];
  /** Creation time, epoch ms. */
  readonly now: number;
}

/**
 * A complete active `monitors` row for seeding many monitors straight into the table (benchmarks, load
 * tests), shaped as a create writes it: its shard from {@link shardOf}, the first hour paid, the baseline at
 * tweet 0 and the watched profile's snapshot.
 */
export function accountMonitorRow(seed: AccountMonitorSeed): Insertable<MonitorsTable> {
  const { id, accountId, user, now } = seed;
  return {
    id,
    account_id: accountId,
    username: user.username,
    x_user_id: user.id,
    event_types: JSON.stringify(seed.eventTypes),
    is_active: 1,
    created_at: now,
    next_billing_at: now + 3_600_000,
    paused_reason: null,
    paused_at: null,
    baseline_tweet_id: '0',
    baseline_at: now,
    profile_snapshot: JSON.stringify(snapshotOf(user)),
    profile_stamp: '1',
    joined: 0,
    shard: shardOf(id),
    rev: 1,
  };
}

/** Parses a stored `event_types` JSON array. */
export function parseEventTypes(json: string): EventType[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value.filter((v) => typeof v === 'string') as EventType[]) : [];
  } catch {
    return [];
  }
}

/** A stored time (epoch ms) as the API shows it (ISO 8601). */
export const isoTime = (ms: bigint | number): string => new Date(Number(ms)).toISOString();

/** The API fields both kinds of monitor show alike (spec 2.4): whether it is active, creation, next charge. */
export function lifecycleFields(row: Selectable<MonitorLifecycleColumns>): {
  isActive: boolean;
  createdAt: string;
  nextBillingAt: string;
} {
  return {
    isActive: num(row.is_active) === 1,
    createdAt: isoTime(row.created_at),
    nextBillingAt: isoTime(row.next_billing_at),
  };
}

/**
 * Marks a shard's monitors as changed, after the change is written: engines reload the shards whose version
 * moved (and only those), so every write to `monitors` that an engine must see is followed by this.
 */
export async function bumpShard(db: Kysely<Database>, shard: bigint | number): Promise<void> {
  await db
    .updateTable('monitor_shards')
    .set({ version: sql`version + 1` })
    .where('shard', '=', shard)
    .execute();
}

/**
 * What follows a write to a monitor table that an engine must see: account monitors are reloaded by shard
 * version ({@link bumpShard}); keyword monitors are read again at every check, so they need nothing.
 */
export async function afterMonitorWrite(
  db: Kysely<Database>,
  table: MonitorTable,
  shard: bigint | number,
): Promise<void> {
  if (table === 'monitors') await bumpShard(db, shard);
}

/**
 * One monitor of an account: by id, or by the column an account cannot hold twice (`x_user_id` of account
 * monitors, `query_key` of keyword monitors).
 */
export async function findOwnedRow<T extends MonitorTable>(
  db: Kysely<Database>,
  table: T,
  accountId: string,
  value: string,
  column: 'id' | 'x_user_id' | 'query_key' = 'id',
): Promise<RowOf<T> | undefined> {
  const row = await db
    .selectFrom(table as MonitorTable)
    .selectAll()
    .where('account_id', '=', accountId)
    .where(column, '=', value)
    .executeTakeFirst();
  return row as RowOf<T> | undefined;
}

/** The account's monitors of one kind, oldest first, at most 200 (spec 4.1), and how many there are. */
export async function listOwnedRows<T extends MonitorTable>(
  db: Kysely<Database>,
  table: T,
  accountId: string,
): Promise<{ rows: RowOf<T>[]; total: number }> {
  const rows = await db
    .selectFrom(table as MonitorTable)
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limits.unpaginatedListMax)
    .execute();
  const total =
    rows.length < limits.unpaginatedListMax
      ? rows.length
      : num(
          (
            await db
              .selectFrom(table as MonitorTable)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('account_id', '=', accountId)
              .executeTakeFirst()
          )?.n,
        );
  return { rows: rows as RowOf<T>[], total };
}

/**
 * Stores a new monitor; false when the account already has one with the same `unique` value (a concurrent
 * create).
 */
export async function insertUniqueRow<T extends MonitorTable>(
  db: Kysely<Database>,
  table: T,
  row: Insertable<Database[T]>,
  unique: 'x_user_id' | 'query_key',
): Promise<boolean> {
  const values = row as Insertable<Database[MonitorTable]>;
  const r = await db
    .insertInto(table as MonitorTable)
    .values(values)
    .onConflict((oc) => oc.columns(['account_id', unique]).doNothing())
    .executeTakeFirst();
  const inserted = Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  if (inserted) await afterMonitorWrite(db, table, values.shard);
  return inserted;
}

/** Changes a monitor and bumps its `rev` (see {@link afterMonitorWrite}), so the engine reloads it. */
export async function updateMonitorRow<T extends MonitorTable>(
  db: Kysely<Database>,
  table: T,
  id: string,
  set: Updateable<Database[T]>,
): Promise<void> {
  const r = await db
    .updateTable(table as MonitorTable)
    .set({ ...(set as Updateable<Database[MonitorTable]>), rev: sql`rev + 1` })
    .where('id', '=', id)
    .returning('shard')
    .executeTakeFirst();
  if (r) await afterMonitorWrite(db, table, r.shard);
}

/** Removes a monitor of an account; false when there was none. */
export async function deleteOwnedRow(
  db: Kysely<Database>,
  table: MonitorTable,
  accountId: string,
  id: string,
): Promise<boolean> {
  const r = await db
    .deleteFrom(table)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returning('shard')
    .executeTakeFirst();
  if (r) await afterMonitorWrite(db, table, r.shard);
  return r !== undefined;
}

/** Active monitors of an account, account and keyword monitors together (`GET /account` `monitorsUsed`). */
export async function countActiveMonitors(db: Kysely<Database>, accountId: string): Promise<number> {
  const count = async (table: MonitorTable) =>
    num(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('account_id', '=', accountId)
          .where('is_active', '=', 1)
          .executeTakeFirst()
      )?.n,
    );
  return (await count('monitors')) + (await count('keyword_monitors'));
}
