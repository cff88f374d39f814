import { cellText, type ExportTable } from './table.js';

/** Text inside a Markdown table cell: pipes escaped, line breaks as `<br>`. */
function mdCell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n|\r/g, '<br>');
}

/** Text in running Markdown: line breaks kept as hard breaks. */
function mdText(text: string): string {
  return text.replace(/\r?\n|\r/g, '  \n  ');
}

/** The table as one GitHub-flavoured Markdown table under its title. */
export function toMarkdownTable(table: ExportTable): string {
  const out = [`# ${mdCell(table.title)}`, ''];
  out.push(`| ${table.columns.map((c) => mdCell(c.label)).join(' | ')} |`);
  out.push(`| ${table.columns.map(() => '---').join(' | ')} |`);
  for (const row of table.rows) {
    out.push(`| ${table.columns.map((c) => mdCell(cellText(row[c.key]))).join(' | ')} |`);
  }
  return `${out.join('\n')}\n`;
}

/**
 * The table as a Markdown document for reading: the title, the facts as a list, then one section per row
 * with its non-empty fields.
 */
export function toMarkdownDocument(table: ExportTable): string {
  const out = [`# ${table.title}`, ''];
  for (const [label, value] of table.meta) out.push(`- **${label}:** ${mdText(value)}`);
  if (table.meta.length) out.push('');
  out.push(`${table.rows.length} ${table.rows.length === 1 ? 'row' : 'rows'}.`, '');
  table.rows.forEach((row, i) => {
    const first = table.columns.map((c) => cellText(row[c.key])).find((t) => t !== '') ?? '';
    out.push(`## ${i + 1}. ${first.replace(/\s+/g, ' ')}`, '');
    for (const c of table.columns) {
      const text = cellText(row[c.key]);
      if (text !== '') out.push(`- **${c.label}:** ${mdText(text)}`);
    }
    out.push('');
  });
  return out.join('\n');
}
