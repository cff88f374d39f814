import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { type Db, openDatabase } from '../../src/core/db/database.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';

/** The Postgres the tests use (trust auth on this machine); override with `XSVC_TEST_PG_URL`. */
export const PG_URL = process.env.XSVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type EngineName = 'sqlite' | 'postgres';

/** Whether Postgres answers; the Postgres half of a suite is skipped (with a note) when it does not. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    console.warn(`Postgres is not reachable at ${PG_URL}: its tests are skipped`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A migrated, empty database: SQLite in memory, or a fresh Postgres schema dropped on close. */
export async function openTestDatabase(
  engine: EngineName,
  file = ':memory:',
): Promise<{ db: Db; close(): Promise<void> }> {
  if (engine === 'sqlite') {
    const db = await openDatabase(file);
    await migrateToLatest(db);
    return { db, close: () => db.close() };
  }
  const schema = `sim_${randomBytes(6).toString('hex')}`;
  const db = await openDatabase(PG_URL, { pgSchema: schema, poolSize: 4 });
  const close = async () => {
    await sql.raw(`drop schema if exists ${schema} cascade`).execute(db.db);
    await db.close();
  };
  try {
    await migrateToLatest(db);
  } catch (err) {
    await close();
    throw err;
  }
  return { db, close };
}
