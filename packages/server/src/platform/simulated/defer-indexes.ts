import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../core/db/lists.js';
import type { Database } from '../../core/db/schema.js';

interface IndexDef {
  name: string;
  definition: string;
}

/**
 * Runs a bulk load with the secondary indexes of the sim_* tables dropped, then creates them again from
 * their own stored definitions (so the migrations stay the one place they are declared). Building an index
 * once over loaded rows is several times faster than maintaining it row by row. Primary keys and unique
 * constraints stay; `onIndexed` hears each index rebuilt. Call it inside a transaction: on both engines the
 * DDL is transactional. Meanwhile SQLite gets a 256 MiB page cache and Postgres more sort memory for the
 * index builds.
 */
export async function withIndexesDeferred<T>(
  db: Kysely<Database>,
  load: () => Promise<T>,
  onIndexed: (done: number, total: number) => void = () => {},
): Promise<T> {
  const postgres = isPostgres(db);
  const indexes = postgres ? await pgIndexes(db) : await sqliteIndexes(db);
  const cacheSize = postgres ? undefined : await sqliteCacheSize(db);
  if (cacheSize !== undefined) await sql.raw('pragma cache_size = -262144').execute(db);
  if (postgres) {
    // Transaction-scoped: more memory to sort index keys, no wait for the WAL flush at commit.
    await sql.raw(`set local maintenance_work_mem = '256MB'`).execute(db);
    await sql.raw('set local synchronous_commit = off').execute(db);
  }
  try {
    for (const idx of indexes) await sql`drop index ${sql.id(idx.name)}`.execute(db);
    const result = await load();
    for (const [n, idx] of indexes.entries()) {
      await sql.raw(idx.definition).execute(db);
      onIndexed(n + 1, indexes.length);
    }
    return result;
  } finally {
    if (cacheSize !== undefined) await sql.raw(`pragma cache_size = ${Math.trunc(cacheSize)}`).execute(db);
  }
}

async function sqliteIndexes(db: Kysely<Database>): Promise<IndexDef[]> {
  const { rows } = await sql<{ name: string; sql: string | null }>`
    select name, sql from sqlite_master where type = 'index' and tbl_name like 'sim\\_%' escape '\\'
  `.execute(db);
  return rows.flatMap((r) => (r.sql ? [{ name: r.name, definition: r.sql }] : []));
}

async function pgIndexes(db: Kysely<Database>): Promise<IndexDef[]> {
  const { rows } = await sql<{ name: string; definition: string }>`
    select i.indexname as name, i.indexdef as definition
    from pg_indexes i
    where i.schemaname = current_schema() and i.tablename like 'sim\\_%'
      and not exists (
        select 1 from pg_constraint c
        join pg_namespace n on n.oid = c.connamespace
        where c.conname = i.indexname and n.nspname = i.schemaname
      )
  `.execute(db);
  return rows;
}

async function sqliteCacheSize(db: Kysely<Database>): Promise<number | undefined> {
  const { rows } = await sql<{ cache_size: number | bigint }>`pragma cache_size`.execute(db);
  const v = rows[0]?.cache_size;
  return v === undefined ? undefined : Number(v);
}
