import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../core/db/lists.js';
import type { Database } from '../../core/db/schema.js';
import { bulkInsert, columnCount, rowCount, SIM_TABLES, type SimData, type SimTable } from './bulk-insert.js';
import { withIndexesDeferred } from './defer-indexes.js';
import { generateNetwork, type SeedOptions } from './seed/generate.js';
import type { SeedSize } from './seed/model.js';
import { type SeedProgressListener, SeedProgressMeter } from './seed-progress.js';

/** The `sim_meta` key recording what the network was seeded with; its presence means "do not reseed". */
export const SEEDED_WITH_KEY = 'seeded_with';

/** What a network was seeded with. */
export interface SeededWith {
  size: SeedSize;
  seed: string;
  /** The seed's present, epoch ms. */
  now: number;
}

/** The outcome of {@link seedNetwork}: what the database holds, and whether this call wrote it. */
export interface SeedReport {
  seededWith: SeededWith;
  /** True when the database was already seeded and nothing was written. */
  skipped: boolean;
  /** Rows written per table (empty when skipped). */
  counts: Partial<Record<SimTable, number>>;
}

/**
 * Fills every sim_* table with a generated network, in one transaction, unless the database was seeded
 * before (then it reports what it holds and writes nothing). Same options, same network, on both engines.
 * `onProgress` hears how far it is (it is not called when nothing is written).
 */
export async function seedNetwork(
  db: Kysely<Database>,
  options: SeedOptions,
  onProgress: SeedProgressListener = () => {},
): Promise<SeedReport> {
  const existing = await readSeededWith(db);
  if (existing) return { seededWith: existing, skipped: true, counts: {} };
  const seededWith: SeededWith = { size: options.size, seed: String(options.seed), now: options.now };
  const meter = new SeedProgressMeter(onProgress);
  meter.generated('users', 0);
  const rows = generateNetwork(options, (step, fraction) => meter.generated(step, fraction));
  meter.willWrite(
    SIM_TABLES.reduce(
      (n, table) => n + rowCount(rows[table] as SimData<typeof table>) * columnCount(table),
      0,
    ),
  );
  const counts: Partial<Record<SimTable, number>> = {};
  try {
    await db.transaction().execute(async (trx) => {
      // Written first: a concurrent seeder (another instance on the same Postgres) waits on this key, then
      // fails on it once the first one commits.
      await trx
        .insertInto('sim_meta')
        .values({ key: SEEDED_WITH_KEY, value: JSON.stringify(seededWith) })
        .execute();
      await withIndexesDeferred(
        trx,
        async () => {
          for (const table of SIM_TABLES) {
            const data = rows[table] as SimData<typeof table>;
            await bulkInsert(trx, table, data, (n) => meter.wrote(n * columnCount(table)));
            counts[table] = rowCount(data);
          }
        },
        (done, total) => meter.indexed(done, total),
      );
    });
  } catch (err) {
    const winner = await readSeededWith(db);
    if (winner) return { seededWith: winner, skipped: true, counts: {} };
    throw err;
  }
  meter.done();
  return { seededWith, skipped: false, counts };
}

/** What the database was seeded with, or `undefined` when it was not. */
export async function readSeededWith(db: Kysely<Database>): Promise<SeededWith | undefined> {
  const row = await db
    .selectFrom('sim_meta')
    .select('value')
    .where('key', '=', SEEDED_WITH_KEY)
    .executeTakeFirst();
  if (!row) return undefined;
  try {
    return JSON.parse(row.value) as SeededWith;
  } catch {
    return undefined;
  }
}

/** Empties every sim_* table (the network and its markers). */
export async function clearNetwork(db: Kysely<Database>): Promise<void> {
  if (isPostgres(db)) {
    await sql`truncate table ${sql.join(SIM_TABLES.map((t) => sql.table(t)))}`.execute(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    for (const table of SIM_TABLES) await trx.deleteFrom(table).execute();
  });
}

export type { SeedPhase, SeedProgress, SeedProgressListener } from './seed-progress.js';
export type { SeedOptions, SeedSize };
