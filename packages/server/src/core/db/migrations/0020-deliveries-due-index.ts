import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * `webhook_deliveries_due` (on `next_attempt_at`) served the delivery engine's own polling, which the jobs
 * engine replaced (migration 0017: a delivery's schedule is its job's `run_at`). No query reads it any more,
 * and every delivery's insert and every attempt's update paid for it: dropped.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_due').ifExists().execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['next_attempt_at'])
    .execute();
}
