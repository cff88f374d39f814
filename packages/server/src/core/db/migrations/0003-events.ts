import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * Stored events (spec 2.5) and the event outbox: the seam between the monitors feature, which stores each
 * matched event and, in the same transaction, one `event_outbox` row for it; and the webhooks feature, which
 * claims outbox rows, creates the deliveries for the matching webhooks and removes the row, also in one
 * transaction. Nothing is lost across a crash: an event without its deliveries still has its outbox row.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('monitor_id', 'text')
    .addColumn('keyword_monitor_id', 'text')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('username', 'text')
    .addColumn('query', 'text')
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_account_id').on('events').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('events_monitor_id').on('events').columns(['monitor_id', 'id']).execute();
  await db.schema
    .createIndex('events_keyword_monitor_id')
    .on('events')
    .columns(['keyword_monitor_id', 'id'])
    .execute();

  await db.schema
    .createTable('event_outbox')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_outbox_created_at').on('event_outbox').columns(['created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('event_outbox').execute();
  await db.schema.dropTable('events').execute();
}
