import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/** How many shards the monitors are spread over (frozen here; the engine reads the rows). */
const SHARDS = 64;

/**
 * Account and keyword monitors (spec 2.4), the shard leases of the check engine, and the idempotency key of
 * stored events.
 *
 * - `monitors` / `keyword_monitors`: one row per monitor. `baseline_tweet_id` is the watermark taken at
 *   creation or resume (nothing at or below it is ever emitted); `rev` is bumped on every change the engine
 *   must reload; `joined` says the engine has had the monitor in memory since its baseline, so the shard's
 *   `tweet_cursor` covers it after a restart; `shard` places it in one of the leased shards.
 * - `monitor_shards`: which engine instance checks which shard, until when (a lease), how far the shard's
 *   tweet stream has been processed, and a `version` bumped on every change of its monitors (so an engine
 *   reloads only the shards that changed).
 * - `monitor_engines`: a heartbeat per running engine, so instances split the shards evenly.
 * - `events.dedupe_key`: unique per (monitor, tweet, event type) or (monitor, profile change, type), so a
 *   re-check or a crash between storing and advancing never stores an event twice.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('monitors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('x_user_id', 'text', (c) => c.notNull())
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('is_active', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_billing_at', 'bigint', (c) => c.notNull())
    .addColumn('paused_reason', 'text')
    .addColumn('paused_at', 'bigint')
    .addColumn('baseline_tweet_id', 'text', (c) => c.notNull())
    .addColumn('baseline_at', 'bigint', (c) => c.notNull())
    .addColumn('profile_snapshot', 'text', (c) => c.notNull())
    .addColumn('profile_stamp', 'text', (c) => c.notNull())
    .addColumn('joined', 'bigint', (c) => c.notNull())
    .addColumn('shard', 'bigint', (c) => c.notNull())
    .addColumn('rev', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('monitors_account_user', ['account_id', 'x_user_id'])
    .execute();
  await db.schema
    .createIndex('monitors_active_shard')
    .on('monitors')
    .columns(['is_active', 'shard', 'id', 'rev'])
    .execute();
  await db.schema
    .createIndex('monitors_billing')
    .on('monitors')
    .columns(['is_active', 'next_billing_at'])
    .execute();

  await db.schema
    .createTable('keyword_monitors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('query_key', 'text', (c) => c.notNull())
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('is_active', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_billing_at', 'bigint', (c) => c.notNull())
    .addColumn('paused_reason', 'text')
    .addColumn('paused_at', 'bigint')
    .addColumn('baseline_tweet_id', 'text', (c) => c.notNull())
    .addColumn('baseline_at', 'bigint', (c) => c.notNull())
    .addColumn('cursor_tweet_id', 'text', (c) => c.notNull())
    .addColumn('shard', 'bigint', (c) => c.notNull())
    .addColumn('rev', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('keyword_monitors_account_query', ['account_id', 'query_key'])
    .execute();
  await db.schema
    .createIndex('keyword_monitors_active_shard')
    .on('keyword_monitors')
    .columns(['is_active', 'shard'])
    .execute();
  await db.schema
    .createIndex('keyword_monitors_billing')
    .on('keyword_monitors')
    .columns(['is_active', 'next_billing_at'])
    .execute();

  await db.schema
    .createTable('monitor_shards')
    .addColumn('shard', 'bigint', (c) => c.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('lease_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('tweet_cursor', 'text')
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('monitor_shards')
    .values(
      Array.from({ length: SHARDS }, (_, shard) => ({ shard, owner: null, lease_expires_at: 0, version: 0 })),
    )
    .execute();

  await db.schema
    .createTable('monitor_engines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('events').addColumn('dedupe_key', 'text').execute();
  await db.schema.createIndex('events_dedupe_key').on('events').column('dedupe_key').unique().execute();
  // The events list filters by type within an account (`eventType`), newest first.
  await db.schema
    .createIndex('events_account_type')
    .on('events')
    .columns(['account_id', 'event_type', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('events_account_type').execute();
  await db.schema.dropIndex('events_dedupe_key').execute();
  await db.schema.alterTable('events').dropColumn('dedupe_key').execute();
  await db.schema.dropTable('monitor_engines').execute();
  await db.schema.dropTable('monitor_shards').execute();
  await db.schema.dropTable('keyword_monitors').execute();
  await db.schema.dropTable('monitors').execute();
}
