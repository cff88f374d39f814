import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/config.js';
import { IDEMPOTENCY_SWEEP_KIND } from '../../src/core/idempotency/sweep.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';
import { setBalance } from '../reads/fixtures.js';
import { write } from '../writes/helpers.js';
import { connectThroughApi, newSimUser } from '../x-accounts/helpers.js';

const DAY = 86_400_000;

/**
 * `Idempotency-Key` answers are kept for the replay window (90 days by default) and swept by the jobs engine
 * afterwards; what a replay gets after the sweep depends on what else keeps the key: a write's action
 * (permanent history) answers it again, a guest-wallet purchase keeps the key spent (409), a support
 * message keeps nothing (the key is new again).
 */
describe.each(ENGINES)('Idempotency-Key expiry (%s)', (engine) => {
  let t: TestServer & { accountId: string };
  let me: { id: string };
  beforeAll(async () => {
    t = (await startTestServer(engine)) as TestServer & { accountId: string };
    await t.server.app.ready();
    await setBalance(t, t.accountId, 1_000_000);
    me = await connectThroughApi(t, (await newSimUser(t, 'keys')).username);
  });
  afterAll(async () => t?.close());

  const db = () => t.server.services.database.db;
  const stored = async (key: string) =>
    (await db().selectFrom('idempotency_keys').select('key').where('key', '=', key).execute()).length;
  const sweep = () => t.server.services.jobs.runDue([IDEMPOTENCY_SWEEP_KIND]);

  it('keeps answers for 90 days, then the sweep deletes them (and only them), hourly', async () => {
    const old = randomUUID();
    const body = { account: me.id, text: 'kept for the window' };
    expect((await write(t, 'POST', '/api/v1/x/tweets', body, { idempotencyKey: old })).status).toBe(200);
    t.clock.advance(89 * DAY);
    const young = randomUUID();
    const other = { account: me.id, text: 'younger' };
    expect((await write(t, 'POST', '/api/v1/x/tweets', other, { idempotencyKey: young })).status).toBe(200);
    await sweep();
    expect([await stored(old), await stored(young)]).toEqual([1, 1]);
    // Kept for the whole 90 days; swept at the first run after them.
    t.clock.advance(DAY);
    await sweep();
    expect(await stored(old)).toBe(1);
    t.clock.advance(3_600_000);
    await sweep();
    expect([await stored(old), await stored(young)]).toEqual([0, 1]);
    // The sweep is one recurring job, due again an hour later.
    const job = await db()
      .selectFrom('jobs')
      .select(['run_at'])
      .where('kind', '=', IDEMPOTENCY_SWEEP_KIND)
      .execute();
    expect(job.map((j) => Number(j.run_at))).toEqual([t.clock.now() + 3_600_000]);
  });

  it('a write replayed after the sweep answers its action again; another request under the key is 409', async () => {
    const key = randomUUID();
    const body = { account: me.id, text: 'replayed after 91 days' };
    const first = await write(t, 'POST', '/api/v1/x/tweets', body, { idempotencyKey: key });
    expect(first.status).toBe(200);
    t.clock.advance(91 * DAY);
    await sweep();
    expect(await stored(key)).toBe(0);
    const again = await write(t, 'POST', '/api/v1/x/tweets', body, { idempotencyKey: key });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect([again.body.id, again.body.idempotent]).toEqual([first.body.id, true]);
    const other = await write(
      t,
      'POST',
      '/api/v1/x/tweets',
      { ...body, text: 'else' },
      { idempotencyKey: key },
    );
    expect([other.status, other.body.error]).toEqual([409, 'idempotency_conflict']);
    const actions = await db()
      .selectFrom('write_actions')
      .select('id')
      .where('idempotency_key', '=', key)
      .execute();
    expect(actions).toHaveLength(1);
  });

  it('a guest-wallet checkout replayed after the sweep is 409: no second wallet, no key handed out again', async () => {
    const key = randomUUID();
    const create = () =>
      t.request('POST', '/api/v1/guest-wallets', {
        key: null,
        body: { amount_minor: 1000, currency: 'usd' },
        headers: { 'idempotency-key': key },
      });
    const made = await create();
    expect(made.status).toBe(201);
    expect((await create()).body.api_key).toBe(made.body.api_key);
    const wallets = async () => (await db().selectFrom('guest_wallets').select('id').execute()).length;
    const before = await wallets();
    t.clock.advance(91 * DAY);
    await sweep();
    const late = await create();
    expect([late.status, late.body.error]).toEqual([409, 'idempotency_key_conflict']);
    expect(JSON.stringify(late.body)).not.toContain(made.body.api_key);
    expect(await wallets()).toBe(before);
  });

  it('a support ticket replayed after the sweep is a new ticket: the key is forgotten with its answer', async () => {
    const key = `ticket-${randomUUID()}`;
    const send = () =>
      t.request('POST', '/api/v1/support/tickets', {
        body: { subject: 'Replay window', body: 'Sent twice.' },
        headers: { 'idempotency-key': key },
      });
    const first = await send();
    expect(first.status).toBe(201);
    const replay = await send();
    expect([replay.status, replay.body.publicId]).toEqual([200, first.body.publicId]);
    t.clock.advance(91 * DAY);
    await sweep();
    const late = await send();
    expect(late.status).toBe(201);
    expect(late.body.publicId).not.toBe(first.body.publicId);
  });
});

describe('XSVC_IDEMPOTENCY_RETENTION_DAYS', () => {
  it('defaults to 90, accepts longer windows and refuses shorter ones', () => {
    expect(parseConfig({}).idempotencyRetentionDays).toBe(90);
    expect(parseConfig({ idempotencyRetentionDays: '365' }).idempotencyRetentionDays).toBe(365);
    expect(() => parseConfig({ idempotencyRetentionDays: '30' })).toThrow(/at least 90/);
  });

  it('a longer window keeps answers past 90 days', async () => {
    const t = await startTestServer('sqlite', { idempotencyRetentionDays: 120 });
    try {
      await t.server.app.ready();
      const key = `ticket-${randomUUID()}`;
      const send = () =>
        t.request('POST', '/api/v1/support/tickets', {
          body: { subject: 'Long window', body: 'Kept.' },
          headers: { 'idempotency-key': key },
        });
      const first = await send();
      t.clock.advance(100 * DAY);
      await t.server.services.jobs.runDue([IDEMPOTENCY_SWEEP_KIND]);
      const replay = await send();
      expect([replay.status, replay.body.publicId]).toEqual([200, first.body.publicId]);
      t.clock.advance(21 * DAY);
      await t.server.services.jobs.runDue([IDEMPOTENCY_SWEEP_KIND]);
      expect((await send()).status).toBe(201);
    } finally {
      await t.close();
    }
  });
});
