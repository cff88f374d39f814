/**
 * The plan life cycle (spec 2.2, 7; reference Subscribe): an account that never subscribed is refused paid
 * work with 402 `no_subscription`, subscribes through a checkout paid on the local network, lapses at the end
 * of its period (402 `subscription_inactive`), and is reactivated by a new checkout. `/subscribe` says
 * `already_subscribed` only while the plan is active.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MagicLinkMessage, watchMagicLinks } from '../../src/core/auth/outbox.js';
import { PLAN_PERIOD_MS } from '../../src/core/billing/plan.js';
import { ownerAccountId, startTestServer, type TestServer } from '../helpers/server.js';

describe('plans', () => {
  let t: TestServer;
  let ownerId = '';
  beforeAll(async () => {
    t = await startTestServer('sqlite');
    ownerId = await ownerAccountId(t.server);
  });
  afterAll(() => t?.close());

  const plan = async () => (await t.request('GET', '/api/v1/account')).body.plan;
  const subscribe = () => t.request('POST', '/api/v1/subscribe', { body: { tier: 'pro' } });
  const approve = (url: string) => t.request('POST', `${new URL(url).pathname}/approve`, {});
  const extraction = () =>
    t.request('POST', '/api/v1/extractions', {
      body: { toolType: 'follower_explorer', targetUsername: 'jack' },
    });
  const renewsAt = async () =>
    Number(
      (
        await t.server.services.database.db
          .selectFrom('accounts')
          .select('plan_renews_at')
          .where('id', '=', ownerId)
          .executeTakeFirstOrThrow()
      ).plan_renews_at,
    );

  it('an active plan with no period never lapses; /subscribe says already_subscribed', async () => {
    expect(await plan()).toBe('active');
    t.clock.advance(2 * PLAN_PERIOD_MS);
    expect(await plan()).toBe('active');
    expect((await subscribe()).body.status).toBe('already_subscribed');
  });

  it('without a subscription, paid work is 402 no_subscription offering a subscription checkout', async () => {
    await t.server.services.database.db
      .updateTable('accounts')
      .set({ plan: 'none', plan_renews_at: null })
      .where('id', '=', ownerId)
      .execute();
    expect(await plan()).toBe('inactive');
    const r = await extraction();
    expect([r.status, r.body.error]).toEqual([402, 'no_subscription']);
    expect(r.body.payment_options.map((o: { type: string }) => o.type)).toContain('subscription_checkout');
    const m = await t.request('POST', '/api/v1/monitors', {
      body: { username: 'jack', eventTypes: ['tweet.new'] },
    });
    expect([m.status, m.body.error]).toEqual([402, 'no_subscription']);
    const d = await t.request('POST', '/api/v1/draws', {
      body: { tweetUrl: 'https://x.com/jack/status/20' },
    });
    expect(d.body.error).toBe('no_subscription');
    // Free operations stay open, the estimate included.
    expect((await t.request('GET', '/api/v1/credits')).status).toBe(200);
    const est = await t.request('POST', '/api/v1/extractions/estimate', {
      body: { toolType: 'follower_explorer', targetUsername: 'jack' },
    });
    expect(est.status).toBe(200);
  });

  it('subscribes through a checkout paid on the local network, for one period', async () => {
    const s = await subscribe();
    expect(s.body.status).toBe('checkout_created');
    expect(await plan()).toBe('inactive');
    expect((await approve(s.body.url)).status).toBe(200);
    expect(await plan()).toBe('active');
    expect(await renewsAt()).toBe(t.clock.now() + PLAN_PERIOD_MS);
    expect((await extraction()).status).toBe(202);
    expect((await subscribe()).body.status).toBe('already_subscribed');
  });

  it('lapses at the end of the period: 402 subscription_inactive, and a new checkout reactivates it', async () => {
    t.clock.advance(PLAN_PERIOD_MS + 1);
    expect(await plan()).toBe('inactive');
    const r = await extraction();
    expect([r.status, r.body.error]).toEqual([402, 'subscription_inactive']);
    const opt = await t.request('POST', '/api/v1/extractions', {
      body: { toolType: 'follower_explorer', targetUsername: 'jack' },
      headers: { 'svc-api-contract': '2026-04-29' },
    });
    expect(opt.body.error).toMatchObject({ code: 'subscription_inactive', type: 'billing_error' });
    const s = await subscribe();
    expect(s.body.status).toBe('checkout_created');
    await approve(s.body.url);
    expect(await plan()).toBe('active');
    expect(await renewsAt()).toBe(t.clock.now() + PLAN_PERIOD_MS);
    expect((await extraction()).status).toBe(202);
  });

  it('a paid checkout approved twice grants one period', async () => {
    const before = await renewsAt();
    await t.server.services.database.db
      .updateTable('accounts')
      .set({ plan: 'inactive' })
      .where('id', '=', ownerId)
      .execute();
    const s = await subscribe();
    await approve(s.body.url);
    const once = await renewsAt();
    await approve(s.body.url);
    expect(await renewsAt()).toBe(once);
    expect(once).toBeGreaterThanOrEqual(before);
  });
});

describe('XSVC_REQUIRE_SUBSCRIPTION', () => {
  let t: TestServer;
  const sent: MagicLinkMessage[] = [];
  beforeAll(async () => {
    t = await startTestServer('sqlite', { requireSubscription: true });
    watchMagicLinks(t.server.app, (m) => sent.push(m));
  });
  afterAll(() => t?.close());

  it('signs new accounts in without a subscription, which a paid checkout starts', async () => {
    expect(
      (await t.request('POST', '/auth/magic-link', { key: null, body: { email: 'new@example.com' } })).status,
    ).toBe(202);
    const link = new URL(sent.at(-1)!.url);
    const cb = await t.request('GET', `${link.pathname}${link.search}`, { key: null });
    const cookie = String(cb.headers['set-cookie']).split(';')[0]!;
    const as = { key: null, headers: { cookie, origin: t.server.services.publicUrl() } };
    expect((await t.request('GET', '/api/v1/account', as)).body.plan).toBe('inactive');
    const r = await t.request('POST', '/api/v1/extractions', {
      ...as,
      body: { toolType: 'follower_explorer', targetUsername: 'jack' },
    });
    expect([r.status, r.body.error]).toEqual([402, 'no_subscription']);
    const s = await t.request('POST', '/api/v1/subscribe', { ...as, body: {} });
    expect(s.body.status).toBe('checkout_created');
    // The owner of the server approves the checkout on the local network.
    expect((await t.request('POST', `${new URL(s.body.url).pathname}/approve`, {})).status).toBe(200);
    expect((await t.request('GET', '/api/v1/account', as)).body.plan).toBe('active');
  });
});
