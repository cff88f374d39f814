import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MagicLinkMessage, watchMagicLinks } from '../../src/core/auth/outbox.js';
import { clientKey, SIGN_IN_LIMITS } from '../../src/core/limits/sign-in-limits.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';

const WINDOW = SIGN_IN_LIMITS.perEmail.windowMs;

describe('client keys of the sign-in limits', () => {
  it('keys IPv4 as is, unwraps IPv4-mapped IPv6 and groups IPv6 by /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:0000:0000:0000:0001')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
  });
});

describe.each(ENGINES)('sign-in link limits (%s)', (engine) => {
  let t: TestServer;
  const sent: MagicLinkMessage[] = [];
  beforeAll(async () => {
    t = await startTestServer(engine);
    watchMagicLinks(t.server.app, (m) => sent.push(m));
  });
  afterAll(async () => t?.close());

  /** Moves the clock to `offsetMs` into a fresh window (never back). */
  function freshWindow(offsetMs: number): void {
    const now = t.clock.now();
    t.clock.set(now - (now % WINDOW) + WINDOW + offsetMs);
  }

  const ask = (email: string, ip: string) =>
    t.request('POST', '/auth/magic-link', {
      key: null,
      body: { email },
      headers: { 'x-forwarded-for': ip },
    });

  it('allows 5 links per e-mail per window, then 429 with Retry-After to the end of the window', async () => {
    freshWindow(60_000);
    const before = sent.length;
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail.limit; i++) {
      // Different clients: the e-mail's own limit is what stops the sixth.
      expect((await ask('Flooded@Example.com', `198.51.100.${i + 1}`)).status).toBe(202);
    }
    const refused = await ask('flooded@example.com', '198.51.100.99');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'rate_limit_exceeded', retryAfter: 840 });
    expect(refused.headers['retry-after']).toBe('840');
    expect(refused.body.message).toContain('e-mail');
    // Nothing was sent for the refused request.
    expect(sent.length - before).toBe(SIGN_IN_LIMITS.perEmail.limit);
    // Other addresses are not affected; the same one works again in the next window.
    expect((await ask('calm@example.com', '198.51.100.99')).status).toBe(202);
    t.clock.advance(839_999);
    expect((await ask('flooded@example.com', '198.51.100.99')).headers['retry-after']).toBe('1');
    t.clock.advance(1);
    expect((await ask('flooded@example.com', '198.51.100.99')).status).toBe(202);
  });

  it('allows 20 links per client address per window, whatever the e-mails', async () => {
    freshWindow(0);
    const before = sent.length;
    for (let i = 0; i < SIGN_IN_LIMITS.perClient.limit; i++) {
      expect((await ask(`user${i}@example.com`, '192.0.2.10')).status).toBe(202);
    }
    const refused = await ask('one-more@example.com', '192.0.2.10');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('900');
    expect(refused.body.message).toContain('from this address');
    expect(sent.length - before).toBe(SIGN_IN_LIMITS.perClient.limit);
    // The refused client did not use up that e-mail's allowance, and another client is served.
    expect((await ask('one-more@example.com', '192.0.2.11')).status).toBe(202);
  });

  it('counts an IPv6 /64 as one client', async () => {
    freshWindow(0);
    for (let i = 0; i < SIGN_IN_LIMITS.perClient.limit; i++) {
      expect((await ask(`v6-${i}@example.com`, `2001:db8:7:7::${(i + 1).toString(16)}`)).status).toBe(202);
    }
    expect((await ask('v6-last@example.com', '2001:db8:7:7:ffff::1')).status).toBe(429);
    expect((await ask('v6-last@example.com', '2001:db8:7:8::1')).status).toBe(202);
  });

  it('validates before counting: bad input is 400 and uses no allowance', async () => {
    freshWindow(0);
    for (let i = 0; i < 30; i++) {
      const bad = await ask('not an email', '192.0.2.50');
      expect(bad.status).toBe(400);
    }
    expect((await ask('good@example.com', '192.0.2.50')).status).toBe(202);
  });

  it('sweeps counters of past windows', async () => {
    freshWindow(0);
    await ask('sweep@example.com', '192.0.2.60');
    t.clock.advance(2 * 3_600_000);
    await ask('sweep@example.com', '192.0.2.60');
    const rows = await t.server.services.database.db
      .selectFrom('rate_limit_counters')
      .select('window_start')
      .where('bucket', 'like', 'signin:%')
      .execute();
    expect(rows.every((r) => Number(r.window_start) >= t.clock.now() - 3_600_000)).toBe(true);
    expect(rows.length).toBeGreaterThan(0);
  });
});
