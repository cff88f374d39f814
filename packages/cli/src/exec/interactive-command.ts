import type { InteractiveCommandSpec } from '../interactive/types.js';
import { makeOutput } from '../output/output.js';
import type { GlobalFlags } from '../program/globals.js';
import type { RunState } from '../program/run-state.js';
import { loadCredentials } from './credentials.js';
import { runInteractive } from './interactive.js';

/**
 * Runs a standalone interactive command (`monitors watch`, `webhooks listen`, …). These make many requests
 * over time, so `--dry-run` describes the session instead of one request, and sends nothing.
 */
export async function runInteractiveCommand(
  spec: InteractiveCommandSpec,
  raw: Readonly<Record<string, unknown>>,
  state: RunState,
  globals: GlobalFlags,
): Promise<number> {
  const out = await makeOutput(state.io, globals);
  const creds = await loadCredentials(state, globals);
  if (globals.dryRun) {
    const what = { command: `xsvc ${spec.name}`, baseUrl: creds.baseUrl, options: raw, sent: false };
    if (out.json) out.value(what);
    else
      out.line(
        `dry run: \`xsvc ${spec.name}\` would start a session against ${creds.baseUrl}; nothing was sent.`,
      );
    return 0;
  }
  return runInteractive(spec, raw, creds, out, state, globals);
}
