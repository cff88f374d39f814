import { cellText, type ExportTable, tableRows } from './table.js';

/**
 * The table as plain text, a row at a time: the title underlined, the facts, then one block per row with
 * a `label: value` line per non-empty field (continuation lines of long values indented).
 */
export async function* plainTextLines<T>(table: ExportTable<T>): AsyncGenerator<string> {
  let head = `${table.title}\n${'='.repeat(Math.min(table.title.length, 80))}\n\n`;
  for (const [label, value] of table.meta) head += `${label}: ${value}\n`;
  if (table.meta.length) head += '\n';
  yield head;
  let i = 0;
  for await (const row of tableRows(table)) {
    let out = `#${++i}\n`;
    for (const c of table.columns) {
      const text = cellText(row[c.key]);
      if (text !== '') out += `  ${c.label}: ${text.replace(/\r?\n|\r/g, '\n    ')}\n`;
    }
    yield `${out}\n`;
  }
}
