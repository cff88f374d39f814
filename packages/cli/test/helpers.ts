import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createHandlers } from '@xsvc/sdk/testing';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { InteractiveCommandSpec } from '../src/interactive/types.js';
import type { CliIO, Clock } from '../src/io.js';
import { run } from '../src/run.js';

export const BASE = 'http://xsvc.test';
export const KEY = `svc_${'ab'.repeat(31)}9f2a`;

/** The mocked service's API root. */
export const V1 = `${BASE}/api/v1`;

/** The service mocked from the contract: every operation answers a schema-valid example. */
export const api = setupServer(...createHandlers({ baseUrl: BASE }));

/**
 * Serves the mocked {@link api} to the calling test file: listening before its tests (an unmocked request
 * fails the test), back to the contract's examples and with no request listener after each test, closed
 * after the last.
 */
export function serveMockedApi(): void {
  beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    api.resetHandlers();
    api.events.removeAllListeners();
  });
  afterAll(() => api.close());
}

/** A request the mocked service received. */
export interface Seen {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: Headers;
  readonly body: unknown;
}

/** Records every request the mocked service receives (call in a test; read `seen` after). */
export function recordRequests(): Seen[] {
  const seen: Seen[] = [];
  api.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    const entry = {
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      body: undefined as unknown,
    };
    seen.push(entry);
    const type = request.headers.get('content-type') ?? '';
    if (type.includes('json')) {
      void request
        .clone()
        .text()
        .then((t) => {
          entry.body = t ? JSON.parse(t) : undefined;
        });
    }
  });
  return seen;
}

/** A clock that never waits: `sleep` moves time forward at once. */
export function fakeClock(start = 1_700_000_000_000): Clock & { slept: number[] } {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      slept.push(ms);
      now += ms;
      await Promise.resolve();
    },
  };
}

/** A writable stream that keeps what is written, optionally pretending to be a terminal. */
export function captured(tty = false, columns = 100): PassThrough & { text(): string } {
  const s = new PassThrough() as PassThrough & { text(): string; isTTY?: boolean; columns?: number };
  let buf = '';
  s.on('data', (d: Buffer) => {
    buf += d.toString();
  });
  s.text = () => buf;
  if (tty) {
    s.isTTY = true;
    s.columns = columns;
  }
  return s;
}

/** Options of {@link cli}. */
export interface CliOptions {
  readonly env?: Record<string, string | undefined>;
  /** Text fed to stdin (then closed). */
  readonly stdin?: string;
  readonly tty?: boolean;
  readonly stdinTty?: boolean;
  readonly columns?: number;
  readonly clock?: Clock;
  readonly configHome?: string;
  /** Interactive commands to register: none by default, `'real'` for those of src/interactive. */
  readonly interactive?: readonly InteractiveCommandSpec[] | 'real';
  readonly signal?: AbortSignal;
}

/** The result of one command line. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as JSON. */
  json<T = unknown>(): T;
  /** stdout as JSON Lines. */
  lines<T = unknown>(): T[];
}

/** A fresh, empty config directory (removed at exit). */
export function tempConfigHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'xsvc-cli-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The default working, home and config directory of {@link cli}. */
export const WORK = tempConfigHome();

/**
 * Runs `xsvc <argv>` in-process against the mocked service, with the key and base URL in the environment
 * and a temporary config dir, unless the options say otherwise.
 */
export async function cli(argv: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const stdout = captured(options.tty ?? false, options.columns ?? 100);
  const stderr = captured(options.tty ?? false, options.columns ?? 100);
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (options.stdinTty ?? options.tty) stdin.isTTY = true;
  if (options.stdin !== undefined) stdin.end(options.stdin);
  const home = options.configHome ?? WORK;
  const env = {
    XSVC_API_KEY: KEY,
    XSVC_BASE_URL: BASE,
    XDG_CONFIG_HOME: home,
    // The SDK's retries wait for real (its backoff, Retry-After): off here, tested on their own.
    XSVC_MAX_RETRIES: '0',
    ...options.env,
  };
  const io: CliIO = {
    stdout,
    stderr,
    stdin,
    env,
    cwd: home,
    home,
    clock: options.clock ?? fakeClock(),
    ...(options.signal && { signal: options.signal }),
  };
  const interactive = options.interactive ?? [];
  const code = await run(argv, io, interactive === 'real' ? {} : { interactive });
  const out = stdout.text();
  return {
    code,
    stdout: out,
    stderr: stderr.text(),
    json: <T>() => JSON.parse(out) as T,
    lines: <T>() =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as T),
  };
}
