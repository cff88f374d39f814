/**
 * Account and keyword monitors on the X API (issue #27 item 5): every watched account read through batched
 * recent search (`from:a OR from:b …`, `since_id`), the checks paced by the app's request budget (from X's
 * `x-rate-limit-*` headers), the effective interval shown on each monitor, a monitor the budget cannot serve
 * refused at creation, and a 429 holding every check alike until its window resets.
 */
import { sql } from 'kysely';
import { HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { XsvcServer } from '../../src/app/app.js';
import { createServer } from '../../src/app/server.js';
import { createAccount, createApiKey } from '../../src/core/auth/accounts.js';
import { parseConfig } from '../../src/core/config.js';
import { openDatabase } from '../../src/core/db/database.js';
import { snowflake } from '../../src/core/ids/snowflake.js';
import { monitorEngineOf } from '../../src/features/monitors/feature.js';
import { PG_URL, startTestServer, type TestServer } from '../helpers/server.js';
import { BASE, TOKEN, useXServer, xget } from './helpers.js';

/** A user of the fake X: a 19-digit id, as every account made since 2018 has. */
function user(i: number) {
  return {
    id: String(1_700_000_000_000_000_000n + BigInt(i)),
    name: `User ${i}`,
    username: `budget_user_${i}`,
    created_at: '2020-01-01T00:00:00.000Z',
    protected: false,
    public_metrics: { followers_count: 1, following_count: 1, post_count: 1, listed_count: 0 },
  };
}

const USERS = Array.from({ length: 14 }, (_, i) => user(i + 1));
type Post = {
  id: string;
  text: string;
  author_id: string;
  created_at: string;
  edit_history_post_ids: string[];
};

/** The fake X's state: its posts, what the next search answers, and the recent-search requests seen. */
const x = {
  posts: [] as Post[],
  searches: [] as URL[],
  /** The `x-rate-limit-*` headers of search answers. */
  limit: 60,
  remaining: 59,
  resetAt: 0,
  /** Answer the next searches 429. */
  throttled: false,
  /** X's clock, when a test needs recent search's 7-day reach enforced (a 400 to an older `start_time`). */
  now: undefined as (() => number) | undefined,
};

/** Recent search reaches back 7 days. */
const WEEK_MS = 7 * 24 * 3600_000;

function post(t: TestServer, author: (typeof USERS)[number], text: string): Post {
  const now = t.clock.now();
  const p = {
    id: snowflake(now, x.posts.length),
    text,
    author_id: author.id,
    created_at: new Date(now).toISOString(),
    edit_history_post_ids: [] as string[],
  };
  p.edit_history_post_ids.push(p.id);
  x.posts.push(p);
  return p;
}

function rateHeaders(): Record<string, string> {
  return {
    'x-rate-limit-limit': String(x.limit),
    'x-rate-limit-remaining': String(x.remaining),
    'x-rate-limit-reset': String(Math.floor(x.resetAt / 1000)),
  };
}

/** The handlers of the fake X: users by name, id and ids, empty timelines, and recent search over `posts`. */
function fakeX() {
  const byId = new Map(USERS.map((u) => [u.id, u]));
  return [
    xget('/2/users/by/username/:username', (url) => {
      const name = url.pathname.split('/').pop();
      const found = USERS.find((u) => u.username === name);
      return found ? { data: found } : { errors: [{ title: 'Not Found Error', detail: 'no such user' }] };
    }),
    xget('/2/users/:id/tweets', () => ({ data: [], meta: { result_count: 0 } })),
    xget('/2/users/:id', (url) => {
      const found = byId.get(url.pathname.split('/').pop() ?? '');
      return found ? { data: found } : { errors: [{ title: 'Not Found Error', detail: 'no such user' }] };
    }),
    xget('/2/users', (url) => ({
      data: (url.searchParams.get('ids') ?? '').split(',').flatMap((id) => byId.get(id) ?? []),
    })),
    xget('/2/tweets/search/recent', (url) => {
      x.searches.push(url);
      if (x.throttled) {
        return HttpResponse.json(
          { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
          { status: 429, headers: { ...rateHeaders(), 'x-rate-limit-remaining': '0' } },
        );
      }
      const start = url.searchParams.get('start_time');
      if (x.now && start && Date.parse(start) < x.now() - WEEK_MS) {
        return HttpResponse.json(
          {
            title: 'Invalid Request',
            detail: 'start_time must be within the last 7 days',
            type: 'about:blank',
          },
          { status: 400 },
        );
      }
      const query = url.searchParams.get('query') ?? '';
      const from = new Set([...query.matchAll(/from:(\d+)/g)].map((m) => m[1]));
      const since = url.searchParams.get('since_id');
      const found = x.posts
        .filter((p) => (from.size ? from.has(p.author_id) : p.text.includes(query)))
        .filter((p) => !since || BigInt(p.id) > BigInt(since))
        .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
      const authors = [...new Set(found.map((p) => p.author_id))].flatMap((id) => byId.get(id) ?? []);
      return HttpResponse.json(
        { data: found, includes: { users: authors }, meta: { result_count: found.length } },
        { headers: rateHeaders() },
      );
    }),
  ];
}

async function startXServer(config: Record<string, unknown> = {}): Promise<TestServer> {
  return startTestServer('sqlite', { platform: 'xapi', xBearerToken: TOKEN, xApiBaseUrl: BASE, ...config });
}

async function watch(t: TestServer, u: (typeof USERS)[number]) {
  return t.request('POST', '/api/v1/monitors', { body: { username: u.username, eventTypes: ['tweet.new'] } });
}

async function eventsOf(t: TestServer): Promise<{ username?: string; data: { id: string } }[]> {
  const res = await t.request('GET', '/api/v1/events?limit=100');
  expect(res.status).toBe(200);
  return res.body.events;
}

afterEach(() => {
  x.posts = [];
  x.searches = [];
  x.throttled = false;
  x.now = undefined;
});

describe('account monitors on the X API, within the request budget', () => {
  const server = useXServer();
  let t: TestServer;

  beforeAll(async () => {
    t = await startXServer();
  });
  afterAll(async () => t?.close());

  it('reads 12 accounts in one search a check and reports every new post of each, the 11th and 12th included', async () => {
    server.use(...fakeX());
    x.resetAt = t.clock.now() + 15 * 60_000;
    const twelve = USERS.slice(0, 12);
    for (const u of twelve) expect((await watch(t, u)).status).toBe(201);
    const engine = monitorEngineOf(t.server.app);
    if (!engine) throw new Error('no engine');
    t.clock.advance(60_000);
    await engine.checkOnce(); // the first read: every cursor joins
    const posts = twelve.map((u) => post(t, u, `hello from ${u.username}`));
    t.clock.advance(60_000);
    x.searches = [];
    const report = await engine.checkOnce();
    expect(report.pace?.skipped).toBeUndefined();
    expect(report.accounts.monitors).toBe(12);
    // One recent search covers every account: 12 `from:` clauses of 19-digit ids fit 512 characters.
    expect(x.searches).toHaveLength(1);
    const query = x.searches[0]?.searchParams.get('query') ?? '';
    expect(query.length).toBeLessThanOrEqual(512);
    expect(query.split(' OR ').sort()).toEqual(twelve.map((u) => `from:${u.id}`).sort());
    expect(x.searches[0]?.searchParams.get('since_id')).toMatch(/^\d+$/);
    expect(x.searches[0]?.searchParams.get('max_results')).toBe('100');
    const events = await eventsOf(t);
    expect(events.map((e) => e.data.id).sort()).toEqual(posts.map((p) => p.id).sort());
    expect(new Set(events.map((e) => e.username))).toEqual(new Set(twelve.map((u) => u.username)));
  });

  it('shows the effective check interval on every monitor, and checks no more often', async () => {
    server.use(...fakeX());
    const list = await t.request('GET', '/api/v1/monitors');
    expect(list.status).toBe(200);
    // 60 searches per 15 minutes, 80% for the monitors: 48, one a check → a check every 18.75 s, so 19.
    for (const m of list.body.monitors) expect(m.checkIntervalSeconds).toBe(19);
    const engine = monitorEngineOf(t.server.app);
    if (!engine) throw new Error('no engine');
    t.clock.advance(60_000);
    expect((await engine.checkOnce()).pace).toEqual({ intervalMs: 19_000 });
    x.searches = [];
    t.clock.advance(1_000);
    expect((await engine.checkOnce()).pace).toEqual({ intervalMs: 19_000, skipped: 'interval' });
    t.clock.advance(17_000);
    expect((await engine.checkOnce()).pace?.skipped).toBe('interval');
    expect(x.searches).toHaveLength(0);
    t.clock.advance(1_000);
    expect((await engine.checkOnce()).pace?.skipped).toBeUndefined();
    expect(x.searches).toHaveLength(1);
  });

  it('holds every check alike after a 429 until its window resets, then reads what was posted meanwhile', async () => {
    server.use(...fakeX());
    const engine = monitorEngineOf(t.server.app);
    if (!engine) throw new Error('no engine');
    t.clock.advance(60_000);
    await engine.checkOnce();
    x.throttled = true;
    x.resetAt = t.clock.now() + 5 * 60_000;
    const before = (await eventsOf(t)).length;
    const late = post(t, USERS[10] as (typeof USERS)[number], 'posted while throttled');
    t.clock.advance(60_000);
    await expect(engine.checkOnce()).rejects.toMatchObject({ code: 'x_api_rate_limited' });
    x.throttled = false;
    x.searches = [];
    t.clock.advance(60_000);
    const held = await engine.checkOnce();
    expect(held.pace).toMatchObject({ skipped: 'hold', holdUntil: Math.floor(x.resetAt / 1000) * 1000 });
    expect(x.searches).toHaveLength(0);
    // Every monitor is still active: none was stopped for the others.
    const list = await t.request('GET', '/api/v1/monitors');
    expect(list.body.monitors.every((m: { isActive: boolean }) => m.isActive)).toBe(true);
    x.remaining = 59;
    x.resetAt = t.clock.now() + 20 * 60_000;
    t.clock.advance(5 * 60_000);
    const after = await engine.checkOnce();
    expect(after.pace?.skipped).toBeUndefined();
    const events = await eventsOf(t);
    expect(events).toHaveLength(before + 1);
    expect(events.some((e) => e.data.id === late.id)).toBe(true);
  });
});

describe('15 minutes of checks every second: 10 accounts and a keyword (the measured bug of #27)', () => {
  const server = useXServer();
  let t: TestServer;

  beforeAll(async () => {
    t = await startXServer();
  });
  afterAll(async () => t?.close());

  it('stays within the budget of every endpoint and still reports every post', async () => {
    server.use(...fakeX());
    x.resetAt = t.clock.now() + 15 * 60_000;
    x.remaining = 59;
    const ten = USERS.slice(0, 10);
    for (const u of ten) expect((await watch(t, u)).status).toBe(201);
    const kw = await t.request('POST', '/api/v1/monitors/keywords', {
      body: { query: 'budget', eventTypes: ['tweet.new'] },
    });
    expect(kw.status).toBe(201);
    // 2 searches a check (the accounts' query, the keyword's) against 48 → 37.5 s.
    expect(kw.body.checkIntervalSeconds).toBe(38);
    const engine = monitorEngineOf(t.server.app);
    if (!engine) throw new Error('no engine');
    const counts = new Map<string, number>();
    const count = ({ request }: { request: Request }) => {
      const path = new URL(request.url).pathname.replace(/\/\d{2,}/g, '/:id');
      counts.set(path, (counts.get(path) ?? 0) + 1);
    };
    server.events.on('request:start', count);
    const posted: string[] = [];
    try {
      for (let s = 1; s <= 900; s++) {
        t.clock.advance(1_000);
        // Every 30 s one account posts, in turn, with the keyword every fourth time.
        if (s % 30 === 0) {
          const author = ten[(s / 30) % ten.length] as (typeof USERS)[number];
          posted.push(post(t, author, s % 120 === 0 ? 'a budget post' : 'a post').id);
        }
        await engine.checkOnce();
      }
    } finally {
      server.events.removeListener('request:start', count);
    }
    // 24 checks in the 15 minutes (one each 38 s) of 2 searches and 1 users lookup: within the 48 and 240
    // the monitors may use (it was 12.5 requests a second, polling each timeline every second).
    const searches = counts.get('/2/tweets/search/recent') ?? 0;
    const lookups = counts.get('/2/users') ?? 0;
    expect(searches).toBe(48);
    expect(lookups).toBe(24);
    t.clock.advance(60_000);
    await engine.checkOnce();
    const events = (await t.request('GET', '/api/v1/events?limit=100')).body.events as {
      data: { id: string };
    }[];
    const seen = new Set(events.map((e) => e.data.id));
    expect(posted).toHaveLength(30);
    for (const id of posted) expect(seen.has(id)).toBe(true);
  }, 60_000);
});

describe('keyword monitors on the X API', () => {
  const server = useXServer();
  let t: TestServer;

  beforeAll(async () => {
    t = await startXServer();
  });
  afterAll(async () => t?.close());

  it('share one search between monitors of the same query, and count each distinct query in the interval', async () => {
    server.use(...fakeX());
    x.resetAt = t.clock.now() + 15 * 60_000;
    x.remaining = 59;
    const db = t.server.services.database.db;
    const account = await createAccount(db, {
      email: 'kw@example.com',
      isOwner: false,
      credits: 10_000n,
      now: 0,
    });
    const other = await createApiKey(db, { accountId: account.id, name: 'other', now: t.clock.now() });
    const keyword = (query: string, key?: string) =>
      t.request('POST', '/api/v1/monitors/keywords', {
        body: { query, eventTypes: ['tweet.new'] },
        ...(key && { key }),
      });
    expect((await keyword('launch')).status).toBe(201);
    expect((await keyword('launch', other.fullKey)).status).toBe(201);
    const lone = await keyword('rocket');
    expect(lone.status).toBe(201);
    // Two distinct queries: two searches a check against 48 → 37.5 s, so 38.
    expect(lone.body.checkIntervalSeconds).toBe(38);
    const engine = monitorEngineOf(t.server.app);
    if (!engine) throw new Error('no engine');
    t.clock.advance(60_000);
    await engine.checkOnce();
    const launch = post(t, USERS[0] as (typeof USERS)[number], 'launch day is here');
    t.clock.advance(60_000);
    x.searches = [];
    await engine.checkOnce();
    expect(x.searches.map((u) => u.searchParams.get('query')).sort()).toEqual(['launch', 'rocket']);
    const mine = await t.request('GET', '/api/v1/events?limit=100');
    const theirs = await t.request('GET', '/api/v1/events?limit=100', { key: other.fullKey });
    expect(mine.body.events.map((e: { data: { id: string } }) => e.data.id)).toEqual([launch.id]);
    expect(theirs.body.events.map((e: { data: { id: string } }) => e.data.id)).toEqual([launch.id]);
  });
});

describe('a monitor the request budget cannot serve', () => {
  const server = useXServer();
  let t: TestServer;

  beforeAll(async () => {
    // Two `from:` clauses a query, and at most a check a minute: 48 searches per 15 minutes serve 3 queries
    // a check (900 s × 3 / 48 = 56.25 s), so 6 accounts.
    t = await startXServer({ xApiSearchQueryMax: 60, xApiMonitorMaxInterval: 60 });
  });
  afterAll(async () => t?.close());

  it('is refused at creation with x_api_rate_limited naming the limit, the need and the budget; the others go on', async () => {
    server.use(...fakeX());
    x.resetAt = t.clock.now() + 15 * 60_000;
    x.remaining = 59;
    for (const u of USERS.slice(0, 6)) expect((await watch(t, u)).status).toBe(201);
    const refused = await watch(t, USERS[6] as (typeof USERS)[number]);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({
      error: 'x_api_rate_limited',
      endpoint: 'GET /2/tweets/search/recent',
      rateLimit: 60,
      budget: 48,
      requestsPerCheck: 4,
      checkIntervalSeconds: 75,
      maxCheckIntervalSeconds: 60,
    });
    expect(refused.body.message).toContain('60 requests per 15 minutes');
    expect(refused.body.message).toContain('X_API_MONITOR_MAX_INTERVAL');
    const list = await t.request('GET', '/api/v1/monitors');
    expect(list.body.monitors).toHaveLength(6);
    for (const m of list.body.monitors) expect(m.checkIntervalSeconds).toBe(57);
    // A second monitor of an account already watched costs nothing more: not refused.
    const again = await t.request('POST', '/api/v1/monitors', {
      body: { username: USERS[0]?.username, eventTypes: ['tweet.new'] },
    });
    expect(again.body.error).toBe('monitor_already_exists');
    // Pausing one makes room: resuming it is admitted again; the 7th is then refused on resume too.
    const first = list.body.monitors[0];
    expect(
      (await t.request('PATCH', `/api/v1/monitors/${first.id}`, { body: { isActive: false } })).status,
    ).toBe(200);
    expect((await watch(t, USERS[6] as (typeof USERS)[number])).status).toBe(201);
    const resumed = await t.request('PATCH', `/api/v1/monitors/${first.id}`, { body: { isActive: true } });
    expect(resumed.status).toBe(503);
    expect(resumed.body.error).toBe('x_api_rate_limited');
  });
});

/** The secret key both instances share (an instance with another one refuses the database). */
const SECRET_KEY = 'budget-test-secret-key-0123456789abcdef';

describe('two server instances on one Postgres database', () => {
  const server = useXServer();
  let a: TestServer;
  let b: XsvcServer | undefined;

  beforeAll(async () => {
    a = await startTestServer('postgres', {
      platform: 'xapi',
      xBearerToken: TOKEN,
      xApiBaseUrl: BASE,
      secretKey: SECRET_KEY,
    });
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
      a.server.services.database.db,
    );
    const database = await openDatabase(PG_URL, { pgSchema: rows[0]?.schema ?? 'public', poolSize: 2 });
    const cfg = parseConfig({
      logLevel: 'silent',
      keyFile: '',
      secretKeyFile: '',
      platform: 'xapi',
      xBearerToken: TOKEN,
      xApiBaseUrl: BASE,
      secretKey: SECRET_KEY,
    });
    b = await createServer(cfg, { database, clock: a.clock, validateResponses: true });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('share one budget: a 429 one instance got holds the other, which asks X nothing', async () => {
    server.use(...fakeX());
    x.resetAt = a.clock.now() + 15 * 60_000;
    x.remaining = 59;
    for (const u of USERS.slice(0, 2)) expect((await watch(a, u)).status).toBe(201);
    const engineA = monitorEngineOf(a.server.app);
    const engineB = b && monitorEngineOf(b.app);
    if (!engineA || !engineB) throw new Error('no engine');
    a.clock.advance(60_000);
    await engineA.checkOnce();
    x.throttled = true;
    x.resetAt = a.clock.now() + 10 * 60_000;
    a.clock.advance(60_000);
    await expect(engineA.checkOnce()).rejects.toMatchObject({ code: 'x_api_rate_limited' });
    const searches = x.searches.length;
    // B heard nothing from X itself: the hold comes from the figures A saved in upstream_rate_limits.
    const held = await engineB.checkOnce();
    expect(held.pace).toMatchObject({ skipped: 'hold', holdUntil: Math.floor(x.resetAt / 1000) * 1000 });
    expect(x.searches).toHaveLength(searches);
    // Two live engines each pack the accounts of their own shards: up to 2 searches a check, so 38 s.
    a.clock.advance(1_000);
    const list = await a.request('GET', '/api/v1/monitors');
    for (const m of list.body.monitors) expect(m.checkIntervalSeconds).toBe(38);
  });
});

describe('keyword checks within recent search’s reach and the app’s rate limit', () => {
  const server = useXServer();
  let t: TestServer;

  beforeAll(async () => {
    t = await startXServer();
  });
  afterAll(async () => t?.close());

  async function keyword(query: string) {
    const res = await t.request('POST', '/api/v1/monitors/keywords', {
      body: { query, eventTypes: ['tweet.new'] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string };
  }

  /** Deletes every monitor through the API (so the engine lets go of them too). */
  async function clear() {
    for (const m of (await t.request('GET', '/api/v1/monitors')).body.monitors ?? [])
      expect((await t.request('DELETE', `/api/v1/monitors/${m.id}`)).status).toBeLessThan(300);
    for (const m of (await t.request('GET', '/api/v1/monitors/keywords')).body.monitors ?? [])
      expect((await t.request('DELETE', `/api/v1/monitors/keywords/${m.id}`)).status).toBeLessThan(300);
  }

  it('a keyword monitor whose start is older than 7 days searches from the 7-day edge, and finds what is new', async () => {
    await clear();
    server.use(...fakeX());
    x.now = () => t.clock.now();
    x.resetAt = t.clock.now() + 15 * 60_000;
    x.remaining = 59;
    await keyword('reach');
    const engine = monitorEngineOf(t.server.app);
    if (!engine) throw new Error('no engine');
    t.clock.advance(60_000);
    await engine.checkOnce();
    // Eight days without a check (the server down): the monitor's cursor is now older than recent search reaches.
    t.clock.advance(8 * 24 * 3600_000);
    x.resetAt = t.clock.now() + 15 * 60_000;
    const fresh = post(t, USERS[0] as (typeof USERS)[number], 'reach is back');
    t.clock.advance(60_000);
    x.searches = [];
    await engine.checkOnce();
    expect(x.searches).toHaveLength(1);
    const start = Date.parse(x.searches[0]?.searchParams.get('start_time') ?? '');
    expect(start).toBeGreaterThanOrEqual(t.clock.now() - WEEK_MS);
    const events = await eventsOf(t);
    expect(events.map((e) => e.data.id)).toContain(fresh.id);
  });

  it('after a 429 in the account stage, the keyword stage of the same check sends nothing', async () => {
    await clear();
    server.use(...fakeX());
    x.resetAt = t.clock.now() + 15 * 60_000;
    x.remaining = 59;
    expect((await watch(t, USERS[1] as (typeof USERS)[number])).status).toBe(201);
    await keyword('held');
    const engine = monitorEngineOf(t.server.app);
    if (!engine) throw new Error('no engine');
    t.clock.advance(60_000);
    await engine.checkOnce();
    x.throttled = true;
    x.searches = [];
    t.clock.advance(60_000);
    await expect(engine.checkOnce()).rejects.toMatchObject({ code: 'x_api_rate_limited' });
    // The accounts' query got the 429; the keyword's search was not sent.
    expect(x.searches.map((u) => u.searchParams.get('query'))).toEqual([`from:${USERS[1]?.id}`]);
  });

  it('a 429 to one keyword search stops the other queries’ searches of that check', async () => {
    await clear();
    server.use(...fakeX());
    x.resetAt = t.clock.now() + 15 * 60_000;
    x.remaining = 59;
    await keyword('first');
    await keyword('second');
    const engine = monitorEngineOf(t.server.app);
    if (!engine) throw new Error('no engine');
    t.clock.advance(60_000);
    await engine.checkOnce();
    x.throttled = true;
    x.searches = [];
    t.clock.advance(60_000);
    await engine.checkOnce();
    expect(x.searches).toHaveLength(1);
  });
});
