import { randomBytes } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { XsvcServer } from '../../src/app/app.js';
import { bootstrapOwner } from '../../src/app/bootstrap.js';
import { createServer } from '../../src/app/server.js';
import { ManualClock } from '../../src/core/clock.js';
import { type Config, type ConfigInput, parseConfig } from '../../src/core/config.js';
import { type Db, openDatabase } from '../../src/core/db/database.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';

/** Postgres on the machine (trust auth, database `test`). */
export const PG_URL = process.env.XSVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Which engines the storage-dependent suites run on. */
export const ENGINES = ['sqlite', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

/** A database for one test file: in-memory SQLite, or a fresh Postgres schema dropped at close. */
export async function testDatabase(engine: Engine): Promise<{ database: Db; drop: () => Promise<void> }> {
  if (engine === 'sqlite') {
    const database = await openDatabase(':memory:');
    return { database, drop: () => database.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const database = await openDatabase(PG_URL, { pgSchema: schema, poolSize: 4 });
  return {
    database,
    drop: async () => {
      await database.close();
      const admin = await openDatabase(PG_URL, { poolSize: 1 });
      const { sql } = await import('kysely');
      await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(admin.db);
      await admin.close();
    },
  };
}

/**
 * A migrated {@link testDatabase} for the tests of the enclosing `describe`: opened and migrated before them
 * (`beforeAll`), dropped after them (`afterAll`). Returns an accessor of the database, valid in the tests and
 * in hooks declared after this call.
 */
export function useMigratedDatabase(engine: Engine): () => Db {
  let current: Awaited<ReturnType<typeof testDatabase>> | undefined;
  beforeAll(async () => {
    current = await testDatabase(engine);
    await migrateToLatest(current.database);
  });
  afterAll(async () => {
    const drop = current?.drop;
    current = undefined;
    await drop?.();
  });
  return () => {
    if (!current) throw new Error('no test database: use it inside a test or a hook declared after it');
    return current.database;
  };
}

/** The column names of `table` in the test database (SQLite's pragma, or Postgres's information schema). */
export async function tableColumns(database: Db, table: string): Promise<string[]> {
  const { sql } = await import('kysely');
  if (database.dialect === 'sqlite') {
    const r = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(database.db);
    return r.rows.map((c) => c.name);
  }
  const r = await sql<{ name: string }>`
    select column_name as name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}`.execute(database.db);
  return r.rows.map((c) => c.name);
}

/** Sends a request to a test server; `key: null` sends no credential. */
export type TestRequest = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  opts?: { key?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: string },
  // biome-ignore lint/suspicious/noExplicitAny: answers are JSON checked field by field by the assertions
) => Promise<{ status: number; body: any; headers: OutgoingHttpHeaders }>;

/**
 * The request function of a test server: sends through `app.inject` (no socket) with `key` as `x-api-key`
 * unless the call names another key (`null`: none). A `body` goes as JSON; a `rawBody` as it is (typed JSON
 * unless the headers say otherwise). An answer's body is parsed when it is JSON.
 */
export function injector(app: FastifyInstance, key: string): TestRequest {
  return async (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    const k = opts.key === undefined ? key : opts.key;
    if (k) headers['x-api-key'] = k;
    let payload: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    } else if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const res = await app.inject({
      method,
      url,
      headers,
      ...(payload !== undefined && { payload }),
    });
    let body: unknown = res.body;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.statusCode, body, headers: res.headers };
  };
}

/**
 * A JSON call to a listening server over real HTTP, as `key` (`x-api-key`); `origin()` is read at each call
 * (the port is known once the server listens). The answer's body is parsed when there is one.
 */
export function httpCaller(origin: () => string, key: string) {
  // biome-ignore lint/suspicious/noExplicitAny: answers are JSON checked field by field by the assertions
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${origin()}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/**
 * The {@link TestServer} of a built server: creates the owner with a fresh API key (as a first start with
 * `bootstrapApiKey` set does), sends requests through `inject` as that owner, and on close closes the server,
 * then calls `drop` (which removes its database). Also returns the owner's account id.
 */
export async function asTestServer(
  server: XsvcServer,
  cfg: Config,
  clock: ManualClock,
  drop: () => Promise<void>,
): Promise<TestServer & { accountId: string }> {
  const key = `svc_${randomBytes(32).toString('hex')}`;
  const boot = await bootstrapOwner(server.services.database, { ...cfg, bootstrapApiKey: key }, clock.now());
  return {
    server,
    clock,
    key,
    accountId: boot.accountId,
    request: injector(server.app, key),
    async close() {
      await server.close();
      await drop();
    },
  };
}

/** A running test server (not listening: requests go through `inject`). */
export interface TestServer {
  server: XsvcServer;
  clock: ManualClock;
  /** The owner's API key. */
  key: string;
  /** Sends a request as the owner (or as `opts.key`). */
  request: TestRequest;
  close(): Promise<void>;
}

/** Builds a server on a tiny simulated network with an owner key, for one test file. */
export async function startTestServer(
  engine: Engine = 'sqlite',
  config: Partial<ConfigInput> = {},
): Promise<TestServer> {
  const clock = new ManualClock();
  const { database, drop } = await testDatabase(engine);
  const cfg = parseConfig({
    logLevel: 'silent',
    seedSize: 'tiny',
    keyFile: '',
    secretKeyFile: '',
    trustProxy: true,
    ...config,
  });
  const server = await createServer(cfg, { database, clock, validateResponses: true });
  return asTestServer(server, cfg, clock, drop);
}

/** The id of the server owner's account (the account the bootstrap key belongs to). */
export async function ownerAccountId(server: XsvcServer): Promise<string> {
  const row = await server.services.database.db
    .selectFrom('accounts')
    .select('id')
    .where('is_owner', '=', 1)
    .executeTakeFirstOrThrow();
  return row.id;
}
