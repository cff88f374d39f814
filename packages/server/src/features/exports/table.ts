/** One cell of an export: text, a number, a yes/no, or nothing (an empty cell). */
export type Cell = string | number | boolean | undefined;

/** A column of an export: `key` names it in CSV, XLSX and JSON, `label` in the documents. */
export interface ExportColumn {
  readonly key: string;
  readonly label: string;
}

/**
 * What every export format renders: a titled table with a few facts about it. Each format decides how much
 * of it to show (CSV and XLSX: the rows; the documents: the title and facts too).
 */
export interface ExportTable {
  readonly title: string;
  /** Facts about the whole export (what was exported, when), as label and value. */
  readonly meta: readonly (readonly [string, string])[];
  readonly columns: readonly ExportColumn[];
  readonly rows: readonly Readonly<Record<string, Cell>>[];
  /** What the JSON format holds; by default the rows as objects keyed by column key. */
  readonly json?: unknown;
}

/** A cell as display text ('' for nothing). */
export function cellText(value: Cell): string {
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

/** The rows as plain objects with only the export's columns, empty cells left out (the default JSON). */
export function rowObjects(table: ExportTable): Record<string, string | number | boolean>[] {
  return table.rows.map((row) => {
    const out: Record<string, string | number | boolean> = {};
    for (const { key } of table.columns) {
      const v = row[key];
      if (v !== undefined) out[key] = v;
    }
    return out;
  });
}
