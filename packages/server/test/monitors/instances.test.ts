import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSimUser,
  type MonitorTestServer,
  newStore,
  postTweet,
  startMonitorServer,
  type TestStore,
} from './helpers.js';

const USERS = 8;

describe('two server instances on one Postgres schema', () => {
  let store: TestStore;
  let a: MonitorTestServer;
  let b: MonitorTestServer;
  const monitors: string[] = [];

  beforeAll(async () => {
    store = newStore('postgres');
    a = await startMonitorServer(store, { ownsStore: false });
    b = await startMonitorServer(store, { ownsStore: false });
    for (let i = 0; i < USERS; i++) {
      await createSimUser(a, { username: `inst_${i}` });
      const r = await a.request('POST', '/api/v1/monitors', {
        body: { username: `inst_${i}`, eventTypes: ['tweet.new', 'tweet.hashtag'] },
      });
      expect(r.status).toBe(201);
      monitors.push(r.body.id);
    }
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store?.drop();
  });

  /** One check on each instance at the same time; both clocks move on by a second. */
  async function round() {
    const [ra, rb] = await Promise.all([a.check(), b.check()]);
    return { a: ra, b: rb };
  }

  async function eventRows() {
    return a.server.services.database.db
      .selectFrom('events')
      .select(['monitor_id', 'event_type', 'payload', 'dedupe_key'])
      .where('monitor_id', 'is not', null)
      .execute();
  }

  it('splits the shards between the instances and checks each monitor on one of them only', async () => {
    await round();
    await round();
    const { a: ra, b: rb } = await round();
    expect(a.engine.shards.length).toBe(32);
    expect(b.engine.shards.length).toBe(32);
    expect(a.engine.shards.filter((s) => b.engine.shards.includes(s))).toEqual([]);
    expect(ra.accounts.monitors + rb.accounts.monitors).toBe(USERS);
    expect(ra.accounts.monitors).toBeGreaterThan(0);
    expect(rb.accounts.monitors).toBeGreaterThan(0);
  });

  it('stores every event exactly once while both instances check concurrently', async () => {
    const posted: string[] = [];
    for (let r = 0; r < 3; r++) {
      for (let i = 0; i < USERS; i++) {
        // Tweets go in through both instances' control endpoints.
        const via = i % 2 === 0 ? a : b;
        posted.push((await postTweet(via, { author: `inst_${i}`, text: `round ${r} #r${r}` })).id);
      }
      await round();
    }
    await round();
    const rows = await eventRows();
    expect(rows).toHaveLength(posted.length * 2);
    const keys = rows.map((r) => `${r.monitor_id}:${JSON.parse(r.payload).data.id}:${r.event_type}`);
    expect(new Set(keys).size).toBe(keys.length);
    const tweetIds = new Set(rows.map((r) => JSON.parse(r.payload).data.id));
    expect(tweetIds).toEqual(new Set(posted));
  });

  it('takes over the shards of an instance that stops, without losing or repeating events', async () => {
    await a.engine.stop();
    const before = (await eventRows()).length;
    const posted: string[] = [];
    for (let i = 0; i < USERS; i++)
      posted.push((await postTweet(b, { author: `inst_${i}`, text: 'after a stop' })).id);
    const report = await b.check();
    expect(b.engine.shards.length).toBe(64);
    expect(report.accounts.monitors).toBe(USERS);
    await b.check();
    const rows = await eventRows();
    expect(rows.length - before).toBe(USERS);
    const keys = rows.map((r) => r.dedupe_key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
