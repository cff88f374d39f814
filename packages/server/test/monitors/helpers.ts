import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { createServer } from '../../src/app/server.js';
import { createAccount, createApiKey } from '../../src/core/auth/accounts.js';
import { ManualClock } from '../../src/core/clock.js';
import { parseConfig } from '../../src/core/config.js';
import { type Db, openDatabase } from '../../src/core/db/database.js';
import type { CheckReport, MonitorEngine } from '../../src/features/monitors/engine/engine.js';
import { monitorEngineOf } from '../../src/features/monitors/feature.js';
import { asTestServer, type Engine, PG_URL, type TestServer } from '../helpers/server.js';

/** A JSON answer or event, checked field by field by the assertions. */
// biome-ignore lint/suspicious/noExplicitAny: answers are JSON checked field by field by the assertions
export type Json = any;

/** A server with its check engine not started: tests move the clock and call `check()`. */
export interface MonitorTestServer extends TestServer {
  engine: MonitorEngine;
  /** Moves the clock on by `ms` (default one check interval) and runs one check. */
  check(ms?: number): Promise<CheckReport>;
  /** A key of a new non-owner account with `credits`. */
  otherAccount(credits?: bigint): Promise<{ accountId: string; key: string }>;
}

/** Where a test's database lives: an in-memory SQLite, or a Postgres schema several servers may share. */
export interface TestStore {
  engine: Engine;
  /** The Postgres schema (Postgres only). */
  schema?: string;
  drop(): Promise<void>;
}

/** A fresh store: SQLite in memory is per server, a Postgres schema is shared by every server on it. */
export function newStore(engine: Engine): TestStore {
  if (engine === 'sqlite') return { engine, drop: async () => undefined };
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return {
    engine,
    schema,
    drop: async () => {
      const admin = await openDatabase(PG_URL, { poolSize: 1 });
      await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(admin.db);
      await admin.close();
    },
  };
}

async function open(store: TestStore): Promise<Db> {
  return store.engine === 'sqlite'
    ? openDatabase(':memory:')
    : openDatabase(PG_URL, { pgSchema: store.schema as string, poolSize: 4 });
}

/**
 * Starts a server on a tiny simulated network with a manual clock and the engine not auto-started. With a
 * shared Postgres `store`, several servers are instances of one deployment; `start` sets their clock.
 */
export async function startMonitorServer(
  engine: Engine | TestStore,
  opts: { start?: number; ownsStore?: boolean } = {},
): Promise<MonitorTestServer> {
  const store = typeof engine === 'string' ? newStore(engine) : engine;
  const ownsStore = opts.ownsStore ?? typeof engine === 'string';
  const clock = new ManualClock(opts.start);
  const database = await open(store);
  const cfg = parseConfig({ logLevel: 'silent', seedSize: 'tiny', keyFile: '' });
  const server = await createServer(cfg, {
    database,
    clock,
    validateResponses: true,
    monitors: { autoStart: false },
  });
  const monitorEngine = monitorEngineOf(server.app);
  if (!monitorEngine) throw new Error('the monitors feature is not mounted');
  const base = await asTestServer(server, cfg, clock, async () => {
    await database.close();
    if (ownsStore) await store.drop();
  });
  return {
    ...base,
    engine: monitorEngine,
    async check(ms = 1_000) {
      clock.advance(ms);
      return monitorEngine.checkOnce();
    },
    async otherAccount(credits = 1_000n) {
      const db = database.db;
      const account = await createAccount(db, {
        email: `${randomBytes(4).toString('hex')}@example.com`,
        isOwner: false,
        credits,
        now: clock.now(),
      });
      const created = await createApiKey(db, { accountId: account.id, name: 'other', now: clock.now() });
      return { accountId: account.id, key: created.fullKey };
    },
  };
}

/** Posts a tweet through the simulated platform's control endpoint and returns it. */
export async function postTweet(t: MonitorTestServer, body: Record<string, unknown>): Promise<Json> {
  const r = await t.request('POST', '/sim/tweets', { body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

/** Creates a simulated account and returns its profile. */
export async function createSimUser(t: MonitorTestServer, body: Record<string, unknown>): Promise<Json> {
  const r = await t.request('POST', '/sim/users', { body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

/** Changes a simulated account's profile. */
export async function patchSimUser(
  t: MonitorTestServer,
  username: string,
  body: Record<string, unknown>,
): Promise<Json> {
  const r = await t.request('PATCH', `/sim/users/${username}`, { body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** Every event of a monitor, oldest first, read through `GET /api/v1/events` page by page. */
export async function eventsOf(t: MonitorTestServer, monitorId: string, key?: string): Promise<Json[]> {
  const out: Json[] = [];
  let after: string | undefined;
  for (;;) {
    const q = new URLSearchParams({ monitorId, limit: '100', ...(after && { after }) });
    const r = await t.request('GET', `/api/v1/events?${q}`, key ? { key } : {});
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    out.push(...r.body.events);
    if (!r.body.hasMore) break;
    after = r.body.nextCursor;
  }
  return out.reverse();
}
