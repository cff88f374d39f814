import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * Giveaway draws (spec 2.7) with every entry they inspected, and extraction jobs (spec 2.8, 3.2) with their
 * results. A job row is also its own work item: a `running` job holds a lease (`lease_owner`,
 * `lease_until`) while an instance works on it and records where its read stopped (`cursor`), so a job
 * left running by a stopped or crashed server is picked up again and continues where it was.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('draws')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('tweet_id', 'text', (c) => c.notNull())
    .addColumn('tweet_url', 'text', (c) => c.notNull())
    .addColumn('tweet_text', 'text')
    .addColumn('tweet_author_username', 'text')
    .addColumn('tweet_created_at', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total_entries', 'integer', (c) => c.notNull())
    .addColumn('valid_entries', 'integer', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('credits_charged', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('drawn_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('draws_account')
    .on('draws')
    .columns(['account_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('draw_entries')
    .addColumn('draw_id', 'text', (c) => c.notNull().references('draws.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('tweet_id', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('author_username', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('tweet_created_at', 'text', (c) => c.notNull())
    .addColumn('valid', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('winner_position', 'integer')
    .addColumn('is_backup', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('draw_entries_pk', ['draw_id', 'position'])
    .execute();

  await db.schema
    .createTable('extraction_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('tool_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('target_tweet_id', 'text')
    .addColumn('target_username', 'text')
    .addColumn('target_user_id', 'text')
    .addColumn('target_community_id', 'text')
    .addColumn('target_list_id', 'text')
    .addColumn('target_space_id', 'text')
    .addColumn('search_query', 'text')
    .addColumn('results_limit', 'integer')
    .addColumn('total_results', 'integer', (c) => c.notNull())
    .addColumn('cursor', 'text')
    .addColumn('stalled_pages', 'integer', (c) => c.notNull())
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .execute();
  await db.schema
    .createIndex('extraction_jobs_account')
    .on('extraction_jobs')
    .columns(['account_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('extraction_jobs_running')
    .on('extraction_jobs')
    .columns(['status', 'lease_until'])
    .execute();

  await db.schema
    .createTable('extraction_results')
    .addColumn('job_id', 'text', (c) => c.notNull().references('extraction_jobs.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('item_key', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('has_media', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('extraction_results_pk', ['job_id', 'seq'])
    .addUniqueConstraint('extraction_results_item', ['job_id', 'item_key'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('extraction_results').execute();
  await db.schema.dropTable('extraction_jobs').execute();
  await db.schema.dropTable('draw_entries').execute();
  await db.schema.dropTable('draws').execute();
}
