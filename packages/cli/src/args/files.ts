import { readFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/** Media types by file extension, for uploads (the contract checks them against what it accepts). */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
};

/** A file to upload, read from a path relative to the working directory, typed by its extension. */
export async function fileFromPath(cwd: string, path: string, flag: string): Promise<File> {
  const full = resolve(cwd, path);
  let bytes: Buffer;
  try {
    bytes = await readFile(full);
  } catch (err) {
    throw new UsageError(
      `${flag}: cannot read ${full} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      undefined,
      'invalid_input',
      flag,
    );
  }
  const type = MEDIA_TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream';
  return new File([new Uint8Array(bytes)], basename(full), { type });
}
