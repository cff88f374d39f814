import { cellText, type ExportTable, tableRows } from './table.js';

/** Characters Markdown reads as markup anywhere: code, emphasis, links, HTML, entities, strikethrough, tables, heading ends. */
const MARKUP = /[\\`*[\]<>|~&#]/g;
/** `_` opens or closes emphasis only at a word's edge (CommonMark's flanking rules), never inside a word. */
const EDGE_UNDERSCORE = /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

/**
 * Text as Markdown that reads back as exactly this text (CommonMark backslash escapes): markup characters
 * escaped, and what would start a block at a line's start (a list item, a heading underline) escaped
 * there. Characters that are markup nowhere else (`-` inside a line, `_` inside a word) are left as they
 * are, so that the file stays readable.
 */
export function mdEscape(text: string): string {
  return text
    .replace(MARKUP, '\\$&')
    .replace(EDGE_UNDERSCORE, '\\_')
    .replace(/^(\s*)([+=-])/gm, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/gm, '$1\\$2');
}

/** Text inside a Markdown table cell: escaped, line breaks as `<br>`. */
function mdCell(text: string): string {
  return mdEscape(text).replace(/\r?\n|\r/g, '<br>');
}

/** Text in running Markdown: escaped, line breaks kept as hard breaks (a backslash at the line end). */
function mdText(text: string): string {
  return mdEscape(text).replace(/\r?\n|\r/g, '\\\n');
}

/** The table as one GitHub-flavoured Markdown table under its title, a row at a time. */
export async function* markdownTableLines<T>(table: ExportTable<T>): AsyncGenerator<string> {
  yield `# ${mdCell(table.title)}\n\n`;
  yield `| ${table.columns.map((c) => mdCell(c.label)).join(' | ')} |\n`;
  yield `| ${table.columns.map(() => '---').join(' | ')} |\n`;
  for await (const row of tableRows(table)) {
    yield `| ${table.columns.map((c) => mdCell(cellText(row[c.key]))).join(' | ')} |\n`;
  }
}

/**
 * The table as a Markdown document for reading, a row at a time: the title, the facts as a list, then one
 * section per row with its non-empty fields.
 */
export async function* markdownDocumentLines<T>(table: ExportTable<T>): AsyncGenerator<string> {
  let head = `# ${mdText(table.title)}\n\n`;
  for (const [label, value] of table.meta) head += `- **${mdText(label)}:** ${mdText(value)}\n`;
  if (table.meta.length) head += '\n';
  yield `${head}${table.rowCount} ${table.rowCount === 1 ? 'row' : 'rows'}.\n\n`;
  let i = 0;
  for await (const row of tableRows(table)) {
    const first = table.columns.map((c) => cellText(row[c.key])).find((t) => t !== '') ?? '';
    let out = `## ${++i}. ${mdText(first.replace(/\s+/g, ' '))}\n\n`;
    for (const c of table.columns) {
      const text = cellText(row[c.key]);
      if (text !== '') out += `- **${mdText(c.label)}:** ${mdText(text)}\n`;
    }
    yield `${out}\n`;
  }
}
