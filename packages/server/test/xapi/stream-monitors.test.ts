import { randomBytes } from 'node:crypto';
import { http, passthrough } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { XsvcServer } from '../../src/app/app.js';
import { bootstrapOwner } from '../../src/app/bootstrap.js';
import { createServer } from '../../src/app/server.js';
import { parseConfig } from '../../src/core/config.js';
import { snowflake } from '../../src/core/ids/snowflake.js';
import { createXApiPlatform, type XApiPlatform } from '../../src/platform/xapi/index.js';
import { httpCaller } from '../helpers/server.js';
import { type Receiver, startReceiver } from '../webhooks/helpers.js';
import { twitter, twitterDev } from './fixtures/users.js';
import { BASE, TOKEN, useXServer, xget } from './helpers.js';
import { FakeXStream, until } from './stream-fake.js';

/**
 * Monitors on X's filtered stream end to end (`X_API_MONITOR_SOURCE=stream`), on the wall clock with the
 * engines running as in production: a listening server on the xapi platform, X's reads through msw, the
 * stream and its rules on a loopback stand-in, a webhook to a receiver on 127.0.0.1. Creating a monitor adds
 * its rule before its watermark is read; a post the stream delivers comes out as a stored event and a signed
 * delivery; pausing and deleting take the rule away; rules of other programs are left alone; the tier's rule
 * limits refuse a monitor clearly.
 */
// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field by the assertions
type Json = any;

const KEY = `svc_${randomBytes(32).toString('hex')}`;

/** A post id of "now" (the wall clock), as X would give a post made now. */
const nowId = (seq = 0) => snowflake(Date.now(), seq);

