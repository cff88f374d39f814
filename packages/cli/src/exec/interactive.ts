import type { Credentials } from '../config/resolve.js';
import { ExitCode } from '../exit-codes.js';
import type { InteractiveCommandSpec, InteractiveContext } from '../interactive/types.js';
import { canPrompt, noColor } from '../io.js';
import type { Output } from '../output/output.js';
import type { GlobalFlags } from '../program/globals.js';
import type { RunState } from '../program/run-state.js';
import { createClient } from './client.js';

/**
 * Runs an interactive command: builds its context (a client for the profile, the process streams, a signal
 * aborted on Ctrl-C / SIGTERM) and loads its runner only now, so ink and react never slow other commands.
 * Resolves to the runner's exit code (130 when interrupted); errors of the service it throws are reported
 * like any command's.
 */
export async function runInteractive(
  spec: InteractiveCommandSpec,
  raw: Readonly<Record<string, unknown>>,
  creds: Credentials,
  out: Output,
  state: RunState,
  globals: GlobalFlags,
): Promise<number> {
  const { io } = state;
  const ctx: InteractiveContext = {
    client: createClient(io, creds, out),
    io: {
      stdout: io.stdout,
      stderr: io.stderr,
      stdin: io.stdin,
      interactive: canPrompt(io),
      color: globals.color && !noColor(io.env) && io.stdout.isTTY === true,
    },
    json: globals.json,
    signal: io.signal ?? new AbortController().signal,
    baseUrl: creds.baseUrl,
  };
  const mod = await spec.load();
  const code = await mod.run(ctx, raw);
  // A session the user stopped (Ctrl-C, SIGTERM) ends as `xsvc help exit-codes` says, whatever the runner
  // made of its clean stop.
  return io.signal?.aborted && code === ExitCode.ok ? ExitCode.interrupted : code;
}
