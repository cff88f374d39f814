import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * The xapi platform's filtered stream (`X_API_MONITOR_SOURCE=stream`, `platform/xapi/stream*.ts`):
 * - `x_stream_posts`: the posts X delivered, mapped, by author and id order (`sort_key`: the id left-padded
 *   to 20 digits), kept for a while so every instance's checks read them above their watermark;
 * - `x_stream_matches`: which keyword rule (`rule_key`, the query's key) each post matched;
 * - `x_stream_state`: one row, the lease of the instance holding the one connection X allows, and when it
 *   last heard from X.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('x_stream_posts')
    .addColumn('tweet_id', 'text', (c) => c.primaryKey())
    .addColumn('sort_key', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('tweet', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('x_stream_posts_author')
    .on('x_stream_posts')
    .columns(['author_id', 'sort_key'])
    .execute();
  await db.schema.createIndex('x_stream_posts_received').on('x_stream_posts').column('received_at').execute();
  await db.schema
    .createTable('x_stream_matches')
    .addColumn('rule_key', 'text', (c) => c.notNull())
    .addColumn('sort_key', 'text', (c) => c.notNull())
    .addColumn('tweet_id', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('x_stream_matches_pk', ['rule_key', 'sort_key'])
    .execute();
  await db.schema
    .createTable('x_stream_state')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('alive_at', 'bigint')
    .addColumn('last_error', 'text')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('x_stream_state').execute();
  await db.schema.dropTable('x_stream_matches').execute();
  await db.schema.dropTable('x_stream_posts').execute();
}
