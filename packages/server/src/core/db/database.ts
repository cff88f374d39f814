import { accessSync, constants, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { BoundedCache } from '../bounded-cache.js';
import { GuardedSqliteDialect } from './guarded-sqlite-dialect.js';
import type { Database } from './schema.js';
import { startWalCheckpointer } from './wal-checkpointer.js';

/** Which SQL engine a database runs on; the few dialect-specific statements branch on it. */
export type DialectName = 'sqlite' | 'postgres';

/** An open database: the Kysely handle, its dialect and a way to close it. */
export interface Db {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /** The SQLite handle, for the few hot paths that run synchronous prepared statements (SQLite only). */
  readonly sqlite?: SQLite.Database;
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
  /** SQLite file: checkpoint the WAL from a worker thread, off the event loop (default true; see wal-checkpointer). */
  backgroundCheckpoints?: boolean;
  /**
   * Where the Postgres pool reports a connection it lost while idle (the backend was terminated, the server
   * restarted): the pool drops it and opens a new one on the next query. Default: nowhere.
   */
  onConnectionLost?: (err: Error) => void;
}

/**
 * The database named at start cannot be used: a file that cannot be opened or written, a server that does
 * not answer. `xsvc-server` prints its one-line message and exits 2, as for a bad setting.
 */
export class DatabaseOpenError extends Error {
  override readonly name = 'DatabaseOpenError';
}

/** How long a query waits for a pooled Postgres connection (a new one or a free one) before it fails. */
export const PG_CONNECT_TIMEOUT_MS = 5_000;

/**
 * Opens the database named by `url`: `postgres://…` (or `postgresql://…`) selects Postgres, anything else is
 * a SQLite file (created with its folder; WAL mode, checkpointed by a worker thread: `startWalCheckpointer`)
 * or `:memory:`.
 */
export async function openDatabase(url: string, options: OpenOptions = {}): Promise<Db> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const schema = options.pgSchema;
    if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
      throw new TypeError(`invalid schema name: ${schema}`);
    if (schema) {
      const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS });
      // A client's socket error with no query running is emitted, not thrown: without a listener it
      // would end the process.
      c.on('error', () => undefined);
      try {
        await c.connect();
        await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      } finally {
        await c.end().catch(() => undefined);
      }
    }
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      // TCP keep-alive notices a peer that vanished (a failover, a dropped network) on an idle connection.
      keepAlive: true,
      ...(schema && { options: `-c search_path=${schema}` }),
    });
    watchPool(pool, options.onConnectionLost);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const sqlite = openSqliteFile(url);
  const db = new Kysely<Database>({
    dialect: new GuardedSqliteDialect(sqlite, { database: cachedStatements(sqlite) }),
  });
  handles.set(db, sqlite);
  const checkpointer =
    url !== ':memory:' && url !== '' && options.backgroundCheckpoints !== false
      ? startWalCheckpointer(sqlite, url)
      : undefined;
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * Keeps a lost connection from ending the process. The pool emits `error` for an idle client whose backend
 * went away (pg_terminate_backend, a restart, a failover) and drops it; a client checked out between two
 * statements of a transaction emits `error` itself (its next query then fails, and the pool drops it on
 * release). Both are reported, never thrown; the next query opens a new connection.
 */
function watchPool(pool: pg.Pool, onLost: ((err: Error) => void) | undefined): void {
  const report = (err: Error) => onLost?.(err);
  pool.on('error', report);
  pool.on('connect', (client) => {
    client.on('error', report);
  });
}

/**
 * Opens a SQLite file (its folder created) or `:memory:` with the server's pragmas, and checks that it can
 * be written: a file that cannot be opened, is read-only or sits on a full disk fails here with a
 * {@link DatabaseOpenError} naming it and the cause, not later with a stack trace.
 */
function openSqliteFile(url: string): SQLite.Database {
  let sqlite: SQLite.Database | undefined;
  try {
    if (url !== ':memory:') mkdirSync(dirname(url), { recursive: true });
    sqlite = new SQLite(url);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    sqlite.defaultSafeIntegers(true);
    // A write lock and a write: SQLite opens a file it may not write read-only without a word, and only a
    // write tells. `user_version` is not used by the migrations (Kysely keeps its own tables).
    const version = sqlite.pragma('user_version', { simple: true });
    sqlite.pragma(`user_version = ${Number(version)}`);
    return sqlite;
  } catch (err) {
    sqlite?.close();
    throw new DatabaseOpenError(`cannot use the database file ${url}: ${openFailure(url, err)}`, {
      cause: err,
    });
  }
}

