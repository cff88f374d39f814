import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * Composition (spec 2.9, 2.15, 4.9) and support tickets (spec 2.14, 4.14).
 *
 * - `styles`: one cached writing style per account and username (analyzed from the platform or saved from
 *   custom tweets); the sample tweets are a JSON array, `fetched_at` drives the 7-day freshness.
 * - `drafts`: saved post drafts; ids sort by creation, so a page is a keyset on `id`.
 * - `radar_items`: the radar feed, seeded once per database from the configured seed (deterministic);
 *   `score_centi` is the trend strength times 100, `metadata` the source's fields as JSON.
 * - `support_tickets`, `support_messages`, `support_attachments`: tickets, their conversation and the files
 *   attached to messages (stored base64 in the database, so every engine and instance serves them).
 * - `support_idempotency`: the first receipt of a create or reply per `Idempotency-Key`, with a hash of the
 *   request, so a repeat answers the same receipt and another body under the same key is refused.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('styles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('username_lower', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('tweets', 'text', (c) => c.notNull())
    .addColumn('tweet_count', 'bigint', (c) => c.notNull())
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('styles_account_username', ['account_id', 'username_lower'])
    .execute();

  await db.schema
    .createTable('drafts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('topic', 'text')
    .addColumn('goal', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('drafts_account').on('drafts').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('radar_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('score_centi', 'bigint', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('radar_items_rank').on('radar_items').columns(['score_centi', 'id']).execute();

  await db.schema
    .createTable('support_tickets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('message_count', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('support_tickets_account')
    .on('support_tickets')
    .columns(['account_id', 'updated_at'])
    .execute();

  await db.schema
    .createTable('support_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ticket_id', 'text', (c) => c.notNull().references('support_tickets.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('attachment_count', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('support_messages_ticket')
    .on('support_messages')
    .columns(['ticket_id', 'id'])
    .execute();
  await db.schema
    .createIndex('support_messages_account')
    .on('support_messages')
    .columns(['account_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('support_attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) => c.notNull().references('support_messages.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('support_attachments_message')
    .on('support_attachments')
    .columns(['message_id'])
    .execute();
  await db.schema
    .createIndex('support_attachments_account')
    .on('support_attachments')
    .columns(['account_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('support_idempotency')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('receipt', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('support_idempotency_pk', ['account_id', 'key'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('support_idempotency').execute();
  await db.schema.dropTable('support_attachments').execute();
  await db.schema.dropTable('support_messages').execute();
  await db.schema.dropTable('support_tickets').execute();
  await db.schema.dropTable('radar_items').execute();
  await db.schema.dropTable('drafts').execute();
  await db.schema.dropTable('styles').execute();
}
