import type { ExportFormat } from '@xsvc/sdk/contract';
import { toCsv } from './csv.js';
import { toMarkdownDocument, toMarkdownTable } from './markdown.js';
import { toPdf } from './pdf.js';
import { type ExportTable, rowObjects } from './table.js';
import { toPlainText } from './text.js';
import { toXlsx } from './xlsx.js';

/** A rendered export: the file's bytes, its media type and its file name extension. */
export interface RenderedExport {
  readonly body: Buffer;
  readonly contentType: string;
  readonly extension: string;
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** Renders `table` in one of the 7 export formats (spec 7, `invalid_format`). */
export function renderExport(format: ExportFormat, table: ExportTable): RenderedExport {
  switch (format) {
    case 'csv':
      return { body: utf8(toCsv(table)), contentType: 'text/csv; charset=utf-8', extension: 'csv' };
    case 'json':
      return {
        body: utf8(`${JSON.stringify(table.json ?? rowObjects(table), null, 2)}\n`),
        contentType: 'application/json; charset=utf-8',
        extension: 'json',
      };
    case 'md':
      return {
        body: utf8(toMarkdownTable(table)),
        contentType: 'text/markdown; charset=utf-8',
        extension: 'md',
      };
    case 'md-document':
      return {
        body: utf8(toMarkdownDocument(table)),
        contentType: 'text/markdown; charset=utf-8',
        extension: 'md',
      };
    case 'txt':
      return { body: utf8(toPlainText(table)), contentType: 'text/plain; charset=utf-8', extension: 'txt' };
    case 'pdf':
      return { body: toPdf(table), contentType: 'application/pdf', extension: 'pdf' };
    case 'xlsx':
      return {
        body: toXlsx(table),
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        extension: 'xlsx',
      };
  }
}

/**
 * The headers of a file download: its media type, and `Content-Disposition: attachment` naming it
 * `<baseName>.<extension>` (the name reduced to safe characters).
 */
export function downloadHeaders(rendered: RenderedExport, baseName: string): Record<string, string> {
  const name = `${baseName.replace(/[^A-Za-z0-9._-]+/g, '-')}.${rendered.extension}`;
  return {
    'content-type': rendered.contentType,
    'content-disposition': `attachment; filename="${name}"`,
    'cache-control': 'no-store',
  };
}
