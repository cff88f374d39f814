import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/app/server.js';
import { ManualClock } from '../../src/core/clock.js';
import { parseConfig } from '../../src/core/config.js';
import { openDatabase } from '../../src/core/db/database.js';
import { snowflake } from '../../src/core/ids/snowflake.js';
import { monitorEngineOf } from '../../src/features/monitors/feature.js';
import { createXApiPlatform, type XApiPlatform } from '../../src/platform/xapi/index.js';
import { asTestServer, PG_URL, type TestServer } from '../helpers/server.js';
import { newStore, type TestStore } from '../monitors/helpers.js';
import { twitterDev } from './fixtures/users.js';
import { BASE, TOKEN, useXServer, xget } from './helpers.js';
import { FakeXStream, until } from './stream-fake.js';

/**
 * Two server instances on one Postgres schema with `X_API_MONITOR_SOURCE=stream`: one holds the stream (X
 * allows one connection), both check the monitors from what it buffered, each post is one event, and when
 * the holder goes the other takes the connection over.
 */
describe('two instances on the filtered stream', () => {
  const server = useXServer();
  const clock = new ManualClock(Date.now());
  let store: TestStore;
  let fake: FakeXStream;
  const instances: (TestServer & { check(): Promise<unknown>; platform: XApiPlatform })[] = [];

  async function instance(name: string) {
    const database = await openDatabase(PG_URL, { pgSchema: store.schema as string, poolSize: 4 });
    const cfg = parseConfig({
      logLevel: 'silent',
      keyFile: '',
      platform: 'xapi',
      xBearerToken: TOKEN,
      xApiBaseUrl: BASE,
      xApiMonitorSource: 'stream',
      instanceId: name,
    });
    let platform: XApiPlatform | undefined;
    const built = await createServer(cfg, {
      database,
      clock,
      monitors: { autoStart: false },
      platform: (services) => {
        platform = createXApiPlatform({
          bearerToken: TOKEN,
          baseUrl: BASE,
          now: () => services.clock.now(),
          stream: {
            db: services.database.db,
            owner: name,
            limits: { maxRules: 10, maxRuleLength: 512 },
            tickMs: 25,
            backoff: { networkStepMs: 20 },
            fetch: (url, init) => fetch(url.replace(BASE, fake.origin), init),
          },
        });
        return platform;
      },
    });
    const engine = monitorEngineOf(built.app);
    if (!engine || !platform) throw new Error('no engine or platform');
    const t = await asTestServer(built, cfg, clock, () => database.close());
    const out = { ...t, platform, check: () => engine.checkOnce() };
    instances.push(out);
    return out;
  }

  beforeAll(async () => {
    store = newStore('postgres');
    fake = await new FakeXStream().listen();
    server.use(fake.passthrough());
  });
  afterAll(async () => {
    for (const i of instances) await i.close().catch(() => undefined);
    await fake?.close();
    await store?.drop();
  });

  it('holds one connection, checks on both from the buffer, stores each post once, and fails over', async () => {
    server.use(
      fake.passthrough(),
      xget('/2/users/by/username/:username', { data: twitterDev }),
      xget('/2/users/:id', { data: twitterDev }),
      xget('/2/users', { data: [twitterDev] }),
      xget('/2/users/:id/tweets', () => ({
        data: [{ id: snowflake(clock.now() - 60_000, 0), text: 'old' }],
      })),
    );
    const a = await instance('a');
    const b = await instance('b');
    await until(() => fake.current !== undefined, 5_000, 'the stream connection');
    const created = await b.request('POST', '/api/v1/monitors', {
      body: { username: 'TwitterDev', eventTypes: ['tweet.new'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await Promise.all([a.check(), b.check()]);

    const rule = fake.ruleTagged('xsvc:from:');
    const posts = [1, 2, 3].map((i) => ({
      id: snowflake(clock.now() + i, 0),
      text: `post ${i}`,
      author_id: twitterDev.id,
      created_at: new Date(clock.now()).toISOString(),
    }));
    for (const p of posts) fake.deliver(p, [rule], { users: [twitterDev] });
    const buffered = async (via: TestServer) =>
      (await via.server.services.database.db.selectFrom('x_stream_posts').select('tweet_id').execute())
        .length;
    await until(async () => (await buffered(a)) === 3, 5_000, 'the posts buffered');
    for (let r = 0; r < 3; r++) {
      clock.advance(1_000);
      await Promise.all([a.check(), b.check()]);
    }
    const events = await a.server.services.database.db
      .selectFrom('events')
      .select(['payload'])
      .where('monitor_id', '=', created.body.id)
      .execute();
    expect(events.map((e) => JSON.parse(e.payload).data.id).sort()).toEqual(posts.map((p) => p.id).sort());
    expect(fake.connections).toHaveLength(1);

    // The holder goes away: the other instance takes the connection over; never two at once.
    const [holder, other] = await holderOf(a, b);
    await holder.close();
    instances.splice(instances.indexOf(holder), 1);
    await until(() => fake.connections.length === 2 && fake.current !== undefined, 5_000, 'the takeover');
    expect(fake.maxOpen).toBe(1);
    const later = { id: snowflake(clock.now() + 10, 0), text: 'after', author_id: twitterDev.id };
    fake.deliver(later, [rule], { users: [twitterDev] });
    await until(async () => (await buffered(other)) === 4, 5_000, 'the post buffered by the new holder');
    clock.advance(1_000);
    await other.check();
    clock.advance(1_000);
    await other.check();
    const after = await other.server.services.database.db
      .selectFrom('events')
      .select(['payload'])
      .where('monitor_id', '=', created.body.id)
      .execute();
    expect(after.map((e) => JSON.parse(e.payload).data.id)).toContain(later.id);
    expect(after).toHaveLength(4);
  }, 60_000);

  /** The instance holding the stream first, then the other. */
  async function holderOf<T extends { platform: XApiPlatform }>(a: T, b: T): Promise<[T, T]> {
    const row = await (a as unknown as TestServer).server.services.database.db
      .selectFrom('x_stream_state')
      .select('owner')
      .executeTakeFirstOrThrow();
    return row.owner === 'a' ? [a, b] : [b, a];
  }
});
