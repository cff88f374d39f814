import { homedir } from 'node:os';
import { type CliIO, systemClock } from './io.js';

/**
 * The IO of the real process: its streams and environment, real time, and a signal aborted on the first
 * SIGINT or SIGTERM (a second one exits at once), and a `fetch` over `node:http`. A closed stdout pipe ends
 * the process quietly.
 */
export function processIo(): CliIO {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    controller.abort(new Error(`received ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `xsvc … | head`: the reader went away; stop quietly, as other Unix tools do.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  return {
    stdout: process.stdout,
    // Getters: Node builds these streams on first use (a TTY or pipe handle each), which a help line never needs.
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    home: homedir(),
    clock: systemClock,
    signal: controller.signal,
    // Over `node:http`, loaded on the first request: Node's own fetch costs more to start than the rest
    // of a command (see `exec/node-fetch.ts`).
    fetch: async (input, init) => (await import('./exec/node-fetch.js')).nodeFetch(input, init),
  };
}
