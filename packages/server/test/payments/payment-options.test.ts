import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerAccountId, startTestServer, type TestServer } from '../helpers/server.js';
import { setBalance } from '../reads/fixtures.js';

/** A 402 for an account advertises how to pay (spec 4.9, part 7), and never starts a checkout. */
describe('payment options of a 402', () => {
  let t: TestServer & { accountId?: string };
  let ownerId: string;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
    ownerId = await ownerAccountId(t.server);
  });
  afterAll(() => t?.close());

  it('offers a credit top-up when 2 credits do not cover the trends', async () => {
    await setBalance(t, ownerId, 2);
    const r = await t.request('GET', '/api/v1/trends');
    expect([r.status, r.body.error]).toEqual([402, 'insufficient_credits']);
    expect(r.body.payment_options).toEqual([
      expect.objectContaining({
        type: 'credit_topup',
        method: 'POST',
        url: expect.stringMatching(/\/api\/v1\/credits\/topup$/),
        requires_user_interaction: true,
      }),
    ]);
    const checkouts = await t.server.services.database.db.selectFrom('checkouts').selectAll().execute();
    expect(checkouts).toHaveLength(0);
  });

  it('adds a subscription checkout while the plan is not active, also under the opt-in contract', async () => {
    await setBalance(t, ownerId, 0);
    await t.server.services.database.db
      .updateTable('accounts')
      .set({ plan: 'inactive' })
      .where('id', '=', ownerId)
      .execute();
    const r = await t.request('GET', '/api/v1/trends', { headers: { 'svc-api-contract': '2026-04-29' } });
    expect(r.status).toBe(402);
    expect(r.body.error.type).toBe('billing_error');
    expect(r.body.error.payment_options.map((o: { type: string }) => o.type)).toEqual([
      'credit_topup',
      'subscription_checkout',
    ]);
    await t.server.services.database.db
      .updateTable('accounts')
      .set({ plan: 'active' })
      .where('id', '=', ownerId)
      .execute();
  });
});
