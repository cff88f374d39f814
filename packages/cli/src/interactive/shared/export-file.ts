import { createWriteStream, statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { EXPORT_FORMATS, type ExportFormat } from '@xsvc/sdk/contract';
import { UsageError } from './usage-error.js';

/** The file extension of each export format (`md-document` is Markdown too). */
export const EXPORT_EXTENSIONS: Readonly<Record<ExportFormat, string>> = {
  csv: '.csv',
  json: '.json',
  md: '.md',
  'md-document': '.md',
  pdf: '.pdf',
  txt: '.txt',
  xlsx: '.xlsx',
};

/** Where and how to export, checked before any credit is spent. */
export interface ExportTarget {
  /** Absolute path of the file to write. */
  readonly path: string;
  readonly format: ExportFormat;
}

function formatFromExtension(path: string): ExportFormat | undefined {
  const ext = extname(path).toLowerCase();
  return EXPORT_FORMATS.find((f) => f !== 'md-document' && EXPORT_EXTENSIONS[f] === ext);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Resolves `--export <file>` and `--format <format>`: the format defaults to the file's extension; the file
 * defaults to `<defaultName><ext>` in the working directory, or in the directory `--export` names; the
 * directory must exist. Returns undefined when neither flag is given.
 */
export function resolveExportTarget(
  file: string | undefined,
  format: string | undefined,
  defaultName: string,
  cwd: string,
): ExportTarget | undefined {
  if (file === undefined && format === undefined) return undefined;
  if (format !== undefined && !(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(
      `--format must be one of ${EXPORT_FORMATS.join(', ')}`,
      '--format',
      'invalid_format',
    );
  }
  const intoDir = file !== undefined && isDirectory(resolve(cwd, file));
  const chosen =
    (format as ExportFormat | undefined) ??
    (file === undefined || intoDir ? undefined : formatFromExtension(file));
  if (chosen === undefined) {
    throw new UsageError(
      `cannot tell the format from ${JSON.stringify(file)}: pass --format (${EXPORT_FORMATS.join(', ')})`,
      '--format',
      'invalid_format',
    );
  }
  const fallback = `${defaultName}${EXPORT_EXTENSIONS[chosen]}`;
  const path =
    file === undefined ? resolve(cwd, fallback) : intoDir ? resolve(cwd, file, fallback) : resolve(cwd, file);
  if (!isDirectory(dirname(path)))
    throw new UsageError(`--export: directory ${dirname(path)} does not exist`, '--export');
  return { path, format: chosen };
}

/** Streams a download to a file (never buffering the whole export) and returns the bytes written. */
export async function saveResponse(response: Response, path: string): Promise<number> {
  const out = createWriteStream(path);
  if (response.body === null) {
    await new Promise<void>((done, fail) => out.end((err?: Error | null) => (err ? fail(err) : done())));
  } else {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), out);
  }
  return statSync(path).size;
}
