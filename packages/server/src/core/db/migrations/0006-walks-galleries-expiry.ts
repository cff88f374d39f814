import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * Coverage walks (the server-side checkpoints behind `mode=coverage` cursors) and the ids each walk has
 * returned (for de-duplication), media galleries (the pages `downloadMedia` links to), and the expiry of
 * checkouts.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('coverage_walks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('step', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('prev_state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('lease_owner', 'text')
    .execute();
  await db.schema
    .createIndex('coverage_walks_expires_at')
    .on('coverage_walks')
    .columns(['expires_at'])
    .execute();

  await db.schema
    .createTable('coverage_seen')
    .addColumn('walk_id', 'text', (c) => c.notNull().references('coverage_walks.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('step', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('coverage_seen_pk', ['walk_id', 'item_id'])
    .execute();

  await db.schema
    .createTable('media_galleries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tweet_ids', 'text', (c) => c.notNull())
    .addColumn('items', 'text', (c) => c.notNull())
    .addColumn('total_media', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('checkouts').addColumn('expires_at', 'bigint').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('checkouts').dropColumn('expires_at').execute();
  await db.schema.dropTable('media_galleries').execute();
  await db.schema.dropTable('coverage_seen').execute();
  await db.schema.dropTable('coverage_walks').execute();
}
