import { cellText, type ExportTable } from './table.js';

/**
 * The table as plain text: the title underlined, the facts, then one block per row with a `label: value`
 * line per non-empty field (continuation lines of long values indented).
 */
export function toPlainText(table: ExportTable): string {
  const out = [table.title, '='.repeat(Math.min(table.title.length, 80)), ''];
  for (const [label, value] of table.meta) out.push(`${label}: ${value}`);
  if (table.meta.length) out.push('');
  table.rows.forEach((row, i) => {
    out.push(`#${i + 1}`);
    for (const c of table.columns) {
      const text = cellText(row[c.key]);
      if (text !== '') out.push(`  ${c.label}: ${text.replace(/\r?\n|\r/g, '\n    ')}`);
    }
    out.push('');
  });
  return out.join('\n');
}