describe('monitors on the filtered stream', () => {
  const server = useXServer();
  let fake: FakeXStream;
  let receiver: Receiver;
  let app: XsvcServer;
  let platform: XApiPlatform;
  let base = '';
  const limits = { maxRules: 4, maxRuleLength: 60 };
  const order: string[] = [];

  const call = httpCaller(() => base, KEY);

  /** What X answers for the reads a monitor's creation and checks make. */
  function xReads() {
    const users: Record<string, object> = { [twitterDev.id]: twitterDev, [twitter.id]: twitter };
    const byName = Object.fromEntries(
      Object.values(users).map((u) => [(u as { username: string }).username, u]),
    );
    return [
      xget('/2/users/by/username/:username', (url) => ({
        data: byName[url.pathname.split('/').pop() ?? ''],
      })),
      xget('/2/users/:id', (url) => ({ data: users[url.pathname.split('/').pop() ?? ''] })),
      xget('/2/users', (url) => ({
        data: (url.searchParams.get('ids') ?? '').split(',').flatMap((id) => (users[id] ? [users[id]] : [])),
      })),
      xget('/2/users/:id/tweets', () => {
        order.push('timeline');
        return { data: [{ id: nowId(), text: 'before the monitor' }], meta: { result_count: 1 } };
      }),
      xget('/2/tweets/search/recent', () => ({ meta: { result_count: 0 } })),
    ];
  }

  beforeAll(async () => {
    fake = await new FakeXStream().listen();
    // Before this start: another program's rule, and a rule of ours no monitor needs (added long ago).
    fake.rules.push(
      { id: '1', value: 'from:12 OR from:13', tag: 'someone-else' },
      { id: '2', value: 'from:99', tag: 'xsvc:from:1000' },
    );
    server.use(fake.passthrough());
    receiver = await startReceiver(() => Date.now());
    const config = parseConfig({
      databaseUrl: ':memory:',
      logLevel: 'silent',
      keyFile: '',
      bootstrapApiKey: KEY,
      allowLoopbackWebhooks: true,
      platform: 'xapi',
      xBearerToken: TOKEN,
      xApiBaseUrl: BASE,
      xApiMonitorSource: 'stream',
    });
    app = await createServer(config, {
      platform: (services) => {
        platform = createXApiPlatform({
          bearerToken: TOKEN,
          baseUrl: BASE,
          now: () => services.clock.now(),
          stream: {
            db: services.database.db,
            limits,
            tickMs: 50,
            graceMs: 1_500,
            backoff: { networkStepMs: 20, httpFirstMs: 40, rateLimitFirstMs: 80 },
            // The stream and its rules are the loopback stand-in's; every other read goes to msw.
            fetch: (url, init) => {
              if (url.includes('/2/tweets/search/stream'))
                order.push(url.includes('rules') ? 'rules' : 'stream');
              return fetch(url.replace(BASE, fake.origin), init);
            },
          },
        });
        return platform;
      },
    });
    await bootstrapOwner(app.services.database, config, Date.now());
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.app.server.address() as { port: number }).port}`;
    routes();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await fake?.close();
  });

  /** msw lets the server's own origin, the receiver and the stand-in through; X's reads are answered. */
  function routes() {
    server.use(
      fake.passthrough(),
      http.all(`${base}/*`, () => passthrough()),
      http.all(`${new URL(receiver.url).origin}/*`, () => passthrough()),
      ...xReads(),
    );
  }

  it('leaves other programs’ rules alone and removes its own stale ones at start', async () => {
    routes();
    await until(() => fake.current !== undefined, 5_000, 'the stream connection');
    await until(() => !fake.rules.some((r) => r.id === '2'), 5_000, 'the stale rule deleted');
    expect(fake.rules.map((r) => r.id)).toEqual(['1']);
  });

  it('adds an account monitor’s rule before its watermark; a streamed post fires the webhook', async () => {
    routes();
    const hook = await call('POST', '/api/v1/webhooks', { url: receiver.url, eventTypes: ['tweet.new'] });
    expect(hook.status).toBe(201);
    receiver.secret = hook.body.secret;
    order.length = 0;
    const monitor = await call('POST', '/api/v1/monitors', {
      username: 'TwitterDev',
      eventTypes: ['tweet.new'],
    });
    expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);
    const rule = fake.ruleTagged('xsvc:from:');
    expect(rule.value).toBe(`from:${twitterDev.id}`);
    // The rule was added before the watermark was read: a post in between is streamed, not lost.
    expect(order.indexOf('rules')).toBeLessThan(order.indexOf('timeline'));

    await until(() => fake.current !== undefined, 5_000, 'the stream connection');
    const post = {
      id: nowId(1),
      text: 'streamed hello',
      author_id: twitterDev.id,
      created_at: new Date().toISOString(),
    };
    fake.deliver(post, [rule], { users: [twitterDev] });
    const deadline = Date.now() + 20_000;
    let hit: Json;
    while (!hit && Date.now() < deadline) {
      hit = receiver.received.find((r) => (r.event as Json)?.data?.id === post.id)?.event;
      if (!hit) await new Promise((r) => setTimeout(r, 25));
    }
    expect(hit).toMatchObject({
      eventType: 'tweet.new',
      data: { id: post.id, text: 'streamed hello', author: { userName: 'TwitterDev' } },
    });
  }, 30_000);

  it('checks a keyword rule with dry_run, refuses an invalid one in X’s words, and matches posts by tag', async () => {
    routes();
    fake.invalid = (v) => (v.includes('nope:') ? "Reference to invalid operator 'nope'" : undefined);
    const bad = await call('POST', '/api/v1/monitors/keywords', {
      query: 'nope:x',
      eventTypes: ['tweet.new'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_input');
    expect(bad.body.message).toContain("Reference to invalid operator 'nope'");
    expect(fake.rules.some((r) => r.value === 'nope:x')).toBe(false);

    const ok = await call('POST', '/api/v1/monitors/keywords', {
      query: 'xsvc launch',
      eventTypes: ['tweet.new'],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(fake.ruleCalls.some((c) => c.dryRun && c.body?.add?.[0]?.value === 'xsvc launch')).toBe(true);
    const rule = fake.ruleTagged('xsvc:q:');
    expect(rule.value).toBe('xsvc launch');
    const post = {
      id: nowId(2),
      text: 'the xsvc launch',
      author_id: twitter.id,
      created_at: new Date().toISOString(),
    };
    fake.deliver(post, [rule], { users: [twitter] });
    await until(
      async () => {
        const ev = await call('GET', `/api/v1/events?monitorId=${ok.body.id}&limit=10`);
        return ev.body.events?.some((e: Json) => e.data?.id === post.id) === true;
      },
      10_000,
      'the keyword event',
    );
  }, 30_000);

  it('refuses a monitor the rule limits leave no room for, with a clear error, and stops nothing else', async () => {
    routes();
    // 4 rules: someone else's, TwitterDev's, the keyword's, and one more: a second keyword fills the set.
    const second = await call('POST', '/api/v1/monitors/keywords', {
      query: 'second query',
      eventTypes: ['tweet.new'],
    });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(fake.rules).toHaveLength(4);
    const full = await call('POST', '/api/v1/monitors/keywords', {
      query: 'third query',
      eventTypes: ['tweet.new'],
    });
    expect(full.status).toBe(502);
    expect(full.body.error).toBe('x_api_unavailable');
    expect(full.body.message).toContain("the filtered stream's rules are full");
    expect(full.body.message).toContain('X_API_STREAM_MAX_RULES');
    const long = await call('POST', '/api/v1/monitors/keywords', {
      query: 'x'.repeat(61),
      eventTypes: ['tweet.new'],
    });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('longer than a filtered stream rule may be (60');
    // An account that packs into the existing account rule's room still fits.
    const packed = await call('POST', '/api/v1/monitors', { username: 'X', eventTypes: ['tweet.new'] });
    expect(packed.status, JSON.stringify(packed.body)).toBe(201);
    const accounts = fake.rules.filter((r) => r.tag?.startsWith('xsvc:from:'));
    expect(accounts.flatMap((r) => r.value.split(' OR ')).sort()).toEqual(
      [`from:${twitterDev.id}`, `from:${twitter.id}`].sort(),
    );
    expect(fake.rules).toHaveLength(4);
    expect(fake.rules.some((r) => r.id === '1')).toBe(true);
  }, 30_000);

  it('takes a paused or deleted monitor’s rule away once no monitor needs it', async () => {
    routes();
    const list = await call('GET', '/api/v1/monitors/keywords');
    const second = list.body.monitors.find((m: Json) => m.query === 'second query');
    const paused = await call('PATCH', `/api/v1/monitors/keywords/${second.id}`, { isActive: false });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    await until(() => !fake.rules.some((r) => r.value === 'second query'), 5_000, 'the paused rule deleted');
    const first = list.body.monitors.find((m: Json) => m.query === 'xsvc launch');
    expect((await call('DELETE', `/api/v1/monitors/keywords/${first.id}`)).status).toBe(200);
    await until(() => !fake.rules.some((r) => r.value === 'xsvc launch'), 5_000, 'the deleted rule deleted');
    // The account monitors' rule and the other program's stay.
    expect(fake.rules.some((r) => r.id === '1')).toBe(true);
    expect(fake.rules.some((r) => r.tag?.startsWith('xsvc:from:'))).toBe(true);
  }, 30_000);

  it('held one connection all along', () => {
    expect(fake.maxOpen).toBe(1);
  });
});

describe('X_API_MONITOR_SOURCE', () => {
  const server = useXServer();

  it('stream: the server holds the stream from its start and lets it go when it closes; search: it does not', async () => {
    const fake = await new FakeXStream().listen();
    server.use(fake.passthrough());
    const settings = {
      databaseUrl: ':memory:',
      logLevel: 'silent',
      keyFile: '',
      platform: 'xapi',
      xBearerToken: TOKEN,
      // The stand-in answers the stream and its rules; nothing else is asked of X here.
      xApiBaseUrl: fake.origin,
    } as const;
    try {
      const streaming = await createServer(parseConfig({ ...settings, xApiMonitorSource: 'stream' }));
      await until(() => fake.current !== undefined, 5_000, 'the stream connection');
      expect(fake.ruleCalls[0]?.method).toBe('GET');
      expect(streaming.services.platform.keywordTweetsSince).toBeTypeOf('function');
      await streaming.close();
      await until(() => fake.connections[0]?.closedAt !== undefined, 5_000, 'the connection closed');

      const polling = await createServer(parseConfig(settings));
      expect(polling.services.platform.keywordTweetsSince).toBeUndefined();
      await new Promise((r) => setTimeout(r, 100));
      await polling.close();
      expect(fake.connections).toHaveLength(1);
    } finally {
      await fake.close();
    }
  }, 30_000);
});
