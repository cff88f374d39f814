import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * The sanitized payload of a write action (reference `XWriteActionRequest.payload`): the JSON of what was
 * (or will be) sent to the platform. Null on actions stored before it existed.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('write_actions').addColumn('request_payload', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('write_actions').dropColumn('request_payload').execute();
}
