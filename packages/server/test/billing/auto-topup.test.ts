/**
 * Auto top-up (spec 2.2, 8.2): settable (`PATCH /credits/auto-topup`), and triggered when a charge takes the
 * balance under the threshold: one purchase of the amount through the local payment network (a paid
 * `auto_topup` checkout and a `purchase:auto_topup` ledger row), once per crossing. Both engines.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Credits } from '../../src/core/billing/credits.js';
import { systemClock } from '../../src/core/clock.js';
import { openDatabase } from '../../src/core/db/database.js';
import { ENGINES, ownerAccountId, PG_URL, startTestServer, type TestServer } from '../helpers/server.js';
import { setBalance } from '../reads/fixtures.js';

describe.each(ENGINES)('auto top-up (%s)', (engine) => {
  let t: TestServer;
  let ownerId = '';
  beforeAll(async () => {
    t = await startTestServer(engine);
    ownerId = await ownerAccountId(t.server);
  });
  afterAll(() => t?.close());

  const settings = (body: unknown) => t.request('PATCH', '/api/v1/credits/auto-topup', { body });
  const balance = () => t.server.services.credits.balance(ownerId);
  const purchases = () =>
    t.server.services.database.db
      .selectFrom('credit_ledger')
      .select(['delta'])
      .where('account_id', '=', ownerId)
      .where('operation', '=', 'purchase:auto_topup')
      .execute();

  it('is off by default, and refuses settings that cannot work', async () => {
    expect((await t.request('GET', '/api/v1/credits')).body).toMatchObject({ auto_topup_enabled: false });
    expect((await settings({})).body.error).toBe('invalid_input');
    expect((await settings({ auto_topup_amount_dollars: 5 })).status).toBe(400);
    expect((await settings({ auto_topup_threshold: -1 })).status).toBe(400);
    const off = await settings({ auto_topup_enabled: true });
    expect([off.status, off.body.error]).toEqual([400, 'invalid_input']);
  });

  it('is set, and read back by GET /credits', async () => {
    const r = await settings({
      auto_topup_enabled: true,
      auto_topup_threshold: '1000',
      auto_topup_amount_dollars: 10,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      auto_topup_enabled: true,
      auto_topup_threshold: '1000',
      auto_topup_amount_dollars: 10,
    });
    expect((await t.request('GET', '/api/v1/credits')).body).toMatchObject(r.body);
  });

  it('buys the amount once when a charge takes the balance under the threshold', async () => {
    await setBalance(t, ownerId, 1003);
    expect((await t.request('GET', '/api/v1/trends')).status).toBe(200);
    await t.server.services.credits.idle();
    expect(await balance()).toBe(1000n); // at the threshold: not under it
    expect(await purchases()).toHaveLength(0);

    expect((await t.request('GET', '/api/v1/trends')).status).toBe(200);
    await t.server.services.credits.idle();
    expect(await balance()).toBe(997n + 100_000n);
    expect((await purchases()).map((p) => BigInt(p.delta))).toEqual([100_000n]);
    const checkouts = await t.server.services.database.db
      .selectFrom('checkouts')
      .select(['kind', 'status', 'dollars'])
      .where('account_id', '=', ownerId)
      .where('kind', '=', 'auto_topup')
      .execute();
    expect(checkouts.map((c) => [c.status, Number(c.dollars)])).toEqual([['paid', 10]]);
    expect((await t.request('GET', '/api/v1/credits')).body.lifetime_purchased).not.toBe('0');

    // Above the threshold again: further charges buy nothing.
    expect((await t.request('GET', '/api/v1/trends')).status).toBe(200);
    await t.server.services.credits.idle();
    expect(await purchases()).toHaveLength(1);
  });

  it('buys nothing once turned off', async () => {
    expect((await settings({ auto_topup_enabled: false })).body.auto_topup_enabled).toBe(false);
    await setBalance(t, ownerId, 500);
    expect((await t.request('GET', '/api/v1/trends')).status).toBe(200);
    await t.server.services.credits.idle();
    expect(await balance()).toBe(497n);
    expect(await purchases()).toHaveLength(1);
  });

  it.runIf(engine === 'postgres')(
    'another instance on the same database sees the settings at its next charge',
    async () => {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
        t.server.services.database.db,
      );
      const other = await openDatabase(PG_URL, { pgSchema: rows[0]!.schema, poolSize: 2 });
      try {
        const credits = new Credits(other, systemClock);
        // The other instance charges once before the settings change, with auto top-up off.
        await setBalance(t, ownerId, 800);
        await credits.charge(ownerId, 'test:charge', 1, 1);
        await credits.idle();
        expect(await purchases()).toHaveLength(1);
        // Turned on through this instance: the other one's next charge under the threshold buys.
        const on = await settings({
          auto_topup_enabled: true,
          auto_topup_threshold: '1000',
          auto_topup_amount_dollars: 10,
        });
        expect(on.status).toBe(200);
        await credits.charge(ownerId, 'test:charge', 1, 1);
        await credits.idle();
        expect(await purchases()).toHaveLength(2);
        expect(await balance()).toBe(798n + 100_000n);
      } finally {
        await other.close();
      }
    },
  );
});
