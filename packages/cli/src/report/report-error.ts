import { CliError } from '../errors.js';
import { type LoadedCredentials, refusedKeyNext } from '../exec/credentials.js';
import { ExitCode } from '../exit-codes.js';
import { type CliIO, noColor } from '../io.js';
import { makeStyle } from '../output/style.js';
import type { GlobalFlags } from '../program/globals.js';
import { commanderCode } from './commander-code.js';
import { nextStep } from './hints.js';

/** An error as printed: the spec's code, the message, and what to do next. */
export interface ErrorReport {
  readonly error: string;
  readonly message: string;
  readonly status?: number;
  readonly next?: string;
  readonly retryAfter?: number;
  readonly flag?: string;
  readonly exitCode: number;
}

/**
 * Commands people type from other CLIs, and what xsvc calls them: commander's spelling suggestion would
 * send `xsvc status` to `styles`.
 */
const INSTEAD: Readonly<Record<string, string>> = {
  status: 'Did you mean `xsvc auth status` (or `xsvc whoami`)? It shows the account and the key in use.',
  me: 'Did you mean `xsvc whoami`? It shows the account and the key in use.',
  signin: 'Did you mean `xsvc login`?',
  signout: 'Did you mean `xsvc logout`?',
};

/** The exit code of a service error, by HTTP status. */
export function exitCodeForStatus(status: number): number {
  if (status === 401) return ExitCode.auth;
  if (status === 402) return ExitCode.paymentRequired;
  if (status === 429) return ExitCode.rateLimited;
  return ExitCode.error;
}

/**
 * Describes any error a command threw. The SDK is imported only when the error may be one of its own.
 * `creds` are those the command used, when it loaded them: a refused key (401) then names its source.
 */
export async function describeError(err: unknown, creds?: LoadedCredentials): Promise<ErrorReport> {
  if (err instanceof Error && commanderCode(err) !== undefined) {
    const word = /unknown command '([^']+)'/.exec(err.message)?.[1];
    const instead = word !== undefined ? INSTEAD[word] : undefined;
    return {
      error: 'usage_error',
      message: (instead ? err.message.replace(/\n\(Did you mean [^)]*\)/, '') : err.message).replace(
        /^error: /,
        '',
      ),
      exitCode: ExitCode.usage,
      next: instead ?? 'See `xsvc --help`, or `xsvc <command> --help`.',
    };
  }
  if (err instanceof CliError) {
    const flag = (err as { flag?: string }).flag;
    return {
      error: err.code,
      message: err.message,
      exitCode: err.exitCode,
      ...(err.next !== undefined && { next: err.next }),
      ...(flag !== undefined && { flag }),
    };
  }
  const sdk = await import('@xsvc/sdk');
  if (err instanceof sdk.ApiError) {
    const retryAfter = err.retryAfter;
    const reason = err.reason ? ` (reason: ${err.reason})` : '';
    return {
      error: err.code,
      message: `${err.message.replace(`${err.code}: `, '')}${reason}`,
      status: err.status,
      next:
        (err.status === 401 && creds ? refusedKeyNext(creds) : undefined) ??
        nextStep(
          err.code,
          err.status,
          retryAfter,
          err.request?.url ? new URL(err.request.url).origin : undefined,
        ),
      ...(retryAfter !== undefined && { retryAfter }),
      exitCode: exitCodeForStatus(err.status),
    };
  }
  if (err instanceof sdk.ConnectionError) {
    return {
      error: 'connection_error',
      message: err.message,
      exitCode: ExitCode.error,
      next: 'Is the service up? Check --base-url / XSVC_BASE_URL (a local server: `xsvc server start`).',
    };
  }
  if (err instanceof sdk.TimeoutError) {
    return {
      error: 'timeout',
      message: err.message,
      exitCode: ExitCode.error,
      next: 'No answer in time: retry later; for a write, check first whether it happened.',
    };
  }
  if (err instanceof sdk.AbortError) {
    return { error: 'cancelled', message: 'interrupted', exitCode: ExitCode.interrupted };
  }
  const message = err instanceof Error ? err.message : String(err);
  return {
    error: 'internal_error',
    message,
    exitCode: ExitCode.error,
    next: 'An unexpected failure of xsvc: please report it.',
  };
}

/** Prints an error on stderr (one JSON object with `--json`) and returns its exit code. */
export async function reportError(
  err: unknown,
  io: CliIO,
  globals: GlobalFlags,
  creds?: LoadedCredentials,
): Promise<number> {
  const report = await describeError(err, creds);
  const { exitCode, ...shown } = report;
  if (globals.json) {
    io.stderr.write(`${JSON.stringify(shown)}\n`);
    return exitCode;
  }
  const style = makeStyle(globals.color && !noColor(io.env) && io.stderr.isTTY === true);
  const status = report.status !== undefined ? ` (HTTP ${report.status})` : '';
  io.stderr.write(`${style.red('error:')} ${report.error}${status}: ${report.message}\n`);
  if (report.next) io.stderr.write(`${style.dim('next:')} ${report.next}\n`);
  return exitCode;
}
