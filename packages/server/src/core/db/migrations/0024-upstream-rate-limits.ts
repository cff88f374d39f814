import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * `upstream_rate_limits`: the rate limits the X API last reported per endpoint (its `x-rate-limit-*`
 * headers), so that every instance on one database paces its monitor checks by the same budget.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('upstream_rate_limits')
    .addColumn('endpoint', 'text', (c) => c.primaryKey())
    .addColumn('max_requests', 'bigint', (c) => c.notNull())
    .addColumn('remaining', 'bigint', (c) => c.notNull())
    .addColumn('reset_at', 'bigint', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('upstream_rate_limits').execute();
}
