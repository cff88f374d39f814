import { WriteAction, type WriteActionData, type Xsvc } from '@xsvc/sdk';
import type { Route } from '@xsvc/sdk/transport';
import type { OptionValues } from 'commander';
import { CliError, UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { Output } from '../output/output.js';
import { startSpinner } from '../output/spinner.js';
import { printResult } from './print-result.js';
import { waitForAction } from './wait.js';
import { summarizeAction } from './write-summary.js';

/** How long `--wait` waits by default before reporting the write pending. */
export const DEFAULT_WAIT_SECONDS = 120;

/** `--wait`, `--no-wait`, `--wait-timeout`, `--idempotency-key` of a durable write. */
export interface WriteFlags {
  readonly wait: boolean;
  readonly timeoutMs: number;
  readonly idempotencyKey: string | undefined;
}

/** Reads the write flags; a bad `--wait-timeout` is a usage error. */
export function writeFlags(opts: OptionValues): WriteFlags {
  let seconds = DEFAULT_WAIT_SECONDS;
  if (opts.waitTimeout !== undefined) {
    seconds = Number(opts.waitTimeout);
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new UsageError(
        `--wait-timeout expects seconds, got "${String(opts.waitTimeout)}"`,
        undefined,
        'invalid_input',
        '--wait-timeout',
      );
    }
  }
  return { wait: opts.wait !== false, timeoutMs: seconds * 1000, idempotencyKey: idempotencyKeyFlag(opts) };
}

/** `--idempotency-key` of a command whose operation takes one; a key out of 1-255 characters is a usage error. */
export function idempotencyKeyFlag(opts: OptionValues): string | undefined {
  const key = typeof opts.idempotencyKey === 'string' ? opts.idempotencyKey : undefined;
  if (key !== undefined && (key.length === 0 || key.length > 255)) {
    throw new UsageError(
      '--idempotency-key must be 1-255 characters',
      undefined,
      'invalid_idempotency_key',
      '--idempotency-key',
    );
  }
  return key;
}

/**
 * Sends a durable write once and, unless `--no-wait`, polls it until final. A success prints the action;
 * a failed or expired one is an error saying whether a retry is safe; one still active is printed with the
 * command to watch it, and exit code 8.
 */
export async function runWrite(
  client: Xsvc,
  route: Route,
  params: Record<string, unknown>,
  flags: WriteFlags,
  ctx: { readonly io: CliIO; readonly out: Output; setExitCode(code: number): void },
): Promise<void> {
  const { io, out } = ctx;
  const signal = io.signal;
  const spinner = startSpinner(io.stderr, 'Sending…');
  let action: WriteAction;
  try {
    const res = await client.transport.call<WriteActionData>(route, params, {
      ...(signal && { signal }),
      ...(flags.idempotencyKey !== undefined && { idempotencyKey: flags.idempotencyKey }),
    });
    action = new WriteAction(client.transport, res.data, res.headers);
    if (!action.terminal && flags.wait) {
      spinner.update(`Waiting for write ${action.id} (${action.status})…`);
      await waitForAction(action, {
        clock: io.clock,
        timeoutMs: flags.timeoutMs,
        signal,
        onProgress: (d) => spinner.update(`Waiting for write ${d.id} (${d.status})…`),
      });
    }
  } finally {
    spinner.stop();
  }
  reportAction(action, out, ctx.setExitCode);
}

/** Prints a write action's state (what was done; the whole action with `--json`); throws when it failed, sets exit code 8 when it is still pending. */
export function reportAction(action: WriteAction, out: Output, setExitCode: (code: number) => void): void {
  printResult(out, out.json ? action.data : summarizeAction(action.data), undefined);
  if (!action.terminal) {
    out.note(
      out.json
        ? JSON.stringify({ pending: true, id: action.id, watch: `xsvc write-actions watch ${action.id}` })
        : out.errStyle.yellow(
            `Write ${action.id} is still ${action.status}: watch it with \`xsvc write-actions watch ${action.id}\`. Do not send it again.`,
          ),
    );
    setExitCode(ExitCode.writePending);
    return;
  }
  if (action.succeeded) return;
  const d = action.data;
  throw new CliError(
    `write ${d.id} ended ${d.status}${d.error ? ` (${d.error})` : ''}`,
    ExitCode.error,
    d.nextAction?.type === 'verify_result'
      ? 'Check on the platform whether it happened before sending it again.'
      : d.safeToRetry
        ? 'Safe to retry: send it again with a new --idempotency-key (or none).'
        : 'Do not retry as is: change the request first.',
    d.error ?? `write_${d.status}`,
  );
}
