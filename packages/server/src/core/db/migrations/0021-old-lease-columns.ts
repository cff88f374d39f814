import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * The lease columns the jobs table replaced (migration 0017 moved every lease to `jobs.lease_owner` and
 * `jobs.lease_until`, and left these unused): `webhook_deliveries.lease_*`, `extraction_jobs.lease_*` with
 * their index `extraction_jobs_running`, `coverage_walks.lease_*`, and `monitor_shards.owner` and
 * `lease_expires_at`. Nothing reads them; every delivery, job and walk wrote them as nulls.
 */
type Column = readonly [name: string, type: 'text' | 'bigint'];
const OWNER: Column = ['lease_owner', 'text'];
const UNTIL: Column = ['lease_until', 'bigint'];

/** The columns dropped, each with the type it was created with (for `down`). */
const DROPPED: readonly (readonly [table: string, columns: readonly Column[]])[] = [
  ['webhook_deliveries', [OWNER, UNTIL]],
  ['extraction_jobs', [OWNER, UNTIL]],
  ['coverage_walks', [UNTIL, OWNER]],
  [
    'monitor_shards',
    [
      ['owner', 'text'],
      ['lease_expires_at', 'bigint'],
    ],
  ],
];

export async function up(db: AnyDb): Promise<void> {
  // SQLite drops no column that an index names: the index goes first.
  await db.schema.dropIndex('extraction_jobs_running').ifExists().execute();
  for (const [table, columns] of DROPPED) {
    for (const [column] of columns) await db.schema.alterTable(table).dropColumn(column).execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const [table, columns] of DROPPED) {
    for (const [column, type] of columns) {
      // `monitor_shards.lease_expires_at` was NOT NULL (migration 0004): back with a default for the rows.
      await db.schema
        .alterTable(table)
        .addColumn(column, type, (c) => (column === 'lease_expires_at' ? c.notNull().defaultTo(0) : c))
        .execute();
    }
  }
  await db.schema
    .createIndex('extraction_jobs_running')
    .on('extraction_jobs')
    .columns(['status', 'lease_until'])
    .execute();
}
