/** One cell of an export: text, a number, a yes/no, or nothing (an empty cell). */
export type Cell = string | number | boolean | undefined;

/** One row of an export, by column key. */
export type Row = Readonly<Record<string, Cell>>;

/** A column of an export: `key` names it in CSV, XLSX and JSON, `label` in the documents. */
export interface ExportColumn {
  readonly key: string;
  readonly label: string;
}

/** Rows as a writer reads them: one at a time, so that a file of any size is written in flat memory. */
export type RowSource<T> = Iterable<T> | AsyncIterable<T>;

/**
 * The JSON format's shape when it is not the plain array of rows: `{ ...head, [key]: [item(row)…] }`,
 * written row by row like every other format.
 */
export interface JsonEnvelope<T> {
  readonly head: Readonly<Record<string, unknown>>;
  readonly key: string;
  readonly item: (row: T) => unknown;
}

/**
 * What every export format renders: a titled table with a few facts about it. Each format decides how much
 * of it to show (CSV and XLSX: the rows; the documents: the title and facts too). The rows are read once,
 * as the file is written; `rowCount` says how many they are before any is read (the documents print it,
 * the row caps are checked on it).
 */
export interface ExportTable<T = Row> {
  readonly title: string;
  /** Facts about the whole export (what was exported, when), as label and value. */
  readonly meta: readonly (readonly [string, string])[];
  readonly columns: readonly ExportColumn[];
  readonly rowCount: number;
  readonly rows: RowSource<T>;
  /** The cells of a row (the identity for tables of plain rows; see {@link plainTable}). */
  readonly cells: (row: T) => Row;
  /** What the JSON format holds; by default the array of rows as objects keyed by column key. */
  readonly json?: JsonEnvelope<T>;
}

/** A table of plain rows held in memory (small exports and tests). */
export function plainTable(
  t: Omit<ExportTable<Row>, 'rowCount' | 'rows' | 'cells'> & { rows: readonly Row[] },
): ExportTable<Row> {
  return { ...t, rowCount: t.rows.length, cells: (row) => row };
}

/** A cell as display text ('' for nothing). */
export function cellText(value: Cell): string {
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

/** A row as a plain object with only the export's columns, empty cells left out (the default JSON item). */
export function rowObject(
  columns: readonly ExportColumn[],
  row: Row,
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key } of columns) {
    const v = row[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** The rows of `table` one at a time, as cells. */
export async function* tableRows<T>(table: ExportTable<T>): AsyncGenerator<Row> {
  for await (const row of table.rows) yield table.cells(row);
}
