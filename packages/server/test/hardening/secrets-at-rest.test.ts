import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';

describe.each(ENGINES)('no credential stored in clear (%s)', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine);
  });
  afterAll(async () => t?.close());

  it('keeps the guest key of an idempotent answer sealed; a replay still returns it', async () => {
    const idem = randomUUID();
    const create = () =>
      t.request('POST', '/api/v1/guest-wallets', {
        key: null,
        body: { amount_minor: 1000, currency: 'USD' },
        headers: { 'idempotency-key': idem },
      });
    const first = await create();
    expect(first.status).toBe(201);
    const guestKey = first.body.api_key as string;
    expect(guestKey).toMatch(/^sgk_[0-9a-f]{64}$/);
    const rows = await t.server.services.database.db
      .selectFrom('guest_purchases')
      .select('response')
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    const secretHex = guestKey.slice(4);
    for (const row of rows) expect(row.response ?? '').not.toContain(secretHex);
    const replay = await create();
    expect([replay.status, replay.body]).toEqual([201, first.body]);
    const status = await t.request('GET', '/api/v1/guest-wallets/status', {
      key: null,
      headers: { authorization: `Bearer ${guestKey}` },
    });
    expect(status.status).toBe(200);
  });
});
