import type { OptionValues } from 'commander';
import { createClient } from '../exec/client.js';
import { loadCredentials, notLoggedIn } from '../exec/credentials.js';
import { waitForAction } from '../exec/wait.js';
import { reportAction, writeFlags } from '../exec/write.js';
import { makeOutput } from '../output/output.js';
import { startSpinner } from '../output/spinner.js';
import type { GlobalFlags } from '../program/globals.js';
import type { RunState } from '../program/run-state.js';

/**
 * `xsvc write-actions watch <id>`: loads a durable write and polls it until final (never re-sending it),
 * progress on stderr; exit 0 on success, 1 when it failed, 8 when still pending at the end of the wait.
 */
export async function watchWriteAction(
  state: RunState,
  globals: GlobalFlags,
  id: string,
  opts: OptionValues,
): Promise<void> {
  const { io } = state;
  const out = await makeOutput(io, globals);
  const flags = writeFlags(opts);
  const creds = await loadCredentials(state, globals);
  if (globals.dryRun) {
    out.line(
      `curl ${creds.baseUrl}/api/v1/x/write-actions/${encodeURIComponent(id)} -H "x-api-key: $XSVC_API_KEY"   # polled until final`,
    );
    return;
  }
  if (creds.apiKey === undefined) throw notLoggedIn(creds);
  const client = createClient(io, creds, out);
  const spinner = startSpinner(io.stderr, `Loading write ${id}…`);
  try {
    const action = await client.writeActions.resume(id, io.signal ? { signal: io.signal } : {});
    spinner.update(`Write ${id}: ${action.status}…`);
    await waitForAction(action, {
      clock: io.clock,
      timeoutMs: flags.timeoutMs,
      signal: io.signal,
      onProgress: (d) => spinner.update(`Write ${id}: ${d.status}…`),
    });
    spinner.stop();
    reportAction(action, out, (code) => {
      state.exitCode = code;
    });
  } finally {
    spinner.stop();
  }
}
