import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/core/db/database.js';
import {
  inList,
  inListText,
  inListValue,
  isPostgres,
  jsonRows,
  jsonRowsText,
  jsonRowsValue,
  numbered,
} from '../../src/core/db/lists.js';
import { ENGINES, testDatabase } from '../helpers/server.js';

/** The statements a database ran while `fn` ran (its SQL texts), through a Kysely log hook. */
async function texts(database: Db, fn: (db: Db['db']) => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  // A Kysely of its own (same connection), whose executor records each compiled statement.
  const db = database.db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async (args) => args.result,
  });
  const executor = db.getExecutor();
  const original = executor.executeQuery.bind(executor);
  executor.executeQuery = (<R>(compiled: CompiledQuery<R>) => {
    seen.push(compiled.sql);
    return original(compiled);
  }) as typeof executor.executeQuery;
  await fn(db);
  return seen;
}

describe.each(ENGINES)('lists bound as one parameter, on %s', (engine) => {
  let database: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await testDatabase(engine));
    await sql`create table list_t (id text primary key, n bigint, label text)`.execute(database.db);
  });
  afterAll(async () => drop?.());

  it('tells the dialect of a database and of a transaction on it', async () => {
    expect(isPostgres(database.db)).toBe(engine === 'postgres');
    await database.db.transaction().execute(async (trx) => {
      expect(isPostgres(trx)).toBe(engine === 'postgres');
    });
  });

  const COLUMNS = { id: 'text', n: 'bigint', label: 'text' } as const;
  const insert = (db: Db['db'], rows: { id: string; n: number | null; label: string | null }[]) =>
    sql`insert into list_t (id, n, label) select id, n, label from ${jsonRows(db, 'j', COLUMNS, rows)}`.execute(
      db,
    );

  it('inserts rows of any count with one statement text, past the engines’ parameter limits', async () => {
    const many = Array.from({ length: 40_000 }, (_, i) => ({
      id: `r${String(i).padStart(6, '0')}`,
      n: i % 7 === 0 ? null : 1_700_000_000_000 + i,
      label: i % 5 === 0 ? null : `it's "row" ${i} ✓`,
    }));
    const seen = await texts(database, async (db) => {
      await insert(db, many.slice(0, 3));
      await insert(db, many.slice(3));
    });
    expect(seen).toHaveLength(2);
    expect(new Set(seen).size).toBe(1);
    const back = await database.db
      .selectFrom('list_t' as never)
      .select(['id', 'n', 'label'] as never[])
      .where(inList(database.db, 'id', ['r000000', 'r000001', 'r000005', 'r039999']))
      .orderBy('id' as never)
      .execute();
    expect(
      back.map((r) => ({
        ...(r as object),
        n: (r as { n: unknown }).n === null ? null : Number((r as { n: unknown }).n),
      })),
    ).toEqual([
      { id: 'r000000', n: null, label: null },
      { id: 'r000001', n: 1_700_000_000_001, label: `it's "row" 1 ✓` },
      { id: 'r000005', n: 1_700_000_000_005, label: null },
      { id: 'r039999', n: 1_700_000_039_999, label: `it's "row" 39999 ✓` },
    ]);
  });

  it('selects by a list of any size with one statement text; an empty list matches nothing', async () => {
    const ids = Array.from({ length: 40_000 }, (_, i) => `r${String(i).padStart(6, '0')}`);
    const count = (db: Db['db'], list: string[]) =>
      sql<{ c: number | bigint | string }>`select count(*) as c from list_t where ${inList(db, 'id', list)}`
        .execute(db)
        .then((r) => Number(r.rows[0]?.c));
    let counts: number[] = [];
    const seen = await texts(database, async (db) => {
      counts = [
        await count(db, ids.slice(0, 2)),
        await count(db, ids),
        await count(db, []),
        await count(db, ['nope', "x' or 1=1 --"]),
      ];
    });
    expect(counts).toEqual([2, 40_000, 0, 0]);
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(1);
  });

  it('updates from rows in one statement, and big integers survive as numbers', async () => {
    await database.db.transaction().execute(async (trx) => {
      const rows = [
        { id: 'r000001', n: 42, label: 'changed' },
        { id: 'r000002', n: 9_007_199_254_740_991n, label: null },
        { id: 'missing', n: 1, label: 'x' },
      ];
      const r = await sql<{ id: string }>`
        update list_t set n = j.n, label = j.label from ${jsonRows(trx, 'j', COLUMNS, rows)}
        where list_t.id = j.id returning list_t.id`.execute(trx);
      expect(r.rows.map((x) => x.id).sort()).toEqual(['r000001', 'r000002']);
    });
    const back = await sql<{ id: string; n: unknown; label: string | null }>`
      select id, n, label from list_t where id in ('r000001', 'r000002') order by id`.execute(database.db);
    expect(back.rows.map((r) => [r.id, Number(r.n), r.label])).toEqual([
      ['r000001', 42, 'changed'],
      ['r000002', 9_007_199_254_740_991, null],
    ]);
  });

  it('writes, for statements whose text is written once, what the builders compile, and runs them', async () => {
    const pg = engine === 'postgres';
    const ids = ['r000001', 'r000002', "x' or 1=1 --"];
    const built = sql`select id from list_t where ${inList(database.db, 'id', ids)} and n > ${0}`.compile(
      database.db,
    );
    const text = numbered(pg, `select id from list_t where ${inListText(pg, 'id')} and n > ?`);
    expect(text).toBe(built.sql);
    expect([inListValue(pg, ids), 0]).toEqual(built.parameters);
    const found = await database.db.executeQuery<{ id: string }>(
      CompiledQuery.raw(text, [inListValue(pg, ids), 0]),
    );
    expect(found.rows.map((r) => r.id).sort()).toEqual(['r000001', 'r000002']);

    const rows = [
      { id: 'w1', n: 7, label: `it's "new" ✓` },
      { id: 'w2', n: 9_007_199_254_740_991n, label: null },
    ];
    const cells = rows.map((r) => [r.id, r.n, r.label]);
    const insert =
      sql`insert into list_t (id, n, label) select id, n, label from ${jsonRows(database.db, 'j', COLUMNS, rows)}`.compile(
        database.db,
      );
    const insertText = numbered(
      pg,
      `insert into list_t (id, n, label) select id, n, label from ${jsonRowsText(pg, 'j', COLUMNS)}`,
    );
    expect(insertText).toBe(insert.sql);
    expect([jsonRowsValue(pg, COLUMNS, cells)]).toEqual(insert.parameters);
    await database.db.executeQuery(CompiledQuery.raw(insertText, [jsonRowsValue(pg, COLUMNS, cells)]));
    const back = await sql<{ id: string; n: unknown; label: string | null }>`
      select id, n, label from list_t where id in ('w1', 'w2') order by id`.execute(database.db);
    expect(back.rows.map((r) => [r.id, Number(r.n), r.label])).toEqual([
      ['w1', 7, `it's "new" ✓`],
      ['w2', 9_007_199_254_740_991, null],
    ]);
    expect(numbered(true, 'a = ? and b in (?, ?)')).toBe('a = $1 and b in ($2, $3)');
    expect(numbered(false, 'a = ? and b = ?')).toBe('a = ? and b = ?');
    expect(() => inListText(pg, 'id) or (1')).toThrow(/bad name/);
    expect(() => jsonRowsText(pg, 'j; drop table x', COLUMNS)).toThrow(/bad name/);
  });

  it('refuses names that are not plain identifiers', () => {
    expect(() => jsonRows(database.db, 'j; drop table x', COLUMNS, [])).toThrow(/bad name/);
    expect(() => jsonRows(database.db, 'j', { 'id) --': 'text' }, [])).toThrow(/bad name/);
  });
});