/**
 * Why `url` could not be opened, in a few words. SQLite says "unable to open database file" for a file on
 * a read-only file system (it cannot create the WAL's shared-memory file beside it): the file system's own
 * refusal, when it has one, says more.
 */
function openFailure(url: string, err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const own = e.code && !e.message.startsWith(e.code) ? `${e.code}: ${e.message}` : e.message;
  if (!e.code?.startsWith('SQLITE_CANTOPEN') && !e.code?.startsWith('SQLITE_READONLY')) return own;
  for (const path of [url, dirname(url)]) {
    try {
      accessSync(path, constants.W_OK);
    } catch (denied) {
      const d = denied as NodeJS.ErrnoException;
      if (d.code !== 'ENOENT') return `${own} (${d.code === 'EROFS' ? 'read-only file system' : d.message})`;
    }
  }
  return own;
}

/** The SQLite handle behind each Kysely instance {@link openDatabase} made (not its transactions). */
const handles = new WeakMap<Kysely<Database>, SQLite.Database>();

/**
 * The SQLite handle behind `db`, when synchronous prepared statements may run on it now: `db` is a SQLite
 * database opened by {@link openDatabase} (not a transaction's handle, not Postgres) and no transaction is
 * open on its connection. A Kysely transaction awaits between its statements; a statement run meanwhile
 * would join it (see its uncommitted rows, or be rolled back with it), so callers then take the Kysely
 * path, which waits for the transaction to end. Hot reads use this to skip building and compiling a query.
 */
export function syncSqlite(db: Kysely<Database>): SQLite.Database | undefined {
  const sqlite = handles.get(db);
  return sqlite && !sqlite.inTransaction ? sqlite : undefined;
}

/**
 * A prepared statement for `sql` on `sqlite`, from the same bounded cache the Kysely driver uses. Safe to
 * share: every use runs the statement to completion synchronously (`get`/`all`/`run`, never `iterate`).
 */
export function prepared(sqlite: SQLite.Database, sql: string): SQLite.Statement {
  return cachedStatement(sqlite, sql);
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
function cachedStatements(sqlite: SQLite.Database): {
  close(): void;
  prepare(sql: string): SQLite.Statement;
} {
  return { close: () => sqlite.close(), prepare: (sql) => cachedStatement(sqlite, sql) };
}

/** A set of tables whose writes are counted, and the count. */
interface WriteWatch {
  readonly pattern: RegExp;
  stamp: number;
}

const watches = new WeakMap<SQLite.Database, WriteWatch[]>();
const READ_ONLY = /^\s*select\b/i;

/**
 * A counter of the statements that may write any of `tables`, for in-process caches of rows of those tables
 * on SQLite: a cached value read at stamp `n` is still the stored one while the stamp is `n`. Every statement
 * run through Kysely or {@link prepared} on this database counts (before it runs) when it is not a `select`
 * and names one of the tables, whether or not it changes a row: a cheap, conservative test. Statements
 * prepared on the raw handle are not seen. `undefined` on Postgres, where other server instances write too,
 * and for a transaction's handle.
 */
export function writeStamp(db: Kysely<Database>, tables: readonly string[]): (() => number) | undefined {
  const sqlite = handles.get(db);
  if (!sqlite || tables.some((t) => !/^\w+$/.test(t))) return undefined;
  const watch: WriteWatch = { pattern: new RegExp(`\\b(?:${tables.join('|')})\\b`, 'i'), stamp: 0 };
  const list = watches.get(sqlite) ?? [];
  list.push(watch);
  watches.set(sqlite, list);
  return () => watch.stamp;
}

/** Counts `sql` against the write watches of `sqlite` (see {@link writeStamp}). */
function countWrite(sqlite: SQLite.Database, sql: string): void {
  const list = watches.get(sqlite);
  if (!list || READ_ONLY.test(sql)) return;
  for (const w of list) if (w.pattern.test(sql)) w.stamp++;
}

const statements = new BoundedCache<SQLite.Database, SQLite.Statement>(1_000);

/** `sql` prepared on `sqlite`, from the handle's bounded cache (the oldest-prepared statement goes first). */
function cachedStatement(sqlite: SQLite.Database, sql: string): SQLite.Statement {
  countWrite(sqlite, sql);
  return statements.get(sqlite, sql, () => sqlite.prepare(sql));
}
