/**
 * Independent readers of the export formats, so that the tests check the files as other programs see
 * them: csv-parse for CSV, SheetJS for XLSX, markdown-it for Markdown, poppler's pdftotext for PDF.
 */
import { execFileSync } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import MarkdownIt from 'markdown-it';
import * as XLSX from 'xlsx';

/** CSV records as string arrays (RFC 4180). */
export function parseCsv(text: string): string[][] {
  return parse(text, { relax_column_count: true }) as string[][];
}

/** The first sheet of a workbook as rows of cell values (numbers, booleans and text as typed). */
export function readXlsx(file: Buffer): (string | number | boolean)[][] {
  const book = XLSX.read(file, { type: 'buffer' });
  const sheet = book.Sheets[book.SheetNames[0] as string];
  if (!sheet) throw new Error('no sheet');
  return XLSX.utils.sheet_to_json(sheet, { header: 1, raw: true, blankrows: false });
}

/** Page count (pdfinfo) and text (pdftotext, in reading order) of a PDF. */
export function readPdf(file: Buffer): { pages: number; text: string } {
  const info = execFileSync('pdfinfo', ['-'], { input: file }).toString('utf8');
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: file }).toString('utf8');
  return { pages, text };
}

// Inline HTML on, as in GitHub-flavoured Markdown (the table cells' `<br>` line breaks).
const md = new MarkdownIt({ html: true });

type Token = ReturnType<MarkdownIt['parse']>[number];

/** The plain text of an inline token: text as written, `<br>` and hard breaks as line breaks. */
function inlineText(token: Token): string {
  return (token.children ?? [])
    .map((c) => {
      if (c.type === 'text' || c.type === 'code_inline') return c.content;
      if (c.type === 'hardbreak' || c.type === 'softbreak') return '\n';
      if (c.type === 'html_inline' && /^<br\s*\/?>$/i.test(c.content)) return '\n';
      if (c.type === 'html_inline') return c.content;
      return '';
    })
    .join('');
}

/** Every table of a Markdown document as rows of cell text (header row first). */
export function markdownTables(text: string): string[][][] {
  const tables: string[][][] = [];
  let cell = false;
  for (const t of md.parse(text, {})) {
    const table = tables[tables.length - 1];
    if (t.type === 'table_open') tables.push([]);
    else if (t.type === 'tr_open') table?.push([]);
    else if (t.type === 'th_open' || t.type === 'td_open') cell = true;
    else if (t.type === 'th_close' || t.type === 'td_close') cell = false;
    else if (cell && t.type === 'inline') table?.[table.length - 1]?.push(inlineText(t));
  }
  return tables;
}

/** The headings and the list items of a Markdown document, as plain text, in order. */
export function markdownBlocks(text: string): { headings: string[]; items: string[] } {
  const headings: string[] = [];
  const items: string[] = [];
  let inHeading = false;
  let inItem = 0;
  for (const t of md.parse(text, {})) {
    if (t.type === 'heading_open') inHeading = true;
    else if (t.type === 'heading_close') inHeading = false;
    else if (t.type === 'list_item_open') inItem++;
    else if (t.type === 'list_item_close') inItem--;
    else if (t.type === 'inline' && inHeading) headings.push(inlineText(t));
    else if (t.type === 'inline' && inItem > 0) items.push(inlineText(t));
  }
  return { headings, items };
}
