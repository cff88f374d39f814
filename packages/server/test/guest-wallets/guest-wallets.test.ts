import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUEST_WALLETS_PER_CLIENT } from '../../src/features/guest-wallets/handlers.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';

describe.each(ENGINES)('guest wallets (%s)', (engine) => {
  let t: TestServer;
  let tweetId: string;

  beforeAll(async () => {
    t = await startTestServer(engine);
    const row = await t.server.services.database.db
      .selectFrom('sim_tweets as t')
      .innerJoin('sim_users as a', 'a.id', 't.author_id')
      .select('t.id')
      .where('t.deleted', '=', 0)
      .where('a.protected', '=', 0)
      .where('a.suspended', '=', 0)
      .orderBy('t.id')
      .executeTakeFirstOrThrow();
    tweetId = row.id;
  });
  afterAll(async () => t?.close());

  /** Creates a wallet; `key` null sends no Idempotency-Key. */
  const create = (body: unknown, key: string | null = randomUUID()) =>
    t.request('POST', '/api/v1/guest-wallets', {
      key: null,
      body,
      headers: key ? { 'idempotency-key': key } : {},
    });
  const asGuest = (guestKey: string) => ({ key: null, headers: { authorization: `Bearer ${guestKey}` } });
  const status = (guestKey: string) => t.request('GET', '/api/v1/guest-wallets/status', asGuest(guestKey));
  const approve = (checkoutUrl: string) => t.request('POST', `${new URL(checkoutUrl).pathname}/approve`, {});

  it('creates a wallet without an account; its key pays for reads once the checkout is paid', async () => {
    const made = await create({ amount_minor: 1000, currency: 'USD' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      status: 'pending',
      amount: { amount_minor: 1000, currency: 'usd' },
      credits: '100000',
      requires_user_interaction: true,
      account_required: false,
      poll_after_seconds: 2,
    });
    expect(made.body.wallet_id).toMatch(/^gw_/);
    expect(made.body.purchase_id).toMatch(/^gp_/);
    expect(made.body.api_key).toMatch(/^sgk_[0-9a-f]{64}$/);
    const key = made.body.api_key as string;

    const before = await status(key);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      wallet_id: made.body.wallet_id,
      status: 'pending',
      usable: false,
      balance: '0',
      scope: 'paid_reads',
      latest_purchase: {
        purchase_id: made.body.purchase_id,
        status: 'pending',
        checkout_url: made.body.checkout_url,
      },
      poll_after_seconds: 2,
    });
    // Nothing is paid yet: a paid read is refused, and nothing is charged.
    const unpaid = await t.request('GET', `/api/v1/x/tweets/${tweetId}`, asGuest(key));
    expect(unpaid.status).toBe(402);

    expect((await approve(made.body.checkout_url)).status).toBe(200);
    const after = await status(key);
    expect(after.body).toMatchObject({
      status: 'active',
      usable: true,
      balance: '100000',
      poll_after_seconds: null,
    });
    expect(after.body.latest_purchase).toMatchObject({ status: 'paid' });
    expect(after.body.latest_purchase.checkout_url).toBeNull();
    expect(after.body.top_up).toEqual({ method: 'POST', path: '/api/v1/guest-wallets/topups' });
    expect(before.body.top_up).toBeNull();

    const read = await t.request('GET', `/api/v1/x/tweets/${tweetId}`, asGuest(key));
    expect(read.status).toBe(200);
    expect(read.body.tweet.id).toBe(tweetId);
    expect(BigInt((await status(key)).body.balance)).toBeLessThan(100_000n);
  });

  it('opens only the paid read-only routes', async () => {
    const made = await create({ amount_minor: 1000, currency: 'usd' });
    await approve(made.body.checkout_url);
    const key = made.body.api_key as string;
    const account = await t.request('GET', '/api/v1/account', asGuest(key));
    expect(account.status).toBe(401);
    expect(account.body.message).toMatch(/does not accept guest credentials/);
    const monitor = await t.request('POST', '/api/v1/monitors', {
      ...asGuest(key),
      body: { username: 'jack', eventTypes: ['tweet.new'] },
    });
    expect(monitor.status).toBe(401);
    const wrong = await status(`sgk_${'0'.repeat(64)}`);
    expect(wrong.status).toBe(401);
  });

  it('answers a retry with the same answer, key included, and refuses the key for another body', async () => {
    const idem = randomUUID();
    const first = await create({ amount_minor: 1500, currency: 'usd' }, idem);
    const again = await create({ amount_minor: 1500, currency: 'usd' }, idem);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const other = await create({ amount_minor: 2000, currency: 'usd' }, idem);
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('idempotency_key_conflict');
    const wallets = await t.server.services.database.db
      .selectFrom('guest_wallets')
      .select('id')
      .where('id', '=', first.body.wallet_id)
      .execute();
    expect(wallets).toHaveLength(1);
  });

  it('checks the Idempotency-Key and the amount', async () => {
    const missing = await create({ amount_minor: 1000, currency: 'usd' }, null);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('missing_idempotency_key');
    const v1 = await create({ amount_minor: 1000, currency: 'usd' }, '6f1c2b9e-4d3a-1e8f-9a7b-1c2d3e4f5a6b');
    expect(v1.body.error).toBe('invalid_idempotency_key');
    for (const amount_minor of [999, 25_001]) {
      const r = await create({ amount_minor, currency: 'usd' });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_input');
    }
    const currency = await create({ amount_minor: 1000, currency: 'dollars' });
    expect(currency.status).toBe(400);
  });

  it('tops up with the guest key: a new checkout, no new key, credits added once paid', async () => {
    const made = await create({ amount_minor: 1000, currency: 'usd' });
    const key = made.body.api_key as string;
    await approve(made.body.checkout_url);
    const idem = randomUUID();
    const topUp = () =>
      t.request('POST', '/api/v1/guest-wallets/topups', {
        ...asGuest(key),
        headers: { ...asGuest(key).headers, 'idempotency-key': idem },
        body: { amount_minor: 2500, currency: 'usd' },
      });
    const top = await topUp();
    expect(top.status, JSON.stringify(top.body)).toBe(201);
    expect(top.body.wallet_id).toBe(made.body.wallet_id);
    expect(top.body.api_key).toBeUndefined();
    expect((await topUp()).body.purchase_id).toBe(top.body.purchase_id);
    expect((await status(key)).body.latest_purchase).toMatchObject({
      purchase_id: top.body.purchase_id,
      status: 'pending',
    });
    await approve(top.body.checkout_url);
    expect((await status(key)).body.balance).toBe('350000');
    // Another wallet cannot reuse this wallet's key for its own top-up.
    const other = await create({ amount_minor: 1000, currency: 'usd' });
    const stolen = await t.request('POST', '/api/v1/guest-wallets/topups', {
      key: null,
      headers: { authorization: `Bearer ${other.body.api_key}`, 'idempotency-key': idem },
      body: { amount_minor: 2500, currency: 'usd' },
    });
    expect(stolen.status).toBe(409);
  });

  it('accepts the guest key in x-api-key as well (how generated clients send it), and refuses two credentials', async () => {
    const made = await create({ amount_minor: 1000, currency: 'usd' });
    const key = made.body.api_key as string;
    const inHeader = { key: null, headers: { 'x-api-key': key } };
    const before = await t.request('GET', '/api/v1/guest-wallets/status', inHeader);
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body).toMatchObject({ wallet_id: made.body.wallet_id, usable: false });
    await approve(made.body.checkout_url);
    const read = await t.request('GET', `/api/v1/x/tweets/${tweetId}`, inHeader);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.tweet.id).toBe(tweetId);
    const top = await t.request('POST', '/api/v1/guest-wallets/topups', {
      key: null,
      headers: { 'x-api-key': key, 'idempotency-key': randomUUID() },
      body: { amount_minor: 1000, currency: 'usd' },
    });
    expect(top.status, JSON.stringify(top.body)).toBe(201);
    expect(top.body.wallet_id).toBe(made.body.wallet_id);
    // Still only the guest scope: a route that needs an account refuses the key, whatever the header.
    const account = await t.request('GET', '/api/v1/account', inHeader);
    expect(account.status).toBe(401);
    const wrong = await t.request('GET', '/api/v1/guest-wallets/status', {
      key: null,
      headers: { 'x-api-key': `sgk_${'0'.repeat(64)}` },
    });
    expect(wrong.status).toBe(401);
    const both = await t.request('GET', '/api/v1/guest-wallets/status', {
      key: null,
      headers: { 'x-api-key': key, authorization: `Bearer ${key}` },
    });
    expect(both.status).toBe(401);
  });

  it('limits new wallets per client address, and a retry of an accepted request still gets its answer', async () => {
    const { limit, windowMs } = GUEST_WALLETS_PER_CLIENT;
    t.clock.advance(windowMs); // a fresh window
    const first = randomUUID();
    const made = [await create({ amount_minor: 1000, currency: 'usd' }, first)];
    for (let i = 1; i < limit; i++) made.push(await create({ amount_minor: 1000, currency: 'usd' }));
    expect(made.map((r) => r.status)).toEqual(Array(limit).fill(201));
    const over = await create({ amount_minor: 1000, currency: 'usd' });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: 'rate_limited' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(windowMs / 1000);
    // Nothing accepted is lost: the retry of an earlier request is answered, not limited.
    const again = await create({ amount_minor: 1000, currency: 'usd' }, first);
    expect(again.status).toBe(201);
    expect(again.body.api_key).toBe(made[0]?.body.api_key);
    t.clock.advance(windowMs);
    expect((await create({ amount_minor: 1000, currency: 'usd' })).status).toBe(201);
  });
});
