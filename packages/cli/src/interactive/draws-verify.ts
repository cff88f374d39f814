import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Output } from '@xsvc/sdk';
import { type DrawVerification, type PublishedCommitment, verifyDraw } from '@xsvc/sdk/draws';
import { ExitCode } from '../exit-codes.js';
import { readString } from './shared/options.js';
import { cwdOf, outputMode, writeJson, writeLine, writeNote } from './shared/output.js';
import { UsageError, withUsageErrors } from './shared/usage-error.js';
import type { InteractiveCommand, InteractiveContext, RawOptions } from './types.js';

/** Options of `xsvc draws verify`. */
export interface DrawVerifyOptions {
  readonly id: string;
  /** A saved JSON entries export to verify against, instead of downloading it. */
  readonly entriesFile?: string | undefined;
  /** What the organiser published before the giveaway, to check the draw used it. */
  readonly published?: PublishedCommitment | undefined;
}

/** A hash option: 64 hex digits (any case), kept lowercase. */
function hashOption(raw: RawOptions, key: string, flag: string): string | undefined {
  const value = readString(raw, key);
  if (value === undefined) return undefined;
  if (!/^[0-9a-f]{64}$/i.test(value))
    throw new UsageError(`${flag} takes a SHA-256 in hex (64 digits)`, flag);
  return value.toLowerCase();
}

export function parseVerifyOptions(raw: RawOptions, cwd: string): DrawVerifyOptions {
  const id = readString(raw, 'id');
  if (!id) throw new UsageError('give the id of the draw to verify', '<id>');
  const file = readString(raw, 'entries');
  const commitment = readString(raw, 'commitment');
  const seedHash = hashOption(raw, 'seedHash', '--seed-hash');
  const entropyHash = hashOption(raw, 'entropyHash', '--entropy-hash');
  const published: PublishedCommitment | undefined =
    commitment !== undefined || seedHash !== undefined || entropyHash !== undefined
      ? {
          ...(commitment !== undefined && { id: commitment }),
          ...(seedHash !== undefined && { seedHash }),
          ...(entropyHash !== undefined && { entropyHash }),
        }
      : undefined;
  return {
    id,
    ...(file !== undefined && { entriesFile: resolve(cwd, file) }),
    ...(published && { published }),
  };
}

async function savedEntries(path: string): Promise<unknown[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read ${path} as JSON: ${(err as Error).message}`, '--entries');
  }
  if (!Array.isArray(parsed)) {
    throw new UsageError(`${path} is not a JSON entries export (an array of entries)`, '--entries');
  }
  return parsed;
}

function textLines(report: DrawVerification, id: string, color: boolean): string[] {
  const mark = (ok: boolean) => {
    if (!color) return ok ? 'ok' : 'FAIL';
    return ok ? '\u001b[32mok\u001b[39m' : '\u001b[31mFAIL\u001b[39m';
  };
  return [
    ...report.checks.map((c) => `${c.name}\t${mark(c.ok)}\t${c.detail}`),
    report.ok
      ? `verified\tdraw ${id}: the winners follow from the committed seed and the entries`
      : `refuted\tdraw ${id}: the record does not re-run to its winners`,
  ];
}

/**
 * `xsvc draws verify <id>`: downloads the draw and its entries export (JSON), re-runs the draw with the
 * revealed seed (`verifyDraw` of `@xsvc/sdk/draws`) and prints each check. Exit code 0 when the winners
 * are confirmed, 1 when they are refuted (or the draw cannot be verified), so scripts can rely on it.
 */
export async function runVerify(ctx: InteractiveContext, options: DrawVerifyOptions): Promise<number> {
  const draw: Output<'getDraw'> = await ctx.client.draws.get(options.id, { signal: ctx.signal });
  let entries: unknown[];
  if (options.entriesFile) entries = await savedEntries(options.entriesFile);
  else {
    const response = await ctx.client.draws.export(
      options.id,
      { format: 'json', type: 'entries' },
      { signal: ctx.signal },
    );
    entries = (await response.json()) as unknown[];
  }
  let report: DrawVerification;
  try {
    report = await verifyDraw(draw, entries, options.published);
  } catch (err) {
    if (err instanceof TypeError)
      throw new UsageError(err.message, options.entriesFile ? '--entries' : '<id>');
    throw err;
  }
  if (outputMode(ctx) === 'json') writeJson(ctx, { id: options.id, ...report });
  else {
    for (const line of textLines(report, options.id, ctx.io.color)) writeLine(ctx, line);
    if (!report.ok && report.expected.length > 0) {
      writeNote(
        ctx,
        `the seed draws: ${report.expected.map((w) => `${w.position}. @${w.authorUsername} (${w.tweetId})`).join(', ')}`,
      );
    }
  }
  return report.ok ? ExitCode.ok : ExitCode.error;
}

/** The runner the command layer loads. */
export const run: InteractiveCommand<RawOptions> = (ctx, raw) =>
  withUsageErrors(ctx, () => runVerify(ctx, parseVerifyOptions(raw, cwdOf(ctx))));
