import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createAccount } from '../../src/core/auth/accounts.js';
import { prepared, syncSqlite, writeStamp } from '../../src/core/db/database.js';
import { ENGINES, useMigratedDatabase } from '../helpers/server.js';

/** The synchronous SQLite helpers of the hot paths: when they may run, and what counts as a write. */
describe.each(ENGINES)('synchronous statements and write stamps (%s)', (engine) => {
  const current = useMigratedDatabase(engine);

  it('offers the SQLite handle only outside transactions, never on Postgres', async () => {
    const database = current();
    if (engine === 'postgres') {
      expect(syncSqlite(database.db)).toBeUndefined();
      return;
    }
    expect(syncSqlite(database.db)).toBe(database.sqlite);
    await database.db.transaction().execute(async (trx) => {
      // Inside: neither the root handle (a statement would join the transaction) nor the transaction's own.
      expect(syncSqlite(database.db)).toBeUndefined();
      expect(syncSqlite(trx)).toBeUndefined();
      await trx.selectFrom('accounts').select('id').execute();
    });
    expect(syncSqlite(database.db)).toBe(database.sqlite);
  });

  it('shares one prepared statement per SQL text with the Kysely driver', () => {
    const database = current();
    if (!database.sqlite) return;
    const a = prepared(database.sqlite, 'select count(*) as n from accounts');
    expect(prepared(database.sqlite, 'select count(*) as n from accounts')).toBe(a);
    expect(prepared(database.sqlite, 'select count(*) as m from accounts')).not.toBe(a);
  });

  it('counts statements that may write the watched tables, and only those', async () => {
    const database = current();
    const stamp = writeStamp(database.db, ['api_keys', 'accounts']);
    if (engine === 'postgres') {
      // Other instances write a shared Postgres: no in-process stamp can vouch for a cached row there.
      expect(stamp).toBeUndefined();
      return;
    }
    if (!stamp) throw new Error('SQLite has write stamps');
    const other = writeStamp(database.db, ['sim_users']);
    if (!other) throw new Error('SQLite has write stamps');
    const start = stamp();
    await database.db.selectFrom('accounts').selectAll().execute();
    await database.db.selectFrom('api_keys').selectAll().execute();
    expect(stamp()).toBe(start);
    const account = await createAccount(database.db, {
      email: 'stamp@example.com',
      isOwner: false,
      credits: 0n,
      now: 1,
    });
    const afterInsert = stamp();
    expect(afterInsert).toBeGreaterThan(start);
    await database.db.updateTable('accounts').set({ locale: 'es' }).where('id', '=', account.id).execute();
    expect(stamp()).toBeGreaterThan(afterInsert);
    const beforeRaw = stamp();
    await sql`delete from api_keys where account_id = ${account.id}`.execute(database.db);
    expect(stamp()).toBeGreaterThan(beforeRaw);
    // Other tables leave it alone; the other watch saw none of these.
    const beforeOther = stamp();
    await database.db.deleteFrom('sessions').where('account_id', '=', account.id).execute();
    expect(stamp()).toBe(beforeOther);
    expect(other()).toBe(0);
  });

  it('has no stamps for a transaction handle', async () => {
    const database = current();
    await database.db.transaction().execute(async (trx) => {
      expect(writeStamp(trx, ['accounts'])).toBeUndefined();
    });
  });
});
