import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * One idempotency store (issue #13): `idempotency_keys` holds the answer of each `Idempotency-Key` per scope
 * (`support:<account>`, `writes:<account>`, `guest-wallets`) with the hash of its request. The keys already
 * used are carried over so their retries still replay: support receipts (and `support_idempotency` is
 * dropped), the actions of durable writes (the answer is the action id) and the sealed answers of guest
 * wallet checkouts (an empty answer where none was kept: such a key only conflicts, as before).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
    .execute();
  await sql`
    insert into idempotency_keys (scope, key, request_hash, answer, created_at)
    select 'support:' || account_id, key, request_hash, receipt, created_at from support_idempotency`.execute(
    db,
  );
  await sql`
    insert into idempotency_keys (scope, key, request_hash, answer, created_at)
    select 'writes:' || account_id, idempotency_key, request_hash, id, created_at from write_actions`.execute(
    db,
  );
  await sql`
    insert into idempotency_keys (scope, key, request_hash, answer, created_at)
    select 'guest-wallets', idempotency_key, request_hash, coalesce(response, ''), created_at
    from guest_purchases`.execute(db);
  await db.schema.dropTable('support_idempotency').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('support_idempotency')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('receipt', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('support_idempotency_pk', ['account_id', 'key'])
    .execute();
  await sql`
    insert into support_idempotency (account_id, key, request_hash, receipt, created_at)
    select substr(scope, 9), key, request_hash, answer, created_at from idempotency_keys
    where scope like 'support:%'`.execute(db);
  await db.schema.dropTable('idempotency_keys').execute();
}
