import type { FastifyBaseLogger } from 'fastify';

/** The marker of every line the last-resort handler writes; the chaos suite asserts it never appears. */
export const LAST_RESORT_MARKER = 'xsvc-server: UNEXPECTED';

/** What the last-resort handler has caught so far. */
export interface LastResort {
  /** Errors that reached the process without a handler (uncaught exceptions and unhandled rejections). */
  count(): number;
  /**
   * The server listens, with `log` as its logger: from now on the handler keeps the process up. Before,
   * an unexpected error ends it (exit code 1), since a half-started server is worse than none.
   */
  listening(log: FastifyBaseLogger): void;
}

/**
 * The last line of defence: an error nothing handled (an `'error'` event without a listener, a rejected
 * promise nobody awaited) is written loudly to stderr and to the log, counted, and the server keeps serving
 * its other requests instead of dropping every connection and, with work pending, crashing again at each
 * restart. It is not a fix: each such line is a bug to report (outbound failures, for instance, are
 * attempt outcomes and never get here), and the chaos suite fails when one is written.
 */
export function installLastResort(proc: NodeJS.Process = process): LastResort {
  let caught = 0;
  let log: FastifyBaseLogger | undefined;
  const report = (kind: string, err: unknown) => {
    caught += 1;
    const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
    const after = log ? 'the server keeps running' : 'the server was starting: it stops';
    proc.stderr.write(
      `${LAST_RESORT_MARKER} ${kind} #${caught} (a bug: please report it; ${after}): ${text}\n`,
    );
    if (!log) return void proc.exit(1);
    log.fatal({ err, kind, caught }, 'unexpected error caught by the last-resort handler');
  };
  proc.on('uncaughtException', (err) => report('uncaughtException', err));
  proc.on('unhandledRejection', (reason) => report('unhandledRejection', reason));
  return {
    count: () => caught,
    listening: (l) => {
      log = l;
    },
  };
}
