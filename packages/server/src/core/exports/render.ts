import { Readable } from 'node:stream';
import type { ExportFormat } from '@xsvc/sdk/contract';
import { utf8Chunks } from './chunks.js';
import { csvLines } from './csv.js';
import { jsonLines } from './json.js';
import { markdownDocumentLines, markdownTableLines } from './markdown.js';
import { pdfChunks } from './pdf.js';
import type { ExportTable } from './table.js';
import { plainTextLines } from './text.js';
import { xlsxChunks } from './xlsx.js';

/** A rendered export: the file's bytes as they are written, its media type and its file name extension. */
export interface RenderedExport {
  readonly chunks: AsyncIterable<Buffer>;
  readonly contentType: string;
  readonly extension: string;
}

const TEXT = {
  csv: ['text/csv; charset=utf-8', 'csv', csvLines],
  json: ['application/json; charset=utf-8', 'json', jsonLines],
  md: ['text/markdown; charset=utf-8', 'md', markdownTableLines],
  'md-document': ['text/markdown; charset=utf-8', 'md', markdownDocumentLines],
  txt: ['text/plain; charset=utf-8', 'txt', plainTextLines],
} as const;

/**
 * Renders `table` in one of the 7 export formats (spec 7, `invalid_format`), lazily: nothing is written
 * until the chunks are read, and each format reads the rows one at a time, so memory stays flat.
 */
export function renderExport<T>(format: ExportFormat, table: ExportTable<T>): RenderedExport {
  switch (format) {
    case 'pdf':
      return { chunks: pdfChunks(table), contentType: 'application/pdf', extension: 'pdf' };
    case 'xlsx':
      return {
        chunks: xlsxChunks(table),
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        extension: 'xlsx',
      };
    default: {
      const [contentType, extension, lines] = TEXT[format];
      return { chunks: utf8Chunks(lines(table)), contentType, extension };
    }
  }
}

/** The whole file in memory (tests and small files). */
export async function collectExport(rendered: RenderedExport): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of rendered.chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

/** The file as a readable stream for a response body: it pulls chunks only as fast as the client reads. */
export function exportStream(rendered: RenderedExport): Readable {
  return Readable.from(rendered.chunks, { objectMode: false });
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
