import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/core/auth/accounts.js';
import { BALANCE_CACHE_TTL_MS } from '../../src/core/billing/balance-cache.js';
import { Credits } from '../../src/core/billing/credits.js';
import { systemClock } from '../../src/core/clock.js';
import { big, type Db, openDatabase } from '../../src/core/db/database.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { ENGINES, testDatabase } from '../helpers/server.js';

/**
 * Charges as the metered reads make them: many at once (on SQLite they share one commit), each still a ledger
 * row with the balance after it, refused alone when it cannot be paid or fails.
 */
describe.each(ENGINES)('charges under concurrency (%s)', (engine) => {
  let database: Db;
  let drop: () => Promise<void>;
  let credits: Credits;
  let a: string;
  let b: string;

  beforeAll(async () => {
    ({ database, drop } = await testDatabase(engine));
    await migrateToLatest(database);
    credits = new Credits(database, systemClock);
    const now = Date.UTC(2026, 3, 29);
    a = (await createAccount(database.db, { email: 'a@example.com', isOwner: false, credits: 0n, now })).id;
    b = (await createAccount(database.db, { email: 'b@example.com', isOwner: false, credits: 0n, now })).id;
  });
  afterAll(async () => drop?.());

  const setBalance = (id: string, credits: bigint) =>
    database.db.updateTable('accounts').set({ credits_balance: credits }).where('id', '=', id).execute();
  const ledger = (id: string) =>
    database.db
      .selectFrom('credit_ledger')
      .select(['delta', 'balance_after', 'request_id', 'units'])
      .where('account_id', '=', id)
      .where('operation', 'like', 'test:%')
      .execute();
  const account = (id: string) =>
    database.db
      .selectFrom('accounts')
      .select(['credits_balance', 'lifetime_used'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  beforeEach(async () => {
    await sql`delete from credit_ledger where operation like 'test:%'`.execute(database.db);
    await database.db.updateTable('accounts').set({ lifetime_used: 0n }).execute();
  });

  it('writes one ledger row per charge whose balances retrace the charges in order', async () => {
    await setBalance(a, 1_000n);
    await setBalance(b, 1_000n);
    const amounts = Array.from({ length: 40 }, (_, i) => 1 + (i % 5));
    const afters = await Promise.all(
      amounts.map((n, i) => credits.charge(i % 2 ? b : a, 'test:mixed', n, 3, `req-${i}`)),
    );
    for (const [id, parity] of [
      [a, 0],
      [b, 1],
    ] as const) {
      const mine = amounts.filter((_, i) => i % 2 === parity);
      const spent = BigInt(mine.reduce((s, n) => s + n * 3, 0));
      const row = await account(id);
      expect(big(row.credits_balance)).toBe(1_000n - spent);
      expect(big(row.lifetime_used)).toBe(spent);
      const rows = await ledger(id);
      expect(rows).toHaveLength(mine.length);
      expect(rows.reduce((s, r) => s + big(r.delta), 0n)).toBe(-spent);
      // Each row's balance_after is the balance right after that charge: they chain from 1000 down.
      const chain = rows
        .map((r) => ({ after: big(r.balance_after), delta: big(r.delta) }))
        .sort((x, y) => (x.after > y.after ? -1 : 1));
      let balance = 1_000n;
      for (const r of chain) {
        balance += r.delta;
        expect(r.after).toBe(balance);
      }
    }
    // Every caller got the balance after its own charge, as stored in its ledger row.
    const byRequest = new Map(
      [...(await ledger(a)), ...(await ledger(b))].map((r) => [r.request_id, big(r.balance_after)]),
    );
    afters.forEach((after, i) => {
      expect(byRequest.get(`req-${i}`)).toBe(after);
    });
  });

  it('refuses exactly the charges the balance cannot cover, each with 402, writing nothing for them', async () => {
    await setBalance(a, 10n);
    const amounts = [4, 4, 4, 2];
    const results = await Promise.allSettled(
      amounts.map((n, i) => credits.charge(a, 'test:short', n, 1, `short-${i}`)),
    );
    const paid = amounts.filter((_, i) => results[i]?.status === 'fulfilled');
    const spent = BigInt(paid.reduce((s, n) => s + n, 0));
    for (const r of results) {
      if (r.status === 'rejected')
        expect(r.reason).toMatchObject({ code: 'insufficient_credits', status: 402 });
    }
    // Whatever the order, the balance covers what was paid and nothing refused would still have fitted.
    expect(spent).toBeLessThanOrEqual(10n);
    const refusedAmounts = amounts.filter((_, i) => results[i]?.status === 'rejected');
    expect(refusedAmounts.every((n) => BigInt(n) > 10n - spent)).toBe(true);
    expect(big((await account(a)).credits_balance)).toBe(10n - spent);
    const paidIds = amounts.flatMap((_, i) => (results[i]?.status === 'fulfilled' ? [`short-${i}`] : []));
    expect((await ledger(a)).map((r) => r.request_id).sort()).toEqual(paidIds);
    if (engine === 'sqlite') {
      // Queued in one batch, they run in order: 4 + 4 fit, the third 4 does not, the final 2 still does.
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    }
  });

  it('fails a charge whose ledger row cannot be written alone, leaving the balance untouched by it', async () => {
    await setBalance(a, 100n);
    // A trigger stands in for any failure of the insert after the decrement succeeded.
    const trigger =
      engine === 'sqlite'
        ? sql`create trigger refuse_boom before insert on credit_ledger when new.operation = 'test:boom' begin select raise(abort, 'boom'); end`
        : sql`create function refuse_boom() returns trigger language plpgsql as $$ begin if new.operation = 'test:boom' then raise exception 'boom'; end if; return new; end $$`;
    await trigger.execute(database.db);
    if (engine === 'postgres') {
      await sql`create trigger refuse_boom before insert on credit_ledger for each row execute function refuse_boom()`.execute(
        database.db,
      );
    }
    try {
      const results = await Promise.allSettled([
        credits.charge(a, 'test:ok', 5, 1, 'ok-1'),
        credits.charge(a, 'test:boom', 7, 1, 'boom'),
        credits.charge(a, 'test:ok', 5, 1, 'ok-2'),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(String((results[1] as PromiseRejectedResult).reason)).toContain('boom');
      expect(big((await account(a)).credits_balance)).toBe(90n);
      expect((await ledger(a)).map((r) => r.request_id).sort()).toEqual(['ok-1', 'ok-2']);
    } finally {
      await sql`drop trigger refuse_boom${sql.raw(engine === 'postgres' ? ' on credit_ledger' : '')}`.execute(
        database.db,
      );
      if (engine === 'postgres') await sql`drop function refuse_boom()`.execute(database.db);
    }
  });

  it('waits for a transaction that is open on the connection instead of joining it', async () => {
    await setBalance(a, 50n);
    let charged: Promise<bigint> | undefined;
    await database.db.transaction().execute(async (trx) => {
      await trx.updateTable('accounts').set({ locale: 'es' }).where('id', '=', a).execute();
      charged = credits.charge(a, 'test:during', 3, 1, 'during');
      // Give the charge every chance to run while the transaction is still open.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      await trx.updateTable('accounts').set({ locale: 'en' }).where('id', '=', a).execute();
    });
    expect(await charged).toBe(47n);
    expect(big((await account(a)).credits_balance)).toBe(47n);
    expect((await ledger(a)).map((r) => big(r.balance_after))).toEqual([47n]);
  });

  it('rolls a failed transaction back without taking a charge queued meanwhile with it', async () => {
    await setBalance(a, 20n);
    let charged: Promise<bigint> | undefined;
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx.updateTable('accounts').set({ locale: 'es' }).where('id', '=', a).execute();
        charged = credits.charge(a, 'test:rollback', 2, 1, 'kept');
        for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
        throw new Error('abort the transaction');
      }),
    ).rejects.toThrow('abort');
    expect(await charged).toBe(18n);
    expect((await ledger(a)).map((r) => r.request_id)).toEqual(['kept']);
  });

  it('answers balances as stored, after charges and after any other write', async () => {
    const stored = async (id: string) => big((await account(id)).credits_balance);
    await setBalance(a, 500n);
    expect(await credits.balance(a)).toBe(500n);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => credits.charge(a, 'test:bal', 1 + (i % 3), 2, `bal-${i}`)),
    );
    expect(await credits.balance(a)).toBe(await stored(a));
    expect(await credits.balance(a)).toBe(500n - 2n * 24n);
    await setBalance(a, 7n);
    expect(await credits.balance(a)).toBe(7n);
    expect(await credits.affordable(a, 10, 2)).toBe(3);
    await credits.grant(a, 5n, 'test:grant');
    expect(await credits.balance(a)).toBe(12n);
    await setBalance(a, 0n);
    await expect(credits.affordable(a, 1, 1)).rejects.toMatchObject({ code: 'insufficient_credits' });
  });
});

describe('balances on a SQLite file another process writes', () => {
  it('sees a balance written through another connection within the cache TTL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xsvc-balance-'));
    const file = join(dir, 'balance.db');
    const server = await openDatabase(file);
    const tool = await openDatabase(file);
    try {
      await migrateToLatest(server);
      let now = Date.UTC(2026, 3, 29, 12);
      const credits = new Credits(server, { now: () => now });
      const id = (
        await createAccount(server.db, { email: 'c@example.com', isOwner: false, credits: 9n, now })
      ).id;
      expect(await credits.balance(id)).toBe(9n);
      await credits.charge(id, 'test:file', 1, 1);
      expect(await credits.balance(id)).toBe(8n);
      await tool.db.updateTable('accounts').set({ credits_balance: 100n }).where('id', '=', id).execute();
      now += BALANCE_CACHE_TTL_MS;
      expect(await credits.balance(id)).toBe(100n);
    } finally {
      await tool.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
