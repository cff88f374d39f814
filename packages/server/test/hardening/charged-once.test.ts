import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGiveaway, type Giveaway } from '../draws/conversation.js';
import { type FeatureServer, startServer } from '../extractions/helpers.js';
import { ENGINES } from '../helpers/server.js';

/** A write of one table that fails from now on (a full disk, a lost connection), until `heal()`. */
async function breakInserts(t: FeatureServer, table: string): Promise<() => Promise<void>> {
  const { database } = t.server.services;
  const { db } = database;
  if (database.dialect === 'sqlite') {
    await sql
      .raw(
        `create trigger fail_${table} before insert on ${table} begin select raise(abort, 'disk full'); end`,
      )
      .execute(db);
    return async () => {
      await sql.raw(`drop trigger fail_${table}`).execute(db);
    };
  }
  await sql
    .raw(
      `create or replace function fail_${table}() returns trigger as $$ begin raise exception 'disk full'; end $$ language plpgsql`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger fail_${table} before insert on ${table} for each row execute function fail_${table}()`,
    )
    .execute(db);
  return async () => {
    await sql.raw(`drop trigger fail_${table} on ${table}`).execute(db);
  };
}

async function ledgerRows(t: FeatureServer, operation: string): Promise<number> {
  const rows = await t.server.services.database.db
    .selectFrom('credit_ledger')
    .select('id')
    .where('account_id', '=', t.accountId)
    .where('operation', 'like', `${operation}%`)
    .execute();
  return rows.length;
}

describe.each(ENGINES)('a charge commits with what it pays for, or not at all (%s)', (engine) => {
  let t: FeatureServer;
  let g: Giveaway;
  beforeAll(async () => {
    t = await startServer(engine, { extractions: { autoStart: false, pageSize: 20 } });
    g = await buildGiveaway(t, 'co');
  });
  afterAll(async () => t?.close());

  it('chargeWithin: the charge and its ledger row roll back with the transaction', async () => {
    const { credits, database } = t.server.services;
    const before = await credits.balance(t.accountId);
    await expect(
      database.db.transaction().execute(async (trx) => {
        expect(await credits.chargeWithin(trx, t.accountId, 'probe', 7, 1)).toBe(before - 7n);
        throw new Error('the store failed');
      }),
    ).rejects.toThrow('the store failed');
    expect(await credits.balance(t.accountId)).toBe(before);
    expect(await ledgerRows(t, 'probe')).toBe(0);
    await database.db.transaction().execute((trx) => credits.payWithin(trx, t.accountId, 'probe', 7, 1));
    expect(await credits.balance(t.accountId)).toBe(before - 7n);
    expect(await ledgerRows(t, 'probe')).toBe(1);
    // More than the balance: nothing written, 402 when asked to pay.
    await expect(
      database.db
        .transaction()
        .execute((trx) => credits.payWithin(trx, t.accountId, 'probe', 1, Number.MAX_SAFE_INTEGER)),
    ).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(await ledgerRows(t, 'probe')).toBe(1);
  });

  it('an extraction page whose results cannot be stored is not charged; read again, it is charged once', async () => {
    const created = await t.request('POST', '/api/v1/extractions', {
      body: { toolType: 'follower_explorer', targetUsername: 'jack' },
    });
    expect(created.status).toBe(202);
    const heal = await breakInserts(t, 'extraction_results');
    await t.runner.step(created.body.id, 1);
    expect(await ledgerRows(t, 'createExtraction')).toBe(0);
    await heal();
    await t.runner.runPending();
    const job = (await t.request('GET', `/api/v1/extractions/${created.body.id}`)).body.job;
    expect(job.status).toBe('completed');
    const charged = await t.server.services.database.db
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.sum<string>('delta').as('d'))
      .where('account_id', '=', t.accountId)
      .where('operation', 'like', 'createExtraction%')
      .executeTakeFirstOrThrow();
    expect(-Number(charged.d)).toBe(job.totalResults);
    expect(await ledgerRows(t, 'createExtraction:refund')).toBe(0);
  });

  it('a draw that cannot be stored is not charged (no charge-then-refund pair); stored, it is charged once', async () => {
    const before = await t.server.services.credits.balance(t.accountId);
    const heal = await breakInserts(t, 'draw_entries');
    const failed = await t.request('POST', '/api/v1/draws', {
      body: { tweetUrl: g.tweetUrl, winnerCount: 1 },
    });
    await heal();
    expect(failed.status).toBe(500);
    expect(await t.server.services.credits.balance(t.accountId)).toBe(before);
    expect(await ledgerRows(t, 'createDraw')).toBe(0);
    const ok = await t.request('POST', '/api/v1/draws', { body: { tweetUrl: g.tweetUrl, winnerCount: 1 } });
    expect(ok.status).toBe(201);
    expect(await ledgerRows(t, 'createDraw')).toBe(1);
  });

  it('a style whose tweets cannot be stored is not charged; analyzed again, it is charged once', async () => {
    const before = await t.server.services.credits.balance(t.accountId);
    const heal = await breakInserts(t, 'styles');
    const failed = await t.request('POST', '/api/v1/styles', { body: { username: 'jack' } });
    await heal();
    expect(failed.status).toBe(500);
    expect(await t.server.services.credits.balance(t.accountId)).toBe(before);
    expect(await ledgerRows(t, 'analyzeStyle')).toBe(0);
    const ok = await t.request('POST', '/api/v1/styles', { body: { username: 'jack' } });
    expect(ok.status).toBe(201);
    expect(await ledgerRows(t, 'analyzeStyle')).toBe(1);
  });

  it('a monitor that cannot be stored charges no hour; two creates at once charge one', async () => {
    await t.request('POST', '/sim/users', { body: { username: 'co_watch', eventTypes: ['tweet.new'] } });
    const heal = await breakInserts(t, 'monitors');
    const failed = await t.request('POST', '/api/v1/monitors', {
      body: { username: 'co_watch', eventTypes: ['tweet.new'] },
    });
    await heal();
    expect(failed.status).toBe(500);
    expect(await ledgerRows(t, 'monitor:hourly')).toBe(0);
    const both = await Promise.all([
      t.request('POST', '/api/v1/monitors', { body: { username: 'co_watch', eventTypes: ['tweet.new'] } }),
      t.request('POST', '/api/v1/monitors', { body: { username: 'co_watch', eventTypes: ['tweet.new'] } }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await ledgerRows(t, 'monitor:hourly')).toBe(1);
  });
});
