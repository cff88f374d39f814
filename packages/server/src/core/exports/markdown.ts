import { CHUNK_CHARS } from './chunks.js';
import { cellText, type ExportTable, tableRows } from './table.js';

/** Characters Markdown reads as markup anywhere: code, emphasis, links, HTML, entities, strikethrough, tables, heading ends. */
const MARKUP = /[\\`*[\]<>|~&#]/g;
/** `_` opens or closes emphasis only at a word's edge (CommonMark's flanking rules), never inside a word. */
const EDGE_UNDERSCORE = /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
/** What starts a block at a line's start: a list item or a heading underline, an ordered list item. */
const BLOCK_START = /^(\s*)([+=-])/gm;
const ORDERED_START = /^(\s*\d+)([.)])/gm;
/** The same at the text's start alone (for text without line breaks, where `^` matches nowhere else). */
const BLOCK_START_1 = /^(\s*)([+=-])/;
const ORDERED_START_1 = /^(\s*\d+)([.)])/;
/** What a line start is to `^` in a multiline pattern: after any of these. */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;
/** Anything {@link mdEscape} may change: a markup character, `_`, a line break, or a block start up front. */
const MAYBE_MARKUP = /[\\`*[\]<>|~&#_\n\r\u2028\u2029]|^\s*[+=\d-]/;

/**
 * Text as Markdown that reads back as exactly this text (CommonMark backslash escapes): markup characters
 * escaped, and what would start a block at a line's start (a list item, a heading underline) escaped
 * there. Characters that are markup nowhere else (`-` inside a line, `_` inside a word) are left as they
 * are, so that the file stays readable. Most cells need nothing: one test finds them, and each rule runs
 * only on text that holds what it looks for (the same result as running all of them, at a fraction of
 * the cost on the 1.6 million cells of a 100,000-row document).
 */
export function mdEscape(text: string): string {
  if (!MAYBE_MARKUP.test(text)) return text;
  let out = text.replace(MARKUP, '\\$&');
  if (out.includes('_')) out = out.replace(EDGE_UNDERSCORE, '\\_');
  if (LINE_TERMINATOR.test(out)) {
    return out.replace(BLOCK_START, '$1\\$2').replace(ORDERED_START, '$1\\$2');
  }
  return out.replace(BLOCK_START_1, '$1\\$2').replace(ORDERED_START_1, '$1\\$2');
}

const LINE_BREAK = /\r?\n|\r/g;

/** Text inside a Markdown table cell: escaped, line breaks as `<br>`. */
function mdCell(text: string): string {
  const escaped = mdEscape(text);
  return escaped.includes('\n') || escaped.includes('\r') ? escaped.replace(LINE_BREAK, '<br>') : escaped;
}

/** Text in running Markdown: escaped, line breaks kept as hard breaks (a backslash at the line end). */
function mdText(text: string): string {
  const escaped = mdEscape(text);
  return escaped.includes('\n') || escaped.includes('\r') ? escaped.replace(LINE_BREAK, '\\\n') : escaped;
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
  const keys = table.columns.map((c) => c.key);
  // Each field's lead-in, escaped once for the whole document.
  const leads = table.columns.map((c) => `- **${mdText(c.label)}:** `);
  let i = 0;
  // Sections gathered into pieces of about a chunk: one hand-over per chunk rather than per row.
  let out = '';
  for await (const source of table.rows) {
    const row = table.cells(source);
    const texts = keys.map((k) => cellText(row[k]));
    const first = texts.find((t) => t !== '') ?? '';
    out += `## ${++i}. ${mdText(first.replace(/\s+/g, ' '))}\n\n`;
    for (let c = 0; c < texts.length; c++) {
      const text = texts[c] as string;
      if (text !== '') out += `${leads[c]}${mdText(text)}\n`;
    }
    out += '\n';
    if (out.length >= CHUNK_CHARS) {
      yield out;
      out = '';
    }
  }
  if (out) yield out;
}
