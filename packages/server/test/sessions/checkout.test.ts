import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../src/core/auth/accounts.js';
import { type MagicLinkMessage, watchMagicLinks } from '../../src/core/auth/outbox.js';
import { CHECKOUT_TTL_MS } from '../../src/core/billing/checkouts.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';

describe.each(ENGINES)('local checkout (%s)', (engine) => {
  let t: TestServer;
  let buyer: string;
  beforeAll(async () => {
    t = await startTestServer(engine);
    const db = t.server.services.database.db;
    const account = await createAccount(db, {
      email: 'buyer@example.com',
      isOwner: false,
      credits: 0n,
      now: t.clock.now(),
    });
    buyer = (await createApiKey(db, { accountId: account.id, name: 'buyer', now: t.clock.now() })).fullKey;
  });
  afterAll(async () => t?.close());

  const balance = async (key: string) =>
    BigInt((await t.request('GET', '/api/v1/credits', { key })).body.balance);
  const sessionId = (url: string) => new URL(url).searchParams.get('session_id')!;

  it('topUp → owner approves → status paid, balance up by exactly the credits, once', async () => {
    const before = await balance(buyer);
    const top = await t.request('POST', '/api/v1/credits/topup', { key: buyer, body: { dollars: 25 } });
    expect(top.status).toBe(200);
    const id = sessionId(top.body.url);
    const pending = await t.request('GET', `/api/v1/credits/topup/status?session_id=${id}`, { key: buyer });
    expect(pending.body.status).toBe('processing');

    const page = await t.request('GET', `/checkout/${id}`, { key: null });
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toContain('text/html');
    expect(page.body).toContain('$25');
    expect(page.body).toContain('250,000');
    expect(page.body).toContain(`action="/checkout/${id}/approve"`);

    // The buyer cannot approve their own checkout; nor can anyone anonymous.
    const self = await t.request('POST', `/checkout/${id}/approve`, { key: buyer });
    expect(self.status).toBe(403);
    expect(self.body.error).toBe('forbidden');
    expect((await t.request('POST', `/checkout/${id}/approve`, { key: null })).status).toBe(401);

    const ok = await t.request('POST', `/checkout/${id}/approve`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, status: 'paid', granted: true, credits: '250000' });
    const again = await t.request('POST', `/checkout/${id}/approve`);
    expect(again.status).toBe(200);
    expect(again.body.granted).toBe(false);

    const paid = await t.request('GET', `/api/v1/credits/topup/status?session_id=${id}`, { key: buyer });
    expect(paid.body).toMatchObject({ status: 'paid', amount_dollars: 25, credits: '250000' });
    expect(await balance(buyer)).toBe(before + 250_000n);
    const credits = await t.request('GET', '/api/v1/credits', { key: buyer });
    expect(credits.body.lifetime_purchased).toBe('250000');
    const done = await t.request('GET', `/checkout/${id}/done`, { key: null });
    expect(done.body).toContain('Payment received');
  });

  it('grants once under concurrent approvals', async () => {
    const before = await balance(buyer);
    const top = await t.request('POST', '/api/v1/credits/topup', { key: buyer, body: { dollars: 10 } });
    const id = sessionId(top.body.url);
    const results = await Promise.all([1, 2, 3, 4].map(() => t.request('POST', `/checkout/${id}/approve`)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results.filter((r) => r.body.granted)).toHaveLength(1);
    expect(await balance(buyer)).toBe(before + 100_000n);
  });

  it("approves from the page's form with the owner's session and redirects to the confirmation", async () => {
    const sent: MagicLinkMessage[] = [];
    watchMagicLinks(t.server.app, (m) => sent.push(m));
    await t.request('POST', '/auth/magic-link', { key: null, body: { email: 'owner@localhost' } });
    const link = new URL(sent[0]!.url);
    const cb = await t.request('GET', `${link.pathname}${link.search}`, { key: null });
    const cookie = String(cb.headers['set-cookie']).split(';')[0]!;

    const top = await t.request('POST', '/api/v1/credits/topup', { key: buyer, body: { dollars: 10 } });
    const id = sessionId(top.body.url);
    const form = await t.request('POST', `/checkout/${id}/approve`, {
      key: null,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: '',
    });
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe(`/checkout/${id}/done`);
    const status = await t.request('GET', `/api/v1/credits/topup/status?session_id=${id}`, { key: buyer });
    expect(status.body.status).toBe('paid');
  });

  it('expires an unapproved checkout after 24 hours: status, page and approval all say so', async () => {
    const top = await t.request('POST', '/api/v1/credits/topup', { key: buyer, body: { dollars: 10 } });
    const id = sessionId(top.body.url);
    const open = await t.request('GET', `/checkout/${id}`, { key: null });
    expect(open.body).toContain('Expires');
    // One millisecond before the expiry it can still be approved; a second checkout shows the boundary.
    const late = sessionId(
      (await t.request('POST', '/api/v1/credits/topup', { key: buyer, body: { dollars: 10 } })).body.url,
    );
    t.clock.advance(CHECKOUT_TTL_MS - 1);
    expect((await t.request('POST', `/checkout/${late}/approve`)).status).toBe(200);
    t.clock.advance(1);
    const before = await balance(buyer);

    const status = await t.request('GET', `/api/v1/credits/topup/status?session_id=${id}`, { key: buyer });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ status: 'expired', amount_dollars: 10 });
    expect(status.body.credits).toBeUndefined();

    const approve = await t.request('POST', `/checkout/${id}/approve`);
    expect(approve.status).toBe(410);
    expect(approve.body).toMatchObject({
      error: 'expired',
      expiresAt: new Date(t.clock.now()).toISOString(),
    });
    expect(await balance(buyer)).toBe(before);

    const page = await t.request('GET', `/checkout/${id}`, { key: null });
    expect(page.status).toBe(410);
    expect(page.body).toContain('Checkout expired');
    expect(page.body).not.toContain('/approve');
    const done = await t.request('GET', `/checkout/${id}/done`, { key: null });
    expect(done.body).toContain('expired before it was paid');
    // The paid one stays paid.
    const paid = await t.request('GET', `/api/v1/credits/topup/status?session_id=${late}`, { key: buyer });
    expect(paid.body.status).toBe('paid');
  });

  it("does not reveal another account's checkout to the status operation", async () => {
    const top = await t.request('POST', '/api/v1/credits/topup', { key: buyer, body: { dollars: 10 } });
    const id = sessionId(top.body.url);
    const other = await t.request('GET', `/api/v1/credits/topup/status?session_id=${id}`);
    expect(other.status).toBe(404);
    expect(other.body.error).toBe('not_found');
  });

  it('answers url and redirect_url as its own redirect, which leads a browser to the checkout while open', async () => {
    const top = await t.request('POST', '/api/v1/credits/topup', { key: buyer, body: { dollars: 10 } });
    const id = sessionId(top.body.url);
    expect(id).toMatch(/^cs_[0-9a-f]{32}$/);
    const redirect = `${t.server.services.publicUrl()}/api/v1/credits/topup/redirect?session_id=${id}`;
    expect(top.body).toEqual({ url: redirect, redirect_url: redirect });

    // No credentials needed: a browser opens it.
    const path = `/api/v1/credits/topup/redirect?session_id=${id}`;
    const open = await t.request('GET', path, { key: null });
    expect(open.status).toBe(302);
    expect(open.headers.location).toBe(`${t.server.services.publicUrl()}/checkout/${id}`);
    expect(open.headers['cache-control']).toBe('no-store');

    expect((await t.request('POST', `/checkout/${id}/approve`)).status).toBe(200);
    const paid = await t.request('GET', path, { key: null });
    expect([paid.status, paid.headers.location]).toEqual([
      302,
      `${t.server.services.publicUrl()}/checkout/${id}/done`,
    ]);

    const unknown = await t.request(
      'GET',
      '/api/v1/credits/topup/redirect?session_id=cs_0123456789abcdef0123456789abcdef',
      { key: null },
    );
    expect([unknown.status, unknown.body.error]).toEqual([404, 'not_found']);
    const missing = await t.request('GET', '/api/v1/credits/topup/redirect', { key: null });
    expect([missing.status, missing.body.error]).toEqual([400, 'invalid_input']);

    // A plan checkout is not a top-up: not found here either.
    const plan = await t.request('POST', '/api/v1/subscribe', { key: buyer, body: {} });
    const planId = new URL(plan.body.url).pathname.split('/')[2];
    const notTopup = await t.request('GET', `/api/v1/credits/topup/redirect?session_id=${planId}`, {
      key: null,
    });
    expect(notTopup.status).toBe(404);

    // Expired: the spec's 410 `expired`, no redirect to a page that can no longer be paid.
    const late = sessionId(
      (await t.request('POST', '/api/v1/credits/topup', { key: buyer, body: { dollars: 10 } })).body.url,
    );
    t.clock.advance(CHECKOUT_TTL_MS);
    const gone = await t.request('GET', `/api/v1/credits/topup/redirect?session_id=${late}`, { key: null });
    expect([gone.status, gone.body.error]).toEqual([410, 'expired']);
    expect(gone.headers.location).toBeUndefined();
  });

  it('answers unknown checkouts with 404', async () => {
    const missing = 'cs_0123456789abcdef0123456789abcdef';
    expect((await t.request('GET', `/checkout/${missing}`, { key: null })).status).toBe(404);
    const r = await t.request('POST', `/checkout/${missing}/approve`);
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('not_found');
    expect((await t.request('GET', '/checkout/not-an-id', { key: null })).status).toBe(400);
  });
});
