import { chmodSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapOwner } from '../../src/app/bootstrap.js';
import { createServer } from '../../src/app/server.js';
import { ManualClock } from '../../src/core/clock.js';
import { ConfigError, configFromEnv, parseConfig } from '../../src/core/config.js';
import { big } from '../../src/core/db/database.js';
import { ENGINES, startTestServer, type TestServer, testDatabase } from '../helpers/server.js';

describe.each(ENGINES)('storage, credits and rate limits (%s)', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine);
  });
  afterAll(async () => t?.close());

  it('charges atomically under concurrency: the balance never goes negative and the ledger reconciles', async () => {
    const { credits, database } = t.server.services;
    const owner = await database.db
      .selectFrom('accounts')
      .select(['id', 'credits_balance'])
      .executeTakeFirstOrThrow();
    await database.db
      .updateTable('accounts')
      .set({ credits_balance: 30n })
      .where('id', '=', owner.id)
      .execute();
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => credits.charge(owner.id, 'test', 1, 1, `r${i}`)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(30);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected.every((r) => (r.reason as { code?: string }).code === 'insufficient_credits')).toBe(true);
    expect(await credits.balance(owner.id)).toBe(0n);
    const ledger = await database.db
      .selectFrom('credit_ledger')
      .select(['delta'])
      .where('account_id', '=', owner.id)
      .execute();
    const sum = ledger.reduce((a, r) => a + big(r.delta), 0n);
    // The bootstrap grant plus the 30 charges, minus the 30 we removed by hand from the balance before.
    expect(sum - (big(owner.credits_balance) - 30n)).toBe(0n);
  });

  it('keeps credits beyond 2^53 exact, as bigint strings on the wire', async () => {
    const { database } = t.server.services;
    const huge = 2n ** 62n + 7n;
    await database.db.updateTable('accounts').set({ credits_balance: huge }).execute();
    const r = await t.request('GET', '/api/v1/credits');
    expect(r.body.balance).toBe(huge.toString());
  });
});

describe.each(ENGINES)('fixed-window rate limits, exact under concurrency (%s)', (engine) => {
  it('lets exactly the limit through and answers the rest 429 with Retry-After and retryAfter', async () => {
    const { database, drop } = await testDatabase(engine);
    const clock = new ManualClock(Date.UTC(2026, 3, 29, 12, 0, 0, 100));
    const tiers = {
      read: { limit: 5, windowMs: 1_000, retryAfterSeconds: 1 },
      write: { limit: 3, windowMs: 60_000, retryAfterSeconds: 60 },
      delete: { limit: 2, windowMs: 60_000, retryAfterSeconds: 60 },
    };
    const server = await createServer(parseConfig({ logLevel: 'silent', seedSize: 'tiny', keyFile: '' }), {
      database,
      clock,
      rateLimits: tiers,
    });
    const key = `svc_${'ab'.repeat(32)}`;
    await bootstrapOwner(database, parseConfig({ keyFile: '', bootstrapApiKey: key }), clock.now());
    try {
      const hit = () =>
        server.app.inject({ method: 'GET', url: '/api/v1/account', headers: { 'x-api-key': key } });
      const answers = await Promise.all(Array.from({ length: 20 }, hit));
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
      const limited = answers.filter((a) => a.statusCode === 429);
      expect(limited).toHaveLength(15);
      expect(limited[0]!.headers['retry-after']).toBe('1');
      expect(limited[0]!.json()).toMatchObject({ error: 'rate_limit_exceeded', retryAfter: 1 });
      // Writes have their own window and figure.
      const patch = () =>
        server.app.inject({
          method: 'PATCH',
          url: '/api/v1/account',
          headers: { 'x-api-key': key },
          payload: { locale: 'en' },
        });
      const writes = await Promise.all(Array.from({ length: 5 }, patch));
      expect(writes.map((w) => w.statusCode).sort()).toEqual([200, 200, 200, 429, 429]);
      expect(writes.find((w) => w.statusCode === 429)!.headers['retry-after']).toBe('60');
      // The next window starts afresh.
      clock.advance(1_000);
      expect((await hit()).statusCode).toBe(200);
    } finally {
      await server.close();
      await drop();
    }
  });
});

