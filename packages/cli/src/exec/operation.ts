import { ApiError } from '@xsvc/sdk';
import { type Route, routes } from '@xsvc/sdk/transport';
import type { OptionValues } from 'commander';
import { type Collected, collectParams } from '../args/collect.js';
import { validateParams } from '../args/validate.js';
import type { InteractiveCommandSpec } from '../interactive/types.js';
import { makeOutput } from '../output/output.js';
import { startSpinner } from '../output/spinner.js';
import type { GlobalFlags } from '../program/globals.js';
import type { RunState } from '../program/run-state.js';
import type { CommandSpec } from '../table/types.js';
import { createClient } from './client.js';
import { loadCredentials, notLoggedIn } from './credentials.js';
import { deprecationWarnings } from './deprecations.js';
import { describeRequest, printDryRun } from './dry-run.js';
import { runInteractive } from './interactive.js';
import { listingFlags, listingParams, runListing } from './listing.js';
import { callWithPayment, paymentModeOf } from './machine-payment.js';
import { printResult } from './print-result.js';
import { idempotencyKeyFlag, runWrite, writeFlags } from './write.js';

/** One invocation of an operation's command. */
export interface OperationRun {
  readonly spec: CommandSpec;
  readonly positionals: readonly unknown[];
  readonly opts: OptionValues;
  readonly globals: GlobalFlags;
  readonly state: RunState;
  /** The interactive command merged into this one (`extractions run`), run instead of the plain call. */
  readonly interactive?: InteractiveCommandSpec | undefined;
}

/**
 * Runs an operation: parameters from the command line, validated by the contract before anything is
 * sent; then a dry run, or the call (a listing, a durable write, a file, or a plain answer) and its output.
 */
export async function runOperation(run: OperationRun): Promise<void> {
  const { spec, state, globals } = run;
  // A file download's code (and the streams it writes with) loads only for an operation that answers a
  // file, started here beside the checks; a plain call such as `users get` never loads it.
  if (spec.response === 'binary') import('./binary.js').catch(() => {});
  const collected = await collectParams(spec, run.positionals, run.opts, state.io, globals.dryRun);
  // Nothing but the contract checks a dry run, a URL to open or an interactive flow: the full check then.
  await validateParams(spec, collected, {
    full: globals.dryRun || spec.redirect === true || run.interactive !== undefined,
  });
  try {
    await execute(run, collected);
  } catch (err) {
    // The quick local checks leave the contract's refinements to the service: when it refuses the
    // request as malformed, the contract names the flag to fix (else the service's own error stands).
    if (err instanceof ApiError && err.status === 400) {
      await validateParams(spec, collected, { full: true, refused: true });
    }
    throw err;
  }
}

async function execute(run: OperationRun, collected: Collected): Promise<void> {
  const { spec, state, globals } = run;
  const { io } = state;
  const out = await makeOutput(io, globals);
  for (const w of deprecationWarnings(spec, collected)) out.note(`${out.errStyle.yellow('warning:')} ${w}`);
  const listing = spec.pagination ? listingFlags(run.opts) : undefined;
  const write = spec.write ? writeFlags(run.opts) : undefined;
  const key = write ? write.idempotencyKey : spec.idempotencyKey ? idempotencyKeyFlag(run.opts) : undefined;
  const params = listing ? listingParams(spec, collected.params, listing) : collected.params;
  const route = (routes as Readonly<Record<string, Route>>)[spec.op];
  if (!route) throw new Error(`the SDK has no route ${spec.op}: rebuild @xsvc/cli against this @xsvc/sdk`);
  const creds = await loadCredentials(state, globals);
  if (globals.dryRun) {
    const dry = describeRequest(spec, route, params, collected.files, creds, {
      all: listing?.all === true,
      idempotencyKey: key,
    });
    printDryRun(out, dry);
    return;
  }
  if (spec.redirect) {
    const { url } = describeRequest(spec, route, params, collected.files, creds, { all: false });
    if (out.json) out.value({ url });
    else out.line(url);
    if (!out.json)
      out.hint(out.errStyle.dim('Open this URL in a browser: the service answers it with a redirect.'));
    return;
  }
  if (run.interactive) {
    state.exitCode = await runInteractive(
      run.interactive,
      rawForInteractive(run, collected.params),
      creds,
      out,
      state,
      globals,
    );
    return;
  }
  const binary = spec.response === 'binary' ? await import('./binary.js') : undefined;
  const target = binary?.binaryTarget(io, run.opts);
  const payment = paymentModeOf(spec, run.opts, creds);
  if (spec.auth && creds.apiKey === undefined && !payment) throw notLoggedIn(creds);
  // A machine-paid call is anonymous (`apiKey: ''` keeps the SDK from reading XSVC_API_KEY): the payment,
  // not the account's credits, pays for it.
  const client = createClient(io, payment ? { ...creds, apiKey: '' } : creds, out);
  const ctx = {
    io,
    out,
    argv: state.argv,
    setExitCode: (code: number) => {
      state.exitCode = code;
    },
  };
  if (listing) return runListing(client, route, spec, params, listing, ctx);
  if (write) return runWrite(client, route, params, write, ctx);
  if (payment) {
    const paid = await callWithPayment<unknown>(client, route, params, { io, out, creds, mode: payment });
    return printResult(out, paid.data, spec.items);
  }
  const spinner = startSpinner(io.stderr, `${spec.path.join(' ')}…`);
  let res: Awaited<ReturnType<typeof client.transport.call<unknown>>>;
  try {
    res = await client.transport.call<unknown>(route, params, {
      ...(io.signal && { signal: io.signal }),
      ...(key !== undefined && { idempotencyKey: key }),
    });
  } finally {
    spinner.stop();
  }
  if (binary) return binary.binarySaved(res.response, target, io, out, run.opts.formulaGuard === false);
  if (spec.response === 'empty' || res.data === undefined) {
    if (out.json) out.value({ ok: true, status: res.status });
    else out.hint(out.errStyle.green('Done.'));
    return;
  }
  printResult(out, res.data, spec.items);
}

/**
 * The options object an interactive runner reads: the operation's parameters by contract name, the
 * interactive command's own options by key, and its positional arguments mapped in order.
 */
function rawForInteractive(run: OperationRun, params: Record<string, unknown>): Record<string, unknown> {
  const raw: Record<string, unknown> = { ...params };
  for (const o of run.interactive?.options ?? []) {
    const v = run.opts[o.key];
    if (v !== undefined && raw[o.key] === undefined) raw[o.key] = v;
  }
  run.interactive?.arguments.forEach((a, i) => {
    const mine = run.spec.args[i];
    const value = run.positionals[i] ?? (mine ? params[mine.key] : undefined);
    if (value !== undefined) raw[a.key] = value;
  });
  return raw;
}
