import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMING } from '../../src/features/monitors/engine/timing.js';
import {
  createSimUser,
  eventsOf,
  type MonitorTestServer,
  newStore,
  postTweet,
  startMonitorServer,
  type TestStore,
} from '../monitors/helpers.js';

async function watch(t: MonitorTestServer, username: string): Promise<string> {
  const r = await t.request('POST', '/api/v1/monitors', { body: { username, eventTypes: ['tweet.new'] } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}

async function heldBy(t: MonitorTestServer, owner: string): Promise<number> {
  const rows = await t.server.services.database.db
    .selectFrom('jobs')
    .select('key')
    .where('kind', '=', 'monitor.shard')
    .where('lease_owner', '=', owner)
    .execute();
  return rows.length;
}

describe('monitor shard leases after a crash', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('SQLite: the first check of a new process frees the leases a killed one left, and sees new events at once', async () => {
    const t = await startMonitorServer('sqlite');
    cleanups.push(() => t.close());
    await createSimUser(t, { username: 'lease_sq' });
    const id = await watch(t, 'lease_sq');
    // A process killed with -9 a moment ago: its heartbeat is fresh and it holds every shard for a while.
    const { db } = t.server.services.database;
    const now = t.clock.now();
    await db.insertInto('monitor_engines').values({ id: 'dead-process', seen_at: now }).execute();
    await db
      .updateTable('jobs')
      .set({ lease_owner: 'dead-process', lease_until: now + 60_000 })
      .where('kind', 'in', ['monitor.shard', 'monitor.billing'])
      .execute();
    const tweet = await postTweet(t, { author: 'lease_sq', text: 'after the crash' });
    const report = await t.check();
    expect(report.shards).toBe(64);
    expect(report.accounts.events).toBe(1);
    expect((await eventsOf(t, id)).map((e) => e.data.id)).toEqual([tweet.id]);
    expect(await heldBy(t, 'dead-process')).toBe(0);
    const engines = await db.selectFrom('monitor_engines').select('id').execute();
    expect(engines.map((e) => e.id)).toEqual([t.engine.id]);
  });

  it('Postgres: a surviving instance takes over the shards of a dead one within a few check intervals', async () => {
    const store: TestStore = newStore('postgres');
    const a = await startMonitorServer(store, { ownsStore: false });
    const b = await startMonitorServer(store, { ownsStore: false });
    cleanups.push(async () => {
      await a.close();
      await b.close();
      await store.drop();
    });
    const users = ['lease_pg_0', 'lease_pg_1', 'lease_pg_2', 'lease_pg_3', 'lease_pg_4', 'lease_pg_5'];
    const monitors: string[] = [];
    for (const u of users) {
      await createSimUser(a, { username: u });
      monitors.push(await watch(a, u));
    }
    // Both instances share the shards, then `a` dies: it stops checking and never hands anything back.
    for (let i = 0; i < 3; i++) await Promise.all([a.check(), b.check()]);
    expect(a.engine.shards.length).toBe(32);
    expect(b.engine.shards.length).toBe(32);
    b.clock.set(Math.max(a.clock.now(), b.clock.now()));
    const posted = [];
    for (const u of users) posted.push((await postTweet(b, { author: u, text: 'while a is dead' })).id);
    let checks = 0;
    while (b.engine.shards.length < 64 && checks < 20) {
      await b.check();
      checks++;
    }
    expect(b.engine.shards.length).toBe(64);
    // The lease (renewed every check) bounds the takeover: about leaseMs / intervalMs checks, plus one.
    expect(checks).toBeLessThanOrEqual(Math.ceil(DEFAULT_TIMING.leaseMs / DEFAULT_TIMING.intervalMs) + 2);
    expect(checks).toBeLessThanOrEqual(5);
    await b.check();
    const seen = new Set<string>();
    for (const m of monitors) for (const e of await eventsOf(b, m)) seen.add(e.data.id);
    for (const p of posted) expect(seen).toContain(p);
    expect(await heldBy(b, a.engine.id)).toBe(0);
  });
});