describe('configuration and first start', () => {
  it('reads the environment and names the variable of a bad value', () => {
    const c = configFromEnv({ PORT: '9000', DATABASE_URL: ':memory:', XSVC_PLATFORM: 'simulated' });
    expect(c).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      databaseUrl: ':memory:',
      platform: 'simulated',
    });
    expect(() => configFromEnv({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => configFromEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => configFromEnv({ XSVC_BOOTSTRAP_API_KEY: 'svc_short' })).toThrow(/XSVC_BOOTSTRAP_API_KEY/);
    expect(() => configFromEnv({ XSVC_PLATFORM: 'xapi' })).toThrow(/X_BEARER_TOKEN/);
    expect(() =>
      configFromEnv({ XSVC_ALLOW_LOOPBACK_WEBHOOKS: '1', XSVC_PUBLIC_URL: 'https://svc.example.com' }),
    ).toThrow(/XSVC_ALLOW_LOOPBACK_WEBHOOKS/);
    expect(configFromEnv({}).webhookThreads).toBe(0);
    expect(configFromEnv({ XSVC_WEBHOOK_THREADS: '2' }).webhookThreads).toBe(2);
    for (const bad of ['two', '-1', '1.5', '17'])
      expect(() => configFromEnv({ XSVC_WEBHOOK_THREADS: bad })).toThrow(/XSVC_WEBHOOK_THREADS/);
  });

  it('creates the owner once, with a key written to a 0600 file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xsvc-boot-'));
    chmodSync(dir, 0o700);
    const keyFile = join(dir, 'owner-api-key');
    const { database, drop } = await testDatabase('sqlite');
    try {
      const { migrateToLatest } = await import('../../src/core/db/migrate.js');
      await migrateToLatest(database);
      const cfg = parseConfig({ keyFile, bootstrapCredits: '5000' });
      const first = await bootstrapOwner(database, cfg, Date.now());
      expect(first.created).toBe(true);
      expect(first.apiKey).toMatch(/^svc_[0-9a-f]{64}$/);
      expect(readFileSync(keyFile, 'utf8').trim()).toBe(first.apiKey);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const again = await bootstrapOwner(database, cfg, Date.now());
      expect(again).toEqual({ created: false, accountId: first.accountId });
      const acct = await database.db
        .selectFrom('accounts')
        .select('credits_balance')
        .executeTakeFirstOrThrow();
      expect(big(acct.credits_balance)).toBe(5000n);
    } finally {
      await drop();
    }
  });
});

describe('HTTPS', () => {
  it('ignores X-Forwarded-Proto unless XSVC_TRUST_PROXY is set', async () => {
    const t = await startTestServer('sqlite', { publicUrl: 'https://svc.example.com', trustProxy: false });
    try {
      const spoofed = await t.server.app.inject({
        method: 'GET',
        url: '/api/v1/account',
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-proto': 'https', 'x-api-key': t.key },
      });
      expect(spoofed.statusCode).toBe(301);
    } finally {
      await t.close();
    }
  });

  it('redirects plain HTTP with 301 when the public URL is https, but not on loopback', async () => {
    const t = await startTestServer('sqlite', { publicUrl: 'https://svc.example.com' });
    try {
      const remote = await t.server.app.inject({
        method: 'GET',
        url: '/api/v1/account?x=1',
        remoteAddress: '203.0.113.9',
      });
      expect(remote.statusCode).toBe(301);
      expect(remote.headers.location).toBe('https://svc.example.com/api/v1/account?x=1');
      const proxied = await t.server.app.inject({
        method: 'GET',
        url: '/api/v1/account',
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-proto': 'https', 'x-api-key': t.key },
      });
      expect(proxied.statusCode).toBe(200);
      expect((await t.request('GET', '/api/v1/account')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
