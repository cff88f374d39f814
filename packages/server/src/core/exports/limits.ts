import type { ExportFormat } from '@xsvc/sdk/contract';
import { HttpError } from '../http/errors.js';

/** Most rows a file export holds, whatever its format (the service's documented cap of entry exports). */
export const EXPORT_MAX_ROWS = 100_000;
/** Most rows a PDF export holds: a 10,000-row table is already some 270 pages. */
export const PDF_MAX_ROWS = 10_000;

/** The row cap of `format`. */
export function exportRowCap(format: ExportFormat): number {
  return format === 'pdf' ? PDF_MAX_ROWS : EXPORT_MAX_ROWS;
}

/**
 * Refuses, before anything is written, an export with more rows than its format holds: 400
 * `invalid_input` naming the count, the cap, and the ways to get the data (filters, another format).
 * An export is never cut short silently.
 */
export function assertExportSize(format: ExportFormat, rowCount: number): void {
  const cap = exportRowCap(format);
  if (rowCount <= cap) return;
  const n = (v: number) => v.toLocaleString('en-US');
  const other =
    format === 'pdf'
      ? `, or choose csv, xlsx, json, md, md-document or txt (up to ${n(EXPORT_MAX_ROWS)} rows)`
      : '';
  throw new HttpError(
    'invalid_input',
    `this export holds ${n(rowCount)} rows; a ${format} export holds at most ${n(cap)}: narrow it with the export filters${other}`,
    { rowCount, maxRows: cap, format },
  );
}
