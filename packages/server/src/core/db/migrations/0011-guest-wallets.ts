import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * Accountless guest wallets (spec 5.5): a wallet holds its credits on an account of its own that nobody
 * signs in to, and is used with its guest key (stored as a hash). Each purchase is a local checkout; the
 * purchase row also keeps the answer of its `Idempotency-Key` (24 hours) so a retried request gets it again.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('guest_wallets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('guest_purchases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('wallet_id', 'text', (c) => c.notNull().references('guest_wallets.id').onDelete('cascade'))
    .addColumn('checkout_id', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('credits', 'bigint', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('guest_purchases_wallet')
    .on('guest_purchases')
    .columns(['wallet_id', 'created_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('guest_purchases').execute();
  await db.schema.dropTable('guest_wallets').execute();
}
