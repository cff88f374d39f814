import { registerPlatformErrors } from '../../core/platform/errors.js';
import { PlatformUnavailableError } from '../../core/platform/platform.js';
import type { XProblem, XResponse } from './types.js';

/** The few things the client needs of `fetch`, so tests and other runtimes can hand in their own. */
export type FetchLike = (
  input: string,
  init: { headers: Record<string, string>; signal: AbortSignal; redirect: 'error' },
) => Promise<Response>;

/** How to reach the X API v2. */
export interface XApiClientOptions {
  /** The app's bearer token (app-only auth). Sent in `Authorization`, never put in a message. */
  bearerToken: string;
  /** `https://api.x.com` unless a proxy or a test server stands in. */
  baseUrl?: string | undefined;
  fetch?: FetchLike | undefined;
  /** Per request, the answer's body included; 10 s by default. */
  timeoutMs?: number | undefined;
  /** The largest answer read, in bytes ({@link MAX_ANSWER_BYTES} by default); a larger one is unavailable. */
  maxAnswerBytes?: number | undefined;
  /** Milliseconds since the epoch, to turn `x-rate-limit-reset` into a wait. */
  now?: (() => number) | undefined;
  /**
   * Hears the status and headers of every answer to the app token (its `x-rate-limit-*` headers feed the
   * monitors' request budget). Not passed on by {@link XApiClient.withToken}: a user token's limits are the
   * user's, not the app's.
   */
  onAnswer?: ((path: string, status: number, headers: Headers) => void) | undefined;
}

/**
 * A tagged template for API paths: every interpolated value is percent-encoded, so an id coming from a
 * caller can never add a path segment or a query (`path\`/2/users/${id}/tweets\``).
 */
export function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce(
    (out, s, i) => out + s + (i < values.length ? encodeURIComponent(String(values[i])) : ''),
    '',
  );
}

/** Query parameters; `undefined` values are left out. */
export type XQuery = Record<string, string | number | undefined>;

/**
 * A 4xx other than 401, 403 and 429 (a malformed id, an unknown resource). It is still a
 * `PlatformUnavailableError` for callers that do not care, while lookups use `status` to answer "not found".
 */
export class XApiRequestError extends PlatformUnavailableError {
  constructor(
    message: string,
    readonly status: number,
    readonly problem: XProblem | undefined,
  ) {
    super('x_api_unavailable', message);
  }
}

/** Whether `err` is the X API refusing a request (as opposed to being down, rate limited or unauthorized). */
export function isXApiRequestError(err: unknown): err is XApiRequestError {
  return err instanceof XApiRequestError;
}

// A request X refuses as malformed (400) is the caller's input: 400 `invalid_input`. Every other X failure is
// a `PlatformUnavailableError`, which core maps without help.
registerPlatformErrors('xapi', (err) =>
  isXApiRequestError(err) && err.status === 400 ? { code: 'invalid_input', message: err.message } : undefined,
);

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The largest X API answer read (16 MiB): a page of 100 tweets with every expansion is well under 1 MiB, so
 * anything near this is a broken upstream or proxy, and reading it whole would only cost memory.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** An error body is read up to this many bytes (only its first problem is kept). */
const MAX_PROBLEM_BYTES = 64 * 1024;

/** An answer larger than the client reads. */
class AnswerTooLargeError extends Error {
  override readonly name = 'AnswerTooLargeError';
}

/**
 * A small fetch-based X API v2 client for app-only reads. Every failure becomes a `PlatformUnavailableError`
 * with the spec's code (401/403 → `x_api_unauthorized`, 429 → `x_api_rate_limited` with the wait until
 * `x-rate-limit-reset`, 5xx, timeouts and network failures → `x_api_unavailable`), and the token is redacted
 * from every message in case an upstream ever echoes it.
 */
export class XApiClient {
  readonly baseUrl: string;
  readonly #token: string;
  readonly #fetch: FetchLike;
  readonly #timeoutMs: number;
  readonly #maxAnswerBytes: number;
  readonly #now: () => number;

  readonly #opts: XApiClientOptions;

  constructor(opts: XApiClientOptions) {
    if (!opts.bearerToken) throw new TypeError('XApiClient needs a bearer token');
    this.#opts = opts;
    this.#token = opts.bearerToken;
    this.baseUrl = (opts.baseUrl ?? 'https://api.x.com').replace(/\/+$/, '');
    // Looked up at call time so a fetch patched after construction (msw in tests) is the one used.
    this.#fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#maxAnswerBytes = opts.maxAnswerBytes ?? MAX_ANSWER_BYTES;
    this.#now = opts.now ?? Date.now;
  }

