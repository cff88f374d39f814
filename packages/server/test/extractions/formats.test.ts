/**
 * The export formats shared by draws and extractions, each read back by an independent reader (csv-parse,
 * SheetJS, markdown-it, pdftotext) and compared with the JSON export of the same rows: emoji, CJK,
 * right-to-left text, quotes, line breaks and formula-like cells included.
 */
import { EXPORT_FORMATS, type ExportFormat } from '@xsvc/sdk/contract';
import { describe, expect, it } from 'vitest';
import { csvField } from '../../src/core/exports/csv.js';
import { assertExportSize } from '../../src/core/exports/limits.js';
import { visualRuns } from '../../src/core/exports/pdf-runs.js';
import { collectExport, renderExport } from '../../src/core/exports/render.js';
import { type ExportTable, plainTable, type Row } from '../../src/core/exports/table.js';
import { columnName } from '../../src/core/exports/xlsx.js';
import { markdownBlocks, markdownTables, parseCsv, readPdf, readXlsx } from './files.js';

/** Texts in the scripts people post in, and the characters formats trip over. */
const HARD = [
  'Hello, "world"\nsecond line',
  '=HYPERLINK("http://evil")',
  'pipe | and (parens) \\ café — 🎉',
  '山田太郎 こんにちは 안녕하세요',
  'مرحبا بالعالم',
  'שלום עולם',
  'Привет мир Γειά σου',
  'नमस्ते दुनिया',
  'สวัสดีครับ',
  '👍🏽 ❤️ 🇯🇵',
  '*not bold* _nor_ `code` <b>html</b> [link](x) &amp; #tag 1. two',
  '+1 -2 @user',
];

const table = plainTable({
  title: 'Draw 1: winners',
  meta: [
    ['Draw', 'd-1'],
    ['Valid entries', String(HARD.length)],
  ],
  columns: [
    { key: 'position', label: 'Position' },
    { key: 'author', label: 'Author' },
    { key: 'text', label: 'Reply' },
    { key: 'backup', label: 'Backup' },
  ],
  rows: HARD.map((text, i) => ({
    position: i + 1,
    author: `user_${i + 1}`,
    text,
    ...(i % 3 !== 2 && { backup: i % 3 === 1 }),
  })),
});

const bytes = (format: ExportFormat, t: ExportTable<Row> = table) => collectExport(renderExport(format, t));
const text = async (format: ExportFormat, t: ExportTable<Row> = table) =>
  (await bytes(format, t)).toString('utf8');

/** The JSON export: the reference every other format is compared with. */
async function reference(): Promise<Record<string, string | number | boolean>[]> {
  return JSON.parse(await text('json'));
}

const asText = (v: string | number | boolean | undefined) => (v === undefined ? '' : String(v));

