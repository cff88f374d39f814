import { PostgresAdapter, type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * Lists bound as ONE parameter. Kysely spells `where id in (…)` with a placeholder per value and a
 * multi-row insert with one per cell, so every batch size is a statement of its own: each is parsed (and,
 * on SQLite, prepared) anew, and batches of thousands meet the engines' parameter limits. These helpers bind a
 * whole list as one JSON text (SQLite, read with `json_each`) or one array / JSON value (Postgres), so a hot
 * statement has one text whatever the batch size, and stays prepared.
 */

/** A Kysely database or transaction, of any schema. */
export interface AnyKysely {
  getExecutor(): { readonly adapter: unknown };
}

/** Whether `db` (a database or a transaction on it) speaks Postgres. */
export function isPostgres(db: AnyKysely): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** What is derived from one list of ids, kept while the caller holds on to the list. */
interface Derived {
  json?: string;
  array?: string[];
}

const derived = new WeakMap<readonly string[], Derived>();

/**
 * `column` is one of `ids` (text), the whole list bound as one parameter: a JSON array read with
 * `json_each` on SQLite, a `text[]` on Postgres. What a list derives is kept while the caller keeps the same
 * array (the monitors' engine passes the same one every second).
 */
export function inList(db: AnyKysely, column: string, ids: readonly string[]): RawBuilder<SqlBool> {
  let d = derived.get(ids);
  if (!d) {
    d = {};
    derived.set(ids, d);
  }
  if (isPostgres(db)) {
    d.array ??= [...ids];
    return sql<SqlBool>`${sql.ref(column)} = any(${d.array}::text[])`;
  }
  d.json ??= JSON.stringify(ids);
  return sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${d.json}))`;
}

/** The type of a column of {@link jsonRows} (what Postgres reads it as; SQLite keeps the JSON's type). */
export type ListColumnType = 'text' | 'integer' | 'bigint';

/** A cell of {@link jsonRows}: numbers, not BigInt (JSON has no BigInt; BigInts are turned into numbers). */
export type ListCell = string | number | bigint | null;

/**
 * Rows bound as one JSON parameter and read back as a table named `alias`, for `insert … select … from`
 * and `update … from` in one statement per batch: on SQLite each row is a JSON array of its cells in the
 * order of `columns`, read `(select value ->> 0 as col, value ->> 1 as … from json_each(?)) as alias`; on
 * Postgres an object per row, read `json_to_recordset(?::json) as alias(col type, …)`. Column names come
 * from the code, never from input.
 *
 * Why arrays on SQLite: `value ->> 'col'` looks each column up by name in the row's object, and a row of
 * ten columns then cost SQLite about 2.8 µs more than binding it as placeholders; by position it costs
 * 0.6 µs more (3.53, 256-row batches, `insert … select`), and the text to bind is shorter. The hot writes of
 * the webhook deliveries bind three such lists per batch (issue #30).
 */
export function jsonRows<C extends string>(
  db: AnyKysely,
  alias: string,
  columns: Readonly<Record<C, ListColumnType>>,
  rows: readonly Readonly<Record<C, ListCell>>[],
): RawBuilder<unknown> {
  const pg = isPostgres(db);
  // The text of {@link jsonRowsText}, with the rows bound where it has its one placeholder.
  const [head, tail] = jsonRowsText(pg, alias, columns).split('?') as [string, string];
  const names = Object.keys(columns) as C[];
  const value = stringify(pg ? rows : rows.map((row) => names.map((n) => row[n])));
  return sql`${sql.raw(head)}${value}${sql.raw(tail)}`;
}

function stringify(rows: readonly object[]): string {
  try {
    return JSON.stringify(rows);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return JSON.stringify(rows, (_key, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
  }
}

/**
 * `insert into "<table>" ("<column>", …) values (…), …<tail>` for `rows` rows, with the engine's
 * placeholders (`?` on SQLite, `$1…` on Postgres): the multi-row insert Kysely compiles, as text built
 * straight from the row count. For hot or bulk inserts that bind their values as a flat list with
 * `CompiledQuery.raw`, and keep the texts of the row counts they use.
 */
export function valuesInsert(
  pg: boolean,
  table: string,
  columns: readonly string[],
  rows: number,
  tail = '',
): string {
  let n = 0;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const row = () => (pg ? `(${columns.map(() => `$${++n}`).join(', ')})` : tuple);
  const tuples = Array.from({ length: rows }, row).join(', ');
  return `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${tuples}${tail}`;
}

/*
 * The same lists for statements whose whole text is written once per engine and run with
 * `CompiledQuery.raw(text, parameters)`: no Kysely node is built, compiled or frozen per call (the hot
 * statements of the webhook deliveries and the jobs engine, issue #30). The texts are what Kysely compiles
 * for {@link inList} and {@link jsonRows}.
 */

/**
 * The statement texts `build` writes for each engine, built once; the function returned picks one engine's
 * (`isPostgres` of the handle that runs them).
 */
export function perEngine<T>(build: (pg: boolean) => T): (pg: boolean) => T {
  const sqlite = build(false);
  const postgres = build(true);
  return (pg) => (pg ? postgres : sqlite);
}

/** `text` for one engine: each `?` becomes `$1`, `$2`… on Postgres (the texts here hold no other `?`). */
export function numbered(pg: boolean, text: string): string {
  if (!pg) return text;
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/** {@link inList}'s condition with its list as the placeholder `?` (bind {@link inListValue}). */
export function inListText(pg: boolean, column: string): string {
  checkName(column);
  return pg ? `"${column}" = any(?::text[])` : `"${column}" in (select value from json_each(?))`;
}

/**
 * The value to bind for an {@link inListText}: a JSON array on SQLite, the array itself on Postgres. The
 * JSON is kept while the caller keeps the array, as {@link inList}'s (one list bound twice is written once).
 */
export function inListValue(pg: boolean, ids: readonly string[]): string | readonly string[] {
  if (pg) return ids;
  let d = derived.get(ids);
  if (!d) {
    d = {};
    derived.set(ids, d);
  }
  d.json ??= JSON.stringify(ids);
  return d.json;
}

/** {@link jsonRows}'s table with its rows as the placeholder `?` (bind {@link jsonRowsValue}). */
export function jsonRowsText(
  pg: boolean,
  alias: string,
  columns: Readonly<Record<string, ListColumnType>>,
): string {
  const names = Object.keys(columns);
  for (const name of [alias, ...names]) checkName(name);
  if (pg)
    return `json_to_recordset(?::json) as ${alias}(${names.map((n) => `${n} ${columns[n]}`).join(', ')})`;
  return `(select ${names.map((n, i) => `value ->> ${i} as ${n}`).join(', ')} from json_each(?)) as ${alias}`;
}

/**
 * The value to bind for a {@link jsonRowsText}, from each row's cells in the order of `columns`: the
 * rows' JSON (arrays on SQLite, objects by column name on Postgres).
 */
export function jsonRowsValue(
  pg: boolean,
  columns: Readonly<Record<string, ListColumnType>>,
  cells: readonly (readonly ListCell[])[],
): string {
  if (!pg) return stringify(cells);
  const names = Object.keys(columns);
  return stringify(cells.map((row) => Object.fromEntries(names.map((n, i) => [n, row[i] ?? null]))));
}

/** Refuses a table, column or alias name that could not be written into a statement's text as it is. */
export function checkName(name: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`lists: bad name ${name}`);
}
