import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

const COLUMNS = [
  ['procedure', 'text'],
  ['seed', 'text'],
  ['seed_hash', 'text'],
  ['seed_committed_at', 'bigint'],
  ['entries_hash', 'text'],
  ['filters_hash', 'text'],
] as const;

/**
 * Verifiable draws: the procedure a draw's winners follow, its seed, the seed's hash and when it was fixed
 * (before any entry was read), and the hashes of its entry list and request. Null on draws made before.
 * One column per statement: SQLite adds one column per ALTER TABLE.
 */
export async function up(db: AnyDb): Promise<void> {
  for (const [name, type] of COLUMNS) await db.schema.alterTable('draws').addColumn(name, type).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const [name] of COLUMNS) await db.schema.alterTable('draws').dropColumn(name).execute();
}