  /**
   * The same client with another bearer token: a connected account's OAuth 2.0 access token, for the
   * user-context reads (bookmarks, the home timeline, direct messages).
   */
  withToken(token: string): XApiClient {
    return new XApiClient({ ...this.#opts, bearerToken: token, onAnswer: undefined });
  }

  /** `GET path?query`, answering the parsed body of a 2xx (which may still carry partial `errors`). */
  async get<T>(path: string, query: XQuery = {}): Promise<XResponse<T>> {
    const what = `GET ${path}`;
    const res = await this.#send(path, query, what);
    this.#opts.onAnswer?.(path, res.status, res.headers);
    if (res.ok) return (await this.#json(res, what)) as XResponse<T>;
    throw await this.#failure(res, what);
  }

  async #send(path: string, query: XQuery, what: string): Promise<Response> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    const url = `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;
    try {
      return await this.#fetch(url, {
        headers: { authorization: `Bearer ${this.#token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(this.#timeoutMs),
        // A redirect from the API is a broken upstream or proxy: never followed, it fails the request.
        redirect: 'error',
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const message = timedOut
        ? `the X API did not answer ${what} within ${this.#timeoutMs / 1000} s`
        : `the X API could not be reached for ${what}`;
      throw new PlatformUnavailableError('x_api_unavailable', this.#redact(message));
    }
  }

  async #json(res: Response, what: string): Promise<unknown> {
    try {
      return JSON.parse(await readCapped(res, this.#maxAnswerBytes));
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const why =
        err instanceof AnswerTooLargeError
          ? `an answer larger than ${this.#maxAnswerBytes} bytes`
          : timedOut
            ? `no whole answer within ${this.#timeoutMs / 1000} s`
            : 'an unreadable answer';
      throw new PlatformUnavailableError('x_api_unavailable', `the X API sent ${why} to ${what}`);
    }
  }

  async #failure(res: Response, what: string): Promise<PlatformUnavailableError> {
    const problem = await readProblem(res, (text) => this.#redact(text));
    const said = problem ? `: ${[problem.title, problem.detail].filter(Boolean).join(': ')}` : '';
    const msg = (text: string) => this.#redact(text);
    if (res.status === 401 || res.status === 403) {
      return new PlatformUnavailableError(
        'x_api_unauthorized',
        msg(`the X API refused the app credentials for ${what} (${res.status})${said}`),
      );
    }
    if (res.status === 429) {
      const wait = this.#retryAfter(res.headers);
      const when = wait === undefined ? '' : `; the window resets in ${wait} s`;
      return new PlatformUnavailableError(
        'x_api_rate_limited',
        msg(`the X API rate limit was reached for ${what}${when}`),
        wait,
      );
    }
    if (res.status >= 500) {
      return new PlatformUnavailableError(
        'x_api_unavailable',
        msg(`the X API answered ${res.status} to ${what}${said}`),
      );
    }
    return new XApiRequestError(
      msg(`the X API rejected ${what} (${res.status})${said}`),
      res.status,
      problem,
    );
  }

  /** Seconds until the rate-limit window resets: `x-rate-limit-reset` (epoch seconds), else `retry-after`. */
  #retryAfter(headers: Headers): number | undefined {
    const reset = Number(headers.get('x-rate-limit-reset'));
    if (headers.has('x-rate-limit-reset') && Number.isFinite(reset)) {
      return Math.max(1, Math.ceil(reset - this.#now() / 1000));
    }
    const after = Number(headers.get('retry-after'));
    if (headers.has('retry-after') && Number.isFinite(after)) return Math.max(1, Math.ceil(after));
    return undefined;
  }

  #redact(text: string): string {
    return text.split(this.#token).join('[redacted]');
  }
}

/** The first problem of an error body, cut short and redacted (it ends up in messages and on the error). */
async function readProblem(res: Response, redact: (text: string) => string): Promise<XProblem | undefined> {
  try {
    const body = JSON.parse(await readCapped(res, MAX_PROBLEM_BYTES)) as XProblem & { errors?: XProblem[] };
    const first = body.errors?.[0];
    const problem = body.title || body.detail ? body : first;
    if (!problem) return undefined;
    return {
      ...(typeof problem.type === 'string' ? { type: redact(problem.type) } : {}),
      ...(typeof problem.title === 'string' ? { title: redact(problem.title) } : {}),
      ...(typeof problem.detail === 'string' ? { detail: redact(problem.detail).slice(0, 300) } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * The body of `res` as text, read chunk by chunk and given up (the rest cancelled) past `max` bytes, so an
 * upstream that answers without end costs neither memory nor time beyond the request's signal.
 */
async function readCapped(res: Response, max: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw new AnswerTooLargeError();
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
