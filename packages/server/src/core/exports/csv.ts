import { type Cell, cellText, type ExportTable, tableRows } from './table.js';

/** Characters that make a spreadsheet read a cell as a formula (OWASP CSV injection), tab and CR included. */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field: text that a spreadsheet would run as a formula gets a leading `'` (numbers are left
 * alone: `-5` is data), then RFC 4180 quoting when the field holds a quote, a comma or a line break.
 */
export function csvField(value: Cell): string {
  let text = cellText(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The table as RFC 4180 CSV, a record at a time: a header of column keys, then the rows, CRLF line ends. */
export async function* csvLines<T>(table: ExportTable<T>): AsyncGenerator<string> {
  const keys = table.columns.map((c) => c.key);
  yield `${keys.map(csvField).join(',')}\r\n`;
  for await (const row of tableRows(table)) {
    let line = '';
    for (let i = 0; i < keys.length; i++) line += (i ? ',' : '') + csvField(row[keys[i] as string]);
    yield `${line}\r\n`;
  }
}
