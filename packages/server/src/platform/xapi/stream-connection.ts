import type { SendFetch } from './user-client.js';

/**
 * The one connection to X's filtered stream (`GET /2/tweets/search/stream`), kept open: newline-delimited
 * JSON, a keep-alive `\r\n` about every 20 s, a stall timeout, and reconnection with the backoff X documents
 * for the stream ("Handling disconnections", "Recovery and redundancy"):
 * - a network error (no answer, a dropped or stalled connection): linearly, 250 ms more per attempt, up to
 *   16 s;
 * - an HTTP error X may recover from (5xx, 4xx other than 401, 403 and 429): exponentially from 5 s, doubling,
 *   up to 320 s;
 * - 429 (the app's connection or reconnect limit): exponentially from 1 minute, doubling, and at least until
 *   `x-rate-limit-reset` when X names it;
 * - 401 and 403 (the token, or a tier without the stream): the longest HTTP wait, then tried again, so a fixed
 *   token or a new tier is picked up without a restart.
 * A connection that delivered anything resets the backoff.
 *
 * Why not xdk's `StreamClient.posts()`: its `EventDrivenStream` (xdk 0.6.6) drops blank lines before its
 * keep-alive check, so X's `\r\n` heartbeats never surface and a stall cannot be told from a quiet stream;
 * its reconnection is a placeholder ("Reconnect not implemented"); it logs every error with `console.error`
 * and answers a non-2xx with a bare `Error` that loses X's `x-rate-limit-reset`. See docs/dev/xapi.md.
 */

/** The backoff schedule (milliseconds); tests shorten it. */
export interface StreamBackoff {
  /** Added per attempt after a network error (X: 250 ms). */
  networkStepMs: number;
  /** The longest wait after network errors (X: 16 s). */
  networkMaxMs: number;
  /** The first wait after an HTTP error (X: 5 s), doubled per attempt. */
  httpFirstMs: number;
  /** The longest wait after HTTP errors (X: 320 s). */
  httpMaxMs: number;
  /** The first wait after a 429 (X: 1 minute), doubled per attempt. */
  rateLimitFirstMs: number;
  /** The longest wait after 429s (15 minutes, X's rate-limit window). */
  rateLimitMaxMs: number;
}

/** X's documented schedule. */
export const X_STREAM_BACKOFF: StreamBackoff = {
  networkStepMs: 250,
  networkMaxMs: 16_000,
  httpFirstMs: 5_000,
  httpMaxMs: 320_000,
  rateLimitFirstMs: 60_000,
  rateLimitMaxMs: 15 * 60_000,
};

/**
 * No byte for this long (X sends a heartbeat every 20 s) and the connection is taken as stalled: closed and
 * opened again (network backoff). A little over X's interval, so one late heartbeat is not a stall.
 */
export const STALL_MS = 25_000;

/** A line this long without its end is a broken stream, not a post (a post with its expansions is far less). */
const MAX_LINE_CHARS = 4 * 1024 * 1024;

/** One message of the stream: a post with its expansions and the rules it matched. */
export interface StreamMessage {
  data?: unknown;
  includes?: unknown;
  matching_rules?: { id?: string; tag?: string }[];
  errors?: { title?: string; detail?: string; type?: string }[];
}

/** What the connection reports as it goes (for the status and the log). */
export type StreamNotice =
  | { kind: 'connected' }
  | { kind: 'heartbeat' }
  | { kind: 'disconnected'; reason: string }
  | { kind: 'retrying'; cause: 'network' | 'http' | 'rate_limit'; status?: number; waitMs: number };

/** What {@link StreamConnection} needs. */
export interface StreamConnectionOptions {
  /** The full URL, query included. */
  url: string;
  bearerToken: string;
  fetch?: SendFetch | undefined;
  /** Handles one message; the next is not read until it settles (so the buffer keeps X's order). */
  onMessage: (message: StreamMessage) => Promise<void>;
  onNotice?: ((notice: StreamNotice) => void) | undefined;
  stallMs?: number | undefined;
  backoff?: Partial<StreamBackoff> | undefined;
  /** Milliseconds since the epoch, to turn `x-rate-limit-reset` into a wait. */
  now?: (() => number) | undefined;
}

/** The wait before attempt `n` (1-based) of a kind, per X's schedule. */
export function backoffWait(
  cause: 'network' | 'http' | 'rate_limit',
  n: number,
  b: StreamBackoff = X_STREAM_BACKOFF,
): number {
  if (cause === 'network') return Math.min(b.networkMaxMs, b.networkStepMs * n);
  const [first, max] =
    cause === 'http' ? [b.httpFirstMs, b.httpMaxMs] : [b.rateLimitFirstMs, b.rateLimitMaxMs];
  return Math.min(max, first * 2 ** Math.min(n - 1, 30));
}

/** What a failed connection waits for before the next: X's schedule per kind of failure. */
type RetryCause = 'network' | 'http' | 'rate_limit';

/** A stalled connection (no byte within the stall timeout). */
class StallError extends Error {
  override readonly name = 'StallError';
}

/**
 * Holds one connection to the filtered stream until {@link stop}: at most one request is open at any time,
 * and a new one is only made after the previous one is closed.
 */
