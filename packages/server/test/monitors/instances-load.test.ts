import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/features/monitors/engine/engine.js';
import { accountMonitorRow } from '../../src/features/monitors/monitor-rows.js';
import { blankSimUserRow } from '../../src/platform/simulated/index.js';
import {
  type MonitorTestServer,
  newStore,
  postTweet,
  startMonitorServer,
  type TestStore,
} from './helpers.js';

/**
 * Two instances on one Postgres schema sharing a realistic count of account monitors, with bursts of
 * matching tweets posted through both. `XSVC_TEST_MONITORS` / `XSVC_TEST_TWEETS` raise the counts (for
 * example 100000 monitors for a heavy run); the defaults keep the file well under 30 s on a loaded machine.
 */
const MONITORS = Number(process.env.XSVC_TEST_MONITORS ?? 5_000);
const TWEETS = Number(process.env.XSVC_TEST_TWEETS ?? 1_200);
const BURSTS = 3;
const HEAVY = MONITORS > 10_000;

describe(`two instances on one Postgres schema share ${MONITORS} monitors`, () => {
  let store: TestStore;
  let a: MonitorTestServer;
  let b: MonitorTestServer;
  const usernames: string[] = [];
  const work = { a: { monitors: 0, events: 0 }, b: { monitors: 0, events: 0 } };

  beforeAll(
    async () => {
      store = newStore('postgres');
      a = await startMonitorServer(store, { ownsStore: false });
      b = await startMonitorServer(store, { ownsStore: false });
      const { accountId } = await a.otherAccount(1_000_000n);
      // Seeded straight into the tables: creating thousands through the API would test the API.
      const db = a.server.services.database.db;
      const now = a.clock.now();
      for (let i = 0; i < MONITORS; i += 1_000) {
        const users = [];
        const monitors = [];
        for (let j = i; j < Math.min(MONITORS, i + 1_000); j++) {
          const id = String(9_100_000_000_000_000_000n + BigInt(j));
          const username = `load_${j}`;
          usernames.push(username);
          users.push(blankSimUserRow({ id, username, name: `Load ${j}`, createdAt: now - 86_400_000 }));
          monitors.push(
            accountMonitorRow({
              id: String(8_100_000_000_000_000_000n + BigInt(j)),
              accountId,
              user: { id, username, name: `Load ${j}` },
              eventTypes: ['tweet.new', 'tweet.hashtag'],
              now,
            }),
          );
        }
        await db.insertInto('sim_users').values(users).execute();
        await db.insertInto('monitors').values(monitors).execute();
      }
    },
    HEAVY ? 600_000 : 60_000,
  );
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store?.drop();
  });

  /** One check on each instance at the same time (both clocks move on by a second); tallies their work. */
  async function round(): Promise<{ a: CheckReport; b: CheckReport }> {
    const [ra, rb] = await Promise.all([a.check(), b.check()]);
    for (const [w, r] of [
      [work.a, ra],
      [work.b, rb],
    ] as const) {
      w.monitors += r.accounts.monitors;
      w.events += r.accounts.events;
    }
    return { a: ra, b: rb };
  }

  it(
    'splits the monitors between the instances and stores every event of a burst exactly once',
    async () => {
      await round();
      const { a: ra, b: rb } = await round();
      expect(a.engine.shards.length + b.engine.shards.length).toBe(64);
      expect(a.engine.shards.filter((s) => b.engine.shards.includes(s))).toEqual([]);
      expect(ra.accounts.monitors + rb.accounts.monitors).toBe(MONITORS);
      expect(ra.accounts.monitors).toBeGreaterThan(0);
      expect(rb.accounts.monitors).toBeGreaterThan(0);

      // Bursts of tweets by many watched accounts, posted through both instances by turns (20 at a time)
      // while both check: every third carries a hashtag (two events: tweet.new and tweet.hashtag).
      const expected = new Set<string>();
      const monitorOf = new Map<string, number>();
      let n = 0;
      for (let burst = 0; burst < BURSTS; burst++) {
        const count = Math.ceil(TWEETS / BURSTS);
        for (let i = 0; i < count; i += 20) {
          const batch = [];
          for (let k = i; k < Math.min(count, i + 20); k++, n++) {
            const author = (n * 7_919) % MONITORS;
            const hashtag = n % 3 === 0;
            // A batch goes through one instance (the simulated network issues tweet ids per process).
            const via = (i / 20) % 2 === 0 ? a : b;
            batch.push(
              postTweet(via, {
                author: usernames[author],
                text: `burst ${burst} ${n}${hashtag ? ' #load' : ''}`,
              }).then((t) => {
                monitorOf.set(t.id, author);
                expected.add(`${t.id}:tweet.new`);
                if (hashtag) expected.add(`${t.id}:tweet.hashtag`);
              }),
            );
          }
          await Promise.all(batch);
          // Checks run between the posts of a burst too, so tweets land on both sides of a check.
          if (i % 100 === 0) await round();
        }
        await round();
      }
      await round();
      await round();

      const rows = await a.server.services.database.db
        .selectFrom('events')
        .select(['monitor_id', 'event_type', 'payload', 'dedupe_key'])
        .where('monitor_id', 'is not', null)
        .execute();
      const keys = rows.map((r) => `${JSON.parse(r.payload).data.id}:${r.event_type}`);
      expect(new Set(rows.map((r) => r.dedupe_key)).size).toBe(rows.length);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys.length).toBe(expected.size);
      expect(new Set(keys)).toEqual(expected);
      for (const r of rows) {
        const author = monitorOf.get(JSON.parse(r.payload).data.id) as number;
        expect(r.monitor_id).toBe(String(8_100_000_000_000_000_000n + BigInt(author)));
      }
      // Both instances did work, and the events they report storing add up to the rows (none twice).
      expect(work.a.events).toBeGreaterThan(0);
      expect(work.b.events).toBeGreaterThan(0);
      expect(work.a.events + work.b.events).toBe(rows.length);
    },
    HEAVY ? 1_800_000 : 60_000,
  );
});
