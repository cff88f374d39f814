import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { OptionValues } from 'commander';
import { UsageError } from '../errors.js';
import type { CliIO } from '../io.js';
import { unguardCsv } from '../output/csv-unguard.js';
import type { Output } from '../output/output.js';

/**
 * Where a file answer goes: `--output <file>`, else stdout when it is not a terminal. Checked before the
 * request, so a forgotten `--output` costs nothing.
 */
export function binaryTarget(io: CliIO, opts: OptionValues): string | undefined {
  if (typeof opts.output === 'string' && opts.output !== '') return resolve(io.cwd, opts.output);
  if (io.stdout.isTTY) {
    throw new UsageError(
      'this command answers a file: it is not printed on a terminal',
      'Pass --output <file>, or pipe stdout into a file or program.',
      'invalid_input',
      '--output',
    );
  }
  return undefined;
}

/**
 * Streams a file answer to its target; reports where it went on stderr (JSON with `--json`). With
 * `unguardCsv` (`--no-formula-guard`), a CSV answer loses the service's formula guard on the way.
 */
export async function binarySaved(
  response: Response,
  target: string | undefined,
  io: CliIO,
  out: Output,
  unguard = false,
): Promise<void> {
  const csv = /^text\/csv\b/i.test(response.headers.get('content-type') ?? '');
  const web = response.body;
  const source =
    web === null
      ? undefined
      : unguard && csv
        ? Readable.fromWeb(web as unknown as WebReadableStream).pipe(unguardCsv())
        : Readable.fromWeb(web as unknown as WebReadableStream);
  if (target === undefined) {
    if (source) for await (const chunk of source) io.stdout.write(chunk as Uint8Array | string);
    return;
  }
  const file = createWriteStream(target);
  if (source) await pipeline(source, file);
  else file.end();
  const bytes = file.bytesWritten;
  if (out.json) out.value({ file: target, bytes, contentType: response.headers.get('content-type') });
  else out.note(`Saved ${bytes} bytes to ${target}`);
}