export class StreamConnection {
  readonly #o: StreamConnectionOptions;
  readonly #b: StreamBackoff;
  readonly #fetch: SendFetch;
  #stopped = true;
  #abort: AbortController | undefined;
  #wake: (() => void) | undefined;
  #loop: Promise<void> | undefined;
  #attempts: { cause: RetryCause | undefined; n: number } = { cause: undefined, n: 0 };

  constructor(opts: StreamConnectionOptions) {
    this.#o = opts;
    this.#b = { ...X_STREAM_BACKOFF, ...opts.backoff };
    this.#fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Whether the connection is being held (between {@link start} and {@link stop}). */
  get running(): boolean {
    return !this.#stopped;
  }

  /** Opens the connection and keeps it open (reconnecting as needed) until {@link stop}. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#loop = this.#run();
  }

  /** Closes the connection and waits for it to be closed. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#abort?.abort();
    this.#wake?.();
    await this.#loop;
    this.#loop = undefined;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      const retry = await this.#once();
      if (this.#stopped) break;
      // Each kind counts its own run of attempts; another kind of failure starts its schedule over.
      const n = this.#attempts.cause === retry.cause ? this.#attempts.n + 1 : 1;
      this.#attempts = { cause: retry.cause, n };
      const waitMs = Math.max(backoffWait(retry.cause, n, this.#b), retry.atLeastMs ?? 0);
      this.#o.onNotice?.({
        kind: 'retrying',
        cause: retry.cause,
        waitMs,
        ...(retry.status !== undefined && { status: retry.status }),
      });
      await this.#sleep(waitMs);
    }
  }

  /** One connection, from the request to its end; answers how to wait before the next. */
  async #once(): Promise<{ cause: RetryCause; status?: number; atLeastMs?: number }> {
    const abort = new AbortController();
    this.#abort = abort;
    let res: Response;
    try {
      res = await this.#fetch(this.#o.url, {
        headers: { authorization: `Bearer ${this.#o.bearerToken}`, accept: 'application/json' },
        signal: abort.signal,
        redirect: 'error',
      });
    } catch {
      this.#o.onNotice?.({ kind: 'disconnected', reason: 'X could not be reached' });
      return { cause: 'network' };
    }
    if (!res.ok) {
      // Not awaited: the error body is not needed, and a peer that never ends it must not hold the loop.
      res.body?.cancel().catch(() => undefined);
      this.#o.onNotice?.({ kind: 'disconnected', reason: `X answered ${res.status}` });
      if (res.status === 429) return { cause: 'rate_limit', status: 429, atLeastMs: this.#resetWait(res) };
      if (res.status === 401 || res.status === 403)
        return { cause: 'http', status: res.status, atLeastMs: this.#b.httpMaxMs };
      return { cause: 'http', status: res.status };
    }
    this.#attempts = { cause: undefined, n: 0 };
    this.#o.onNotice?.({ kind: 'connected' });
    try {
      await this.#read(res, abort);
      this.#o.onNotice?.({ kind: 'disconnected', reason: 'X closed the stream' });
    } catch (err) {
      const reason =
        err instanceof StallError
          ? err.message
          : `the stream broke${err instanceof Error && err.name !== 'AbortError' ? `: ${err.message}` : ''}`;
      if (!this.#stopped) this.#o.onNotice?.({ kind: 'disconnected', reason });
    } finally {
      abort.abort();
    }
    return { cause: 'network' };
  }

  /** Reads lines until X closes the stream, it stalls or it is stopped. */
  async #read(res: Response, abort: AbortController): Promise<void> {
    if (!res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const stallMs = this.#o.stallMs ?? STALL_MS;
    let stalled = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stalled = true;
        abort.abort();
        reader.cancel().catch(() => undefined);
      }, stallMs);
    };
    let pending = '';
    // Stopping aborts the request; the body's reader is cancelled too, whatever the fetch does with the signal.
    const onAbort = () => reader.cancel().catch(() => undefined);
    abort.signal.addEventListener('abort', onAbort, { once: true });
    try {
      arm();
      for (;;) {
        const { done, value } = await reader.read();
        if (stalled) throw new StallError(`no data or heartbeat from X for ${stallMs / 1000} s`);
        if (done) return;
        arm();
        pending += decoder.decode(value, { stream: true });
        if (pending.length > MAX_LINE_CHARS) throw new Error('a line longer than any post from X');
        let end = pending.indexOf('\n');
        while (end !== -1) {
          const line = pending.slice(0, end).trim();
          pending = pending.slice(end + 1);
          if (line === '') this.#o.onNotice?.({ kind: 'heartbeat' });
          else await this.#message(line);
          end = pending.indexOf('\n');
        }
      }
    } catch (err) {
      if (stalled) throw new StallError(`no data or heartbeat from X for ${stallMs / 1000} s`);
      throw err;
    } finally {
      clearTimeout(timer);
      abort.signal.removeEventListener('abort', onAbort);
    }
  }

  async #message(line: string): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return; // a cut line of a broken connection: the next connection goes on
    }
    if (parsed && typeof parsed === 'object') await this.#o.onMessage(parsed as StreamMessage);
  }

  /** Milliseconds until `x-rate-limit-reset` (epoch seconds), or 0 when X does not say. */
  #resetWait(res: Response): number {
    const reset = Number(res.headers.get('x-rate-limit-reset'));
    if (!res.headers.has('x-rate-limit-reset') || !Number.isFinite(reset)) return 0;
    return Math.max(0, reset * 1000 - (this.#o.now ?? Date.now)());
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }
}
