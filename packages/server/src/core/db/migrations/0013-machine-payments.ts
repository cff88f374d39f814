import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * Machine payments (spec 5.4) on the simulated platform's local payment network: one row per paid
 * challenge. `settled_at` is set once, by the request that spends the payment, so a replayed credential
 * finds it settled and is refused.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('mpp_payments')
    .addColumn('reference', 'text', (c) => c.primaryKey())
    .addColumn('challenge_id', 'text', (c) => c.notNull().unique())
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'bigint', (c) => c.notNull())
    .addColumn('settled_at', 'bigint')
    .addColumn('settled_operation', 'text')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('mpp_payments').execute();
}
