/**
 * The export formats shared by draws and extractions, each parsed back: CSV (RFC 4180 and the formula
 * guard), JSON, Markdown, plain text, XLSX (unzipped and its sheet read) and PDF (structure and text).
 */
import { EXPORT_FORMATS } from '@xsvc/sdk/contract';
import { describe, expect, it } from 'vitest';
import { csvField } from '../../src/features/exports/csv.js';
import { renderExport } from '../../src/features/exports/render.js';
import type { ExportTable } from '../../src/features/exports/table.js';
import { columnName } from '../../src/features/exports/xlsx.js';
import { parseCsv, readPdf, readXlsx } from './files.js';

const table: ExportTable = {
  title: 'Draw 1: winners',
  meta: [
    ['Draw', 'd-1'],
    ['Valid entries', '3'],
  ],
  columns: [
    { key: 'position', label: 'Position' },
    { key: 'author', label: 'Author' },
    { key: 'text', label: 'Reply' },
    { key: 'backup', label: 'Backup' },
  ],
  rows: [
    { position: 1, author: 'alice', text: 'Hello, "world"\nsecond line', backup: false },
    { position: 2, author: 'bob', text: '=HYPERLINK("http://evil")', backup: true },
    { position: 3, author: 'carol', text: 'pipe | and (parens) \\ café — 🎉', backup: undefined },
  ],
};

describe('export formats', () => {
  it('CSV: RFC 4180 quoting round-trips, and formula-looking text is neutralised', () => {
    const body = renderExport('csv', table).body.toString('utf8');
    expect(body.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(body);
    expect(rows[0]).toEqual(['position', 'author', 'text', 'backup']);
    expect(rows[1]).toEqual(['1', 'alice', 'Hello, "world"\nsecond line', 'false']);
    expect(rows[2]?.[2]).toBe(`'=HYPERLINK("http://evil")`);
    expect(rows[3]).toEqual(['3', 'carol', 'pipe | and (parens) \\ café — 🎉', '']);
    for (const start of ['=1+1', '+1', '-1+2', '@SUM(A1)', '\tx'])
      expect(csvField(start).replace(/^"/, '')).toMatch(/^'/);
    expect(csvField(-5)).toBe('-5');
  });

  it('JSON: the rows as objects, empty cells left out', () => {
    const parsed = JSON.parse(renderExport('json', table).body.toString('utf8'));
    expect(parsed).toEqual([
      { position: 1, author: 'alice', text: 'Hello, "world"\nsecond line', backup: false },
      { position: 2, author: 'bob', text: '=HYPERLINK("http://evil")', backup: true },
      { position: 3, author: 'carol', text: 'pipe | and (parens) \\ café — 🎉' },
    ]);
    const custom = renderExport('json', { ...table, json: { custom: true } });
    expect(JSON.parse(custom.body.toString('utf8'))).toEqual({ custom: true });
  });

  it('Markdown table: one row per record, pipes escaped, line breaks as <br>', () => {
    const md = renderExport('md', table).body.toString('utf8');
    const lines = md.trim().split('\n');
    expect(lines[0]).toBe('# Draw 1: winners');
    expect(lines[2]).toBe('| Position | Author | Reply | Backup |');
    expect(lines[3]).toBe('| --- | --- | --- | --- |');
    expect(lines).toHaveLength(7);
    expect(lines[4]).toBe('| 1 | alice | Hello, "world"<br>second line | false |');
    // Splitting on unescaped pipes gives exactly the 4 cells back.
    expect(lines[6]?.split(/(?<!\\)\|/).slice(1, -1)).toHaveLength(4);
  });

  it('Markdown document and plain text: title, facts and a section per row', () => {
    const doc = renderExport('md-document', table).body.toString('utf8');
    expect(doc).toContain('# Draw 1: winners');
    expect(doc).toContain('- **Valid entries:** 3');
    expect(doc).toContain('## 2. 2');
    expect(doc).toContain('- **Author:** bob');
    const txt = renderExport('txt', table).body.toString('utf8');
    expect(txt.split('\n')[0]).toBe('Draw 1: winners');
    expect(txt).toContain('Draw: d-1');
    expect(txt).toContain('#3\n  Position: 3\n  Author: carol');
  });

  it('XLSX: a valid zip of the five workbook parts whose sheet holds the cells', () => {
    const file = renderExport('xlsx', table);
    expect(file.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const rows = readXlsx(file.body);
    expect(rows[0]).toEqual(['position', 'author', 'text', 'backup']);
    expect(rows[1]).toEqual(['1', 'alice', 'Hello, "world"\nsecond line', 'false']);
    expect(rows[2]).toEqual(['2', 'bob', '=HYPERLINK("http://evil")', 'true']);
    expect(rows[3]).toEqual(['3', 'carol', 'pipe | and (parens) \\ café — 🎉']);
    expect([0, 25, 26, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
  });

  it('PDF: header, xref offsets, trailer and the text; long tables are paginated', () => {
    const { pages, text } = readPdf(renderExport('pdf', table).body);
    expect(pages).toBe(1);
    expect(text).toContain('Draw 1: winners');
    expect(text).toContain('alice');
    expect(text).toContain('pipe | and (parens)');
    const long: ExportTable = {
      ...table,
      rows: Array.from({ length: 300 }, (_, i) => ({ position: i + 1, author: `user_${i + 1}`, text: 'x' })),
    };
    const big = readPdf(renderExport('pdf', long).body);
    expect(big.pages).toBeGreaterThan(5);
    expect(big.text).toContain('user_1\n');
    expect(big.text).toContain('user_300');
    expect(big.text).toContain(`Page ${big.pages} of ${big.pages}`);
  });

  it('renders every format the contract lists, and empty tables too', () => {
    for (const format of EXPORT_FORMATS) {
      const file = renderExport(format, { ...table, rows: [] });
      expect(file.body.length, format).toBeGreaterThan(0);
    }
    expect(readXlsx(renderExport('xlsx', { ...table, rows: [] }).body)).toHaveLength(1);
    expect(readPdf(renderExport('pdf', { ...table, rows: [] }).body).text).toContain('(no rows)');
  });
});
