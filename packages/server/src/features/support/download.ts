import { schemas } from '@xsvc/sdk/contract';
import { HttpError } from '../../core/http/errors.js';

/** The part of a file a `Range` header asks for; undefined for the whole file. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The byte range of `Range: bytes=<from>-<to>` (or `bytes=-<suffix>`) within a file of `size` bytes:
 * undefined without a header; 400 `invalid_range` for a header of another form; 416 `invalid_range` (with
 * `Content-Range: bytes *\/size`) for a range outside the file. An end past the file is cut to its last byte.
 */
export function rangeOf(header: string | undefined, size: number): ByteRange | undefined {
  if (header === undefined) return undefined;
  if (!schemas.ATTACHMENT_RANGE.test(header))
    throw new HttpError('invalid_range', 'Range: one range as bytes=<from>-<to> or bytes=-<suffix>');
  const [from, to] = header.slice('bytes='.length).split('-') as [string, string];
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    start = Math.max(0, size - suffix);
    end = size - 1;
    if (suffix === 0) start = size;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start >= size || end < start)
    throw new HttpError('invalid_range', `the range is outside the file (${size} bytes)`, { size }, 416, {
      'content-range': `bytes */${size}`,
    });
  return { start, end };
}

/** `Content-Disposition` for a download: the file name in ASCII and in UTF-8 (RFC 6266). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
