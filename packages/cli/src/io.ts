/**
 * Where the CLI reads and writes, and how it tells time: `run(argv, io)` takes everything from here, so
 * tests drive it in-process with fake streams, a temporary config dir and a fake clock.
 */

/** An output stream (process.stdout or a test fake such as a `PassThrough`). */
export type OutStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** The input stream (process.stdin or a test fake). */
export type InStream = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

/** Time as the CLI sees it; tests pass a clock that does not wait. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Everything `run` needs from its surroundings. */
export interface CliIO {
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  readonly stdin: InStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where relative paths (`@file.json`, `--output`) are resolved. */
  readonly cwd: string;
  /** The home directory, for `~/.config/xsvc` when `XDG_CONFIG_HOME` is unset. */
  readonly home: string;
  readonly clock: Clock;
  /** Aborted on Ctrl-C / SIGTERM (the bin wires it); long commands stop cleanly. */
  readonly signal?: AbortSignal;
  /** The `fetch` the SDK uses; the global one when absent (msw patches it in tests). */
  readonly fetch?: typeof fetch;
}

/** A clock on real time. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** True when `NO_COLOR` is set to anything but the empty string (https://no-color.org). */
export function noColor(env: CliIO['env']): boolean {
  const v = env.NO_COLOR;
  return v !== undefined && v !== '';
}

/** True when the CLI may prompt: both stdin and stdout are terminals. */
export function canPrompt(io: CliIO): boolean {
  return io.stdin.isTTY === true && io.stdout.isTTY === true;
}
