import { ExitCode } from '../../exit-codes.js';
import type { InteractiveContext } from '../types.js';

/**
 * Bad or missing input, found before anything is sent. `code` is the spec's error code for the same mistake
 * made against the API (`invalid_input` unless a more precise one exists), so scripts see one vocabulary.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    /** The flag (or argument) to fix, as typed on the command line: `--forward-to`. */
    readonly flag?: string,
    readonly code: string = 'invalid_input',
  ) {
    super(message);
  }
}

/**
 * Prints a usage error on stderr (a JSON line under `--json`, so scripts can parse it) and returns exit
 * code 2.
 */
export function reportUsageError(ctx: InteractiveContext, err: UsageError): number {
  const line = ctx.json
    ? JSON.stringify({ error: err.code, message: err.message, ...(err.flag && { flag: err.flag }) })
    : `error: ${err.code}: ${err.message}`;
  ctx.io.stderr.write(`${line}\n`);
  return ExitCode.usage;
}

/**
 * Runs a command body and turns a {@link UsageError} into exit code 2; anything else (service errors) is
 * rethrown for the command layer to map.
 */
export async function withUsageErrors(ctx: InteractiveContext, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof UsageError) return reportUsageError(ctx, err);
    throw err;
  }
}
