import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * Plans that lapse: `plan_renews_at` is the end of the period a subscription checkout paid for (epoch ms).
 * Null on a plan with no period (the accounts made before, the owner's) and on an account that never
 * subscribed (`plan` `none`: `no_subscription`).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('plan_renews_at', 'bigint').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('plan_renews_at').execute();
}
