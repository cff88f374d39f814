/**
 * Guest keys open exactly the spec's 33 read-only GET routes (5.1, 5.5: the 26 paid reads plus the 7
 * machine-payment reads): list memberships and job lookups need an account.
 */
import { randomUUID } from 'node:crypto';
import { operations } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The paid reads a guest key opens: its GET routes beyond the wallet's own status. */
const guestOps = Object.values(operations).filter(
  (op) =>
    (op.auth as readonly string[]).includes('guest') && op.method === 'GET' && op.tag !== 'Guest Wallets',
);

describe('the routes of a guest key', () => {
  let t: TestServer;
  let guestKey = '';
  beforeAll(async () => {
    t = await startTestServer('sqlite');
    const made = await t.request('POST', '/api/v1/guest-wallets', {
      key: null,
      body: { amount_minor: 1000, currency: 'USD' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(made.status).toBe(201);
    guestKey = made.body.api_key;
    const approved = await t.request('POST', `${new URL(made.body.checkout_url).pathname}/approve`, {});
    expect(approved.status).toBeLessThan(400);
  });
  afterAll(() => t?.close());

  it('are 33 read-only GET routes: 26 paid reads and the 7 machine-payment reads', () => {
    // Beyond them a guest key only posts the viral score (spec 4.11) and manages its own wallet.
    const others = Object.values(operations).filter(
      (op) => (op.auth as readonly string[]).includes('guest') && !guestOps.includes(op),
    );
    expect(others.map((op) => op.id).sort()).toEqual([
      'getGuestWalletStatus',
      'topUpGuestWallet',
      'viralScore',
    ]);
    expect(guestOps).toHaveLength(33);
    const mpp = guestOps.filter((op) => (op.auth as readonly string[]).includes('payment'));
    expect(mpp).toHaveLength(7);
    const ids = guestOps.map((op) => op.id);
    expect(ids).not.toContain('getUserListMemberships');
    expect(ids).not.toContain('getJob');
  });

  it('reads with a paid guest key, and is refused on the account-only reads', async () => {
    const asGuest = { key: null, headers: { authorization: `Bearer ${guestKey}` } };
    expect((await t.request('GET', '/api/v1/x/users/jack', asGuest)).status).toBe(200);
    for (const url of ['/api/v1/x/users/jack/list-memberships', '/api/v1/x/jobs/1']) {
      const r = await t.request('GET', url, asGuest);
      expect([url, r.status, r.body.error]).toEqual([url, 401, 'unauthenticated']);
    }
    // The account still reads them.
    expect((await t.request('GET', '/api/v1/x/users/jack/list-memberships')).status).toBe(200);
  });
});
