import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

/** Which SQL engine a database runs on; the few dialect-specific statements branch on it. */
export type DialectName = 'sqlite' | 'postgres';

/** An open database: the Kysely handle, its dialect and a way to close it. */
export interface Db {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  close(): Promise<void>;
}

// int8 (bigint) columns come back as BigInt on Postgres, as they do on SQLite with safe integers, so credit
// balances beyond 2^53 keep every digit on both engines.
pg.types.setTypeParser(20, (v) => BigInt(v));

/** Options of {@link openDatabase}. */
export interface OpenOptions {
  /** Postgres schema to use (tests give each run its own). Created when missing. */
  pgSchema?: string;
  /** Pool size on Postgres. */
  poolSize?: number;
}

/**
 * Opens the database named by `url`: `postgres://…` (or `postgresql://…`) selects Postgres, anything else is
 * a SQLite file (created with its folder; WAL mode) or `:memory:`.
 */
export async function openDatabase(url: string, options: OpenOptions = {}): Promise<Db> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const schema = options.pgSchema;
    if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
      throw new TypeError(`invalid schema name: ${schema}`);
    if (schema) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await c.end();
    }
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      ...(schema && { options: `-c search_path=${schema}` }),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  if (url !== ':memory:') mkdirSync(dirname(url), { recursive: true });
  const sqlite = new SQLite(url);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.defaultSafeIntegers(true);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** A JS number from an integer column (BigInt on both engines for int8, number for int4 on Postgres). */
export function num(v: bigint | number | string | null | undefined): number {
  return v === null || v === undefined ? 0 : Number(v);
}

/** A BigInt from an integer column. */
export function big(v: bigint | number | string | null | undefined): bigint {
  return v === null || v === undefined ? 0n : BigInt(v);
}

/**
 * Kysely prepares every query anew; on SQLite, preparing costs as much as running a simple query. This keeps
 * prepared statements by SQL text (bounded). Safe because the driver runs each statement to completion
 * synchronously (`all`/`run`) before another can use it.
 */
function cachedStatements(sqlite: SQLite.Database, max = 1_000) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SQLite.Statement {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}
