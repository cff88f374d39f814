import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimUser, type MonitorTestServer, startMonitorServer } from './helpers.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;

describe('hourly billing of active monitors (manual clock)', () => {
  let t: MonitorTestServer;
  beforeAll(async () => {
    t = await startMonitorServer('sqlite');
    for (const u of ['bill_a', 'bill_b', 'bill_c', 'bill_d']) await createSimUser(t, { username: u });
  });
  afterAll(async () => t?.close());

  async function balance(key = t.key): Promise<bigint> {
    return BigInt((await t.request('GET', '/api/v1/account', { key })).body.creditInfo.balance);
  }
  async function monitor(id: string, key = t.key) {
    return (await t.request('GET', `/api/v1/monitors/${id}`, { key })).body;
  }
  async function charges(accountId?: string): Promise<number> {
    let q = t.server.services.database.db
      .selectFrom('credit_ledger')
      .select('id')
      .where('operation', '=', 'monitor:hourly');
    if (accountId) q = q.where('account_id', '=', accountId);
    return (await q.execute()).length;
  }

  it('charges the first hour at creation, then each hour while active, through the ledger', async () => {
    const start = await balance();
    const created = await t.request('POST', '/api/v1/monitors', {
      body: { username: 'bill_a', eventTypes: ['tweet.new'] },
    });
    const id = created.body.id;
    const createdAt = t.clock.now();
    expect(await balance()).toBe(start - 21n);
    await t.check(59 * MINUTE);
    expect(await balance()).toBe(start - 21n);
    await t.check(MINUTE);
    expect(await balance()).toBe(start - 42n);
    expect((await monitor(id)).nextBillingAt).toBe(new Date(createdAt + 2 * HOUR).toISOString());
    await t.check(HOUR);
    expect(await balance()).toBe(start - 63n);
    await t.check(0); // a second check of the same hour charges nothing more
    expect(await balance()).toBe(start - 63n);
    await t.request('DELETE', `/api/v1/monitors/${id}`);
  });

  it('stops at pause; a resume within the paid hour is free, a later one starts a new hour', async () => {
    const r = await t.request('POST', '/api/v1/monitors', {
      body: { username: 'bill_b', eventTypes: ['tweet.new'] },
    });
    const id = r.body.id;
    const paidUntil = r.body.nextBillingAt;
    const start = await balance();
    await t.request('PATCH', `/api/v1/monitors/${id}`, { body: { isActive: false } });
    await t.check(10 * MINUTE);
    await t.request('PATCH', `/api/v1/monitors/${id}`, { body: { isActive: true } });
    expect(await balance()).toBe(start);
    expect((await monitor(id)).nextBillingAt).toBe(paidUntil);
    await t.request('PATCH', `/api/v1/monitors/${id}`, { body: { isActive: false } });
    await t.check(3 * HOUR);
    await t.check(HOUR);
    expect(await balance()).toBe(start);
    expect((await monitor(id)).nextBillingAt).toBe(paidUntil);
    const resumed = await t.request('PATCH', `/api/v1/monitors/${id}`, { body: { isActive: true } });
    expect(await balance()).toBe(start - 21n);
    expect(resumed.body.nextBillingAt).toBe(new Date(t.clock.now() + HOUR).toISOString());
    await t.request('DELETE', `/api/v1/monitors/${id}`);
  });

  it('does not bill hours in which no engine ran', async () => {
    const r = await t.request('POST', '/api/v1/monitors/keywords', {
      body: { query: 'billing downtime', eventTypes: ['tweet.new'] },
    });
    const start = await balance();
    await t.check(5 * HOUR + MINUTE);
    expect(await balance()).toBe(start - 21n);
    const k = (await t.request('GET', `/api/v1/monitors/keywords/${r.body.id}`)).body;
    expect(k.nextBillingAt).toBe(new Date(t.clock.now() + HOUR).toISOString());
    await t.request('DELETE', `/api/v1/monitors/keywords/${r.body.id}`);
  });

  it('pauses with insufficient_credits when an hour cannot be paid; resuming needs credits', async () => {
    const poor = await t.otherAccount(30n);
    const refused = await t.request('POST', '/api/v1/monitors', {
      key: (await t.otherAccount(20n)).key,
      body: { username: 'bill_c', eventTypes: ['tweet.new'] },
    });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toBe('insufficient_credits');

    const r = await t.request('POST', '/api/v1/monitors', {
      key: poor.key,
      body: { username: 'bill_c', eventTypes: ['tweet.new'] },
    });
    expect(r.status).toBe(201);
    expect(await balance(poor.key)).toBe(9n);
    const due = r.body.nextBillingAt;
    await t.check(HOUR);
    const paused = await monitor(r.body.id, poor.key);
    expect(paused).toMatchObject({
      isActive: false,
      pausedReason: 'insufficient_credits',
      nextBillingAt: due,
    });
    expect(paused.pausedAt).toBe(new Date(t.clock.now()).toISOString());
    expect(await balance(poor.key)).toBe(9n);
    expect(await charges(poor.accountId)).toBe(1);

    const again = await t.request('PATCH', `/api/v1/monitors/${r.body.id}`, {
      key: poor.key,
      body: { isActive: true },
    });
    expect(again.status).toBe(402);
    expect(again.body.error).toBe('insufficient_credits');
    await t.server.services.credits.grant(poor.accountId, 100n, 'grant:test');
    const resumed = await t.request('PATCH', `/api/v1/monitors/${r.body.id}`, {
      key: poor.key,
      body: { isActive: true },
    });
    expect(resumed.status).toBe(200);
    expect(resumed.body.isActive).toBe(true);
    expect(resumed.body.pausedReason).toBeUndefined();
    expect(await balance(poor.key)).toBe(88n);
  });

  it('shows active monitors in GET /account: monitorsUsed and the hourly burn', async () => {
    const acct = await t.otherAccount(1_000n);
    await t.request('POST', '/api/v1/monitors', {
      key: acct.key,
      body: { username: 'bill_d', eventTypes: ['tweet.new'] },
    });
    const k = await t.request('POST', '/api/v1/monitors/keywords', {
      key: acct.key,
      body: { query: 'burn rate', eventTypes: ['tweet.new'] },
    });
    const two = (await t.request('GET', '/api/v1/account', { key: acct.key })).body;
    expect(two.monitorsUsed).toBe(2);
    expect(two.monitorBilling.activeHourlyBurn).toBe('42');
    await t.request('PATCH', `/api/v1/monitors/keywords/${k.body.id}`, {
      key: acct.key,
      body: { isActive: false },
    });
    const one = (await t.request('GET', '/api/v1/account', { key: acct.key })).body;
    expect(one.monitorsUsed).toBe(1);
    expect(one.monitorBilling.activeDailyEstimate).toBe(String(21 * 24));
  });
});
