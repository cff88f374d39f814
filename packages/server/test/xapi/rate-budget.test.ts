/**
 * The app's X request budget (issue #27 item 5): figures from X's `x-rate-limit-*` headers (configured
 * defaults before the first), the effective interval of the monitors' checks, the hold after a 429, and the
 * figures shared by two instances on one Postgres through `upstream_rate_limits`.
 */

import { sql } from 'kysely';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/config.js';
import { openDatabase } from '../../src/core/db/database.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { UpstreamLimits } from '../../src/core/limits/upstream-limits.js';
import { endpointOf, XRateBudget } from '../../src/platform/xapi/index.js';
import { PG_URL, testDatabase, useMigratedDatabase } from '../helpers/server.js';
import { NOW, platform, rejection, useXServer, xget } from './helpers.js';

const SEARCH = 'GET /2/tweets/search/recent';
const USERS = 'GET /2/users';

function headers(limit: number, remaining: number, resetAt: number): Headers {
  return new Headers({
    'x-rate-limit-limit': String(limit),
    'x-rate-limit-remaining': String(remaining),
    'x-rate-limit-reset': String(Math.floor(resetAt / 1000)),
  });
}

describe('the X request budget', () => {
  const server = useXServer();

  it('names endpoints as X limits them', () => {
    expect(endpointOf('/2/users/2244994945/tweets')).toBe('GET /2/users/:id/tweets');
    expect(endpointOf('/2/users/by/username/jack')).toBe('GET /2/users/by/username/:username');
    expect(endpointOf('/2/tweets/search/recent')).toBe(SEARCH);
  });

  it('paces by the configured defaults before X reports, then by what its headers say', () => {
    let now = NOW;
    const budget = new XRateBudget({ now: () => now });
    // 60 searches per 15 minutes, 48 for the monitors: 2 a check → 37.5 s, so 38.
    expect(budget.pace({ [SEARCH]: 2 }, 1000)).toMatchObject({
      intervalMs: 38_000,
      maxIntervalMs: 300_000,
      needs: [{ endpoint: SEARCH, perCheck: 2, budget: 48, limit: 60, windowMs: 900_000 }],
    });
    budget.observe('/2/tweets/search/recent', 200, headers(450, 440, now + 600_000));
    // Pro's 450: 360 for the monitors, 2 a check → 5 s.
    expect(budget.pace({ [SEARCH]: 2 }, 1000).intervalMs).toBe(5_000);
    // Nothing needed of an endpoint: the nominal interval.
    expect(budget.pace({ [SEARCH]: 0, [USERS]: 0 }, 1000).intervalMs).toBe(1000);
    // What is left for API calls (20% of 450 = 90) is not used by the checks: they wait for the reset.
    budget.observe('/2/tweets/search/recent', 200, headers(450, 91, now + 600_000));
    expect(budget.pace({ [SEARCH]: 2 }, 1000).holdUntil).toBe(Math.floor((now + 600_000) / 1000) * 1000);
    now += 601_000;
    expect(budget.pace({ [SEARCH]: 2 }, 1000).holdUntil).toBeUndefined();
  });

  it('reads X_API_RATE_LIMITS as limits per endpoint, and names the variable when it is wrong', () => {
    expect(parseConfig({ xApiRateLimits: 'search=450, users=900' }).xApiRateLimits).toEqual({
      [SEARCH]: 450,
      [USERS]: 900,
    });
    expect(parseConfig({}).xApiRateLimits).toEqual({ [SEARCH]: 60, [USERS]: 300 });
    // A parsed configuration parses again to itself (the CLI merges its flags into one).
    const parsed = parseConfig({ xApiRateLimits: 'search=450' });
    expect(parseConfig(parsed).xApiRateLimits).toEqual({ [SEARCH]: 450 });
    for (const bad of ['search=many', 'timeline=10', 'search=0']) {
      expect(() => parseConfig({ xApiRateLimits: bad })).toThrow(/X_API_RATE_LIMITS/);
    }
    expect(() => parseConfig({ xApiMonitorSource: 'poll' })).toThrow(/X_API_MONITOR_SOURCE/);
    expect(() => parseConfig({ xApiMonitorShare: 0 })).toThrow(/X_API_MONITOR_SHARE/);
  });

  it('takes configured limits and share, and a 429 without headers holds for its retry-after', () => {
    const budget = new XRateBudget({ now: () => NOW, defaults: { [SEARCH]: 300 }, share: 0.5 });
    expect(budget.pace({ [SEARCH]: 1 }, 1000).intervalMs).toBe(6_000);
    // The users lookup keeps X's documented figure when only search is configured.
    expect(budget.pace({ [USERS]: 1 }, 1000).needs[0]).toMatchObject({ limit: 300, budget: 150 });
    // A tiny limit slows the checks down (one request a window), never stops them.
    const tiny = new XRateBudget({ now: () => NOW, defaults: { [SEARCH]: 1 } });
    expect(tiny.pace({ [SEARCH]: 1 }, 1000).intervalMs).toBe(900_000);
    budget.observe('/2/tweets/search/recent', 429, new Headers({ 'retry-after': '30' }));
    expect(budget.pace({ [SEARCH]: 1 }, 1000).holdUntil).toBe(NOW + 30_000);
  });

  it('learns from every app answer, a 429 included (which still fails with x_api_rate_limited)', async () => {
    server.use(
      xget('/2/tweets/search/recent', () =>
        HttpResponse.json(
          { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
          { status: 429, headers: headers(60, 0, NOW + 120_000) },
        ),
      ),
    );
    const x = platform();
    const err = await rejection(x.searchTweets({ q: 'hello', queryType: 'Latest' }, { pageSize: 10 }));
    expect(err.code).toBe('x_api_rate_limited');
    expect(err.retryAfterSeconds).toBe(120);
    const pace = await x.monitorPace({ accounts: 1, queries: 0, instances: 1 }, 1000);
    expect(pace.holdUntil).toBe(NOW + 120_000);
    expect(pace.intervalMs).toBe(19_000);
  });
});

describe('the X request budget shared on Postgres', () => {
  const db = useMigratedDatabase('postgres');

  it('is one budget for two instances: what one hears, the other paces by', async () => {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db().db);
    const other = await openDatabase(PG_URL, { pgSchema: rows[0]?.schema ?? 'public', poolSize: 2 });
    try {
      let now = NOW;
      const a = new XRateBudget({ now: () => now, store: new UpstreamLimits(db().db) });
      const b = new XRateBudget({ now: () => now, store: new UpstreamLimits(other.db) });
      a.observe('/2/tweets/search/recent', 200, headers(450, 400, now + 600_000));
      await a.sync();
      await b.sync();
      expect(b.limitOf(SEARCH)).toBe(450);
      expect(b.pace({ [SEARCH]: 2 }, 1000).intervalMs).toBe(5_000);
      // A 429 one instance got holds the other's checks too.
      now += 2_000;
      a.observe('/2/tweets/search/recent', 429, headers(450, 0, now + 300_000));
      await a.sync();
      await b.sync();
      expect(b.pace({ [SEARCH]: 2 }, 1000).holdUntil).toBe(Math.floor((now + 300_000) / 1000) * 1000);
      // Older figures never replace newer ones.
      await new UpstreamLimits(other.db).save([
        { endpoint: SEARCH, limit: 60, remaining: 60, resetAt: now, seenAt: now - 60_000 },
      ]);
      expect((await new UpstreamLimits(db().db).load()).find((l) => l.endpoint === SEARCH)?.limit).toBe(450);
    } finally {
      await other.close();
    }
  });

  it('uses the same table on SQLite', async () => {
    const { database, drop } = await testDatabase('sqlite');
    try {
      await migrateToLatest(database);
      const store = new UpstreamLimits(database.db);
      await store.save([{ endpoint: USERS, limit: 300, remaining: 12, resetAt: NOW, seenAt: NOW }]);
      expect(await store.load()).toEqual([
        { endpoint: USERS, limit: 300, remaining: 12, resetAt: NOW, seenAt: NOW },
      ]);
    } finally {
      await drop();
    }
  });
});
