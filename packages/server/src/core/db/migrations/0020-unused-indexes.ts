import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * Two indexes no query reads, which every write paid for (a webhook delivery writes both tables):
 * - `webhook_deliveries_due` (on `next_attempt_at`) served the delivery engine's own polling, which the jobs
 *   engine replaced (migration 0017: a delivery's schedule is its job's `run_at`);
 * - `jobs_kind_key` (unique `kind, key`) repeats the primary key: a keyed job's id is `kind:key`, and every
 *   lookup goes by id.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_due').ifExists().execute();
  await db.schema.dropIndex('jobs_kind_key').ifExists().execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['next_attempt_at'])
    .execute();
  await db.schema.createIndex('jobs_kind_key').on('jobs').columns(['kind', 'key']).unique().execute();
}
