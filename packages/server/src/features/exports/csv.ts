import { type Cell, cellText, type ExportTable } from './table.js';

/** Characters that make a spreadsheet read a cell as a formula (OWASP CSV injection), tab and CR included. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field: text that a spreadsheet would run as a formula gets a leading `'` (numbers are left
 * alone: `-5` is data), then RFC 4180 quoting when the field holds a quote, a comma or a line break.
 */
export function csvField(value: Cell): string {
  let text = cellText(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The table as RFC 4180 CSV: a header of column keys, then one record per row, CRLF line ends. */
export function toCsv(table: ExportTable): string {
  const lines = [table.columns.map((c) => csvField(c.key)).join(',')];
  for (const row of table.rows) lines.push(table.columns.map((c) => csvField(row[c.key])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