describe('export formats, read back by independent readers', () => {
  it('JSON: the rows as objects, empty cells left out; an envelope when the table has one', async () => {
    const rows = await reference();
    expect(rows).toHaveLength(HARD.length);
    expect(rows[0]).toEqual({ position: 1, author: 'user_1', text: HARD[0], backup: false });
    expect(rows[2]).toEqual({ position: 3, author: 'user_3', text: HARD[2] });
    const wrapped: ExportTable<Row> = {
      ...table,
      json: { head: { job: { id: 'j' } }, key: 'results', item: (r) => r },
    };
    const parsed = JSON.parse(await text('json', wrapped));
    expect(parsed.job).toEqual({ id: 'j' });
    expect(parsed.results).toHaveLength(HARD.length);
    expect(JSON.parse(await text('json', { ...table, rows: [], rowCount: 0 }))).toEqual([]);
  });

  it('CSV (csv-parse): every cell as the JSON has it; formula-like text gets a leading quote', async () => {
    const body = await text('csv');
    expect(body.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = parseCsv(body);
    expect(header).toEqual(['position', 'author', 'text', 'backup']);
    const ref = await reference();
    rows.forEach((row, i) => {
      const want = ref[i] as Record<string, string | number | boolean>;
      const guard = typeof want.text === 'string' && /^[=+\-@\t\r]/.test(want.text) ? `'` : '';
      expect(row).toEqual([
        asText(want.position),
        want.author,
        guard + asText(want.text),
        asText(want.backup),
      ]);
    });
    for (const start of ['=1+1', '+1', '-1+2', '@SUM(A1)', '\tx'])
      expect(csvField(start).replace(/^"/, '')).toMatch(/^'/);
    expect(csvField(-5)).toBe('-5');
  });

  it('XLSX (SheetJS): typed cells as the JSON has them, formula-like text kept as text', async () => {
    const file = renderExport('xlsx', table);
    expect(file.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const [header, ...rows] = readXlsx(await collectExport(file));
    expect(header).toEqual(['position', 'author', 'text', 'backup']);
    const ref = await reference();
    rows.forEach((row, i) => {
      const want = ref[i] as Record<string, string | number | boolean>;
      expect(row.slice(0, 4)).toEqual(
        [want.position, want.author, want.text, want.backup].slice(0, want.backup === undefined ? 3 : 4),
      );
    });
    expect([0, 25, 26, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
  });

  it('XLSX (SheetJS): a sheet of several buffers (filled again once deflated) reads back row for row', async () => {
    // Some 6 MB of XML: the sheet's 1 MiB buffers go round several times, rows cut across them.
    const manyRows: Row[] = Array.from({ length: 12_000 }, (_, i) => ({
      position: i + 1,
      author: `user_${i + 1}`,
      text: `${HARD[i % HARD.length]} #${i}`,
      ...(i % 3 !== 2 && { backup: i % 3 === 1 }),
    }));
    const [header, ...rows] = readXlsx(await bytes('xlsx', plainTable({ ...table, rows: manyRows })));
    expect(header).toEqual(['position', 'author', 'text', 'backup']);
    expect(rows).toHaveLength(manyRows.length);
    rows.forEach((row, i) => {
      const want = manyRows[i] as Row;
      expect(row).toEqual(
        [want.position, want.author, want.text, want.backup].slice(0, want.backup === undefined ? 3 : 4),
      );
    });
  });

  it('Markdown table (markdown-it): one table whose cells read back as the JSON text', async () => {
    const tables = markdownTables(await text('md'));
    expect(tables).toHaveLength(1);
    const [header, ...rows] = tables[0] as string[][];
    expect(header).toEqual(['Position', 'Author', 'Reply', 'Backup']);
    const ref = await reference();
    expect(rows).toEqual(
      ref.map((w) => [asText(w.position), asText(w.author), asText(w.text), asText(w.backup)]),
    );
  });

  it('Markdown document (markdown-it): a heading per row and a list item per field, text unchanged', async () => {
    const { headings, items } = markdownBlocks(await text('md-document'));
    expect(headings[0]).toBe('Draw 1: winners');
    expect(items).toContain(`Valid entries: ${HARD.length}`);
    const ref = await reference();
    for (const w of ref) {
      expect(items).toContain(`Reply: ${w.text}`);
      expect(items).toContain(`Author: ${w.author}`);
    }
    expect(headings).toHaveLength(1 + HARD.length);
  });

  it('plain text: title, facts and a block per row', async () => {
    const txt = await text('txt');
    expect(txt.split('\n')[0]).toBe('Draw 1: winners');
    expect(txt).toContain('Draw: d-1');
    for (const line of HARD.flatMap((h) => h.split('\n'))) expect(txt).toContain(line);
  });

  it('PDF (pdftotext): text in every script extracts back unchanged', async () => {
    const { pages, text: extracted } = readPdf(await bytes('pdf'));
    expect(pages).toBe(1);
    // pdftotext wraps right-to-left text in embedding marks (U+202A-202E); they are not content.
    const lines = extracted.replace(/[\u202a-\u202e]/g, '').split('\n');
    expect(lines).toContain('Draw 1: winners');
    for (const h of HARD.slice(3, 10))
      expect(
        lines.some((l) => l.includes(h)),
        h,
      ).toBe(true);
    expect(extracted).toContain('user_12');
  });

  it('PDF (pdftotext): each script alone in a cell extracts unchanged, Devanagari conjuncts and ZWJ emoji included', async () => {
    const scripts = [
      'Ελληνικά: γειά σου κόσμε',
      'Русский: привет, мир',
      'हिन्दी: क्षत्रिय श्रद्धा',
      'ภาษาไทย สวัสดีครับ',
      'Tiếng Việt có dấu',
      '한국어 텍스트',
      '中文简体 繁體中文 日本語のかな',
      'שלום עולם ברוכים הבאים',
      'مرحبا بالعالم أهلا وسهلا',
      '👨‍👩‍👧 family 🏳️‍🌈 👍🏽',
    ];
    const t = plainTable({
      title: 'scripts',
      meta: [],
      columns: [{ key: 'text', label: 'Text' }],
      rows: scripts.map((text) => ({ text })),
    });
    const lines = readPdf(await bytes('pdf', t))
      .text.replace(/[\u202a-\u202e]/g, '')
      .split('\n')
      .map((l) => l.trim());
    for (const s of scripts) expect(lines, s).toContain(s);
  });

  it('PDF layout: right-to-left runs in visual order, their spaces and punctuation reversed and mirrored', () => {
    const drawn = (t: string) => visualRuns(t).map((r) => r.text);
    // Logical "Hebrew: (two words)" drawn left to right: the last word first, the colon beside the first.
    expect(drawn('עברית: (שלום עולם)')).toEqual(['(', 'עולם', ' ', 'שלום', ') :', 'עברית']);
    // Latin around a right-to-left stretch keeps its place; digits inside it stay left to right.
    expect(drawn('Hi שלום 42 ok').join('|')).toBe('Hi |42| |שלום| ok');
  });

  it('PDF: long tables are paginated with the header on each page and "Page n of m"', async () => {
    const long = plainTable({
      ...table,
      rows: Array.from({ length: 300 }, (_, i) => ({ position: i + 1, author: `user_${i + 1}`, text: 'x' })),
    });
    const big = readPdf(await bytes('pdf', long));
    expect(big.pages).toBeGreaterThan(5);
    expect(big.text).toContain('user_1\n');
    expect(big.text).toContain('user_300');
    expect(big.text).toContain(`Page ${big.pages} of ${big.pages}`);
    expect(big.text.match(/Position/g)?.length).toBe(big.pages);
  });

  it('renders every format the contract lists, and empty tables too', async () => {
    const empty = { ...table, rows: [], rowCount: 0 };
    for (const format of EXPORT_FORMATS)
      expect((await bytes(format, empty)).length, format).toBeGreaterThan(0);
    expect(readXlsx(await bytes('xlsx', empty))).toHaveLength(1);
    expect(readPdf(await bytes('pdf', empty)).text).toContain('(no rows)');
  });

  it('row caps: 10,000 rows for PDF, 100,000 for the other formats, refused with invalid_input', () => {
    expect(() => assertExportSize('pdf', 10_000)).not.toThrow();
    expect(() => assertExportSize('pdf', 10_001)).toThrow(/pdf export holds at most 10,000/);
    expect(() => assertExportSize('csv', 100_000)).not.toThrow();
    expect(() => assertExportSize('xlsx', 100_001)).toThrow(
      expect.objectContaining({ code: 'invalid_input', status: 400 }),
    );
  });
});
