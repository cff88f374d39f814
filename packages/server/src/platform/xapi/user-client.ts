import { ApiError, Client } from '@xdevplatform/xdk';
import { PlatformUnavailableError, PlatformWriteAmbiguousError } from '../../core/platform/platform.js';

/** A `fetch` for requests that carry a method and a body (the global one fits). */
export type SendFetch = (input: string, init: RequestInit) => Promise<Response>;

/** How a user-context request to X failed. */
export type UserCallFailure =
  /** X answered with an error status; `status` and `headers` are X's, `detail` its first problem. */
  | { kind: 'answered'; status: number; headers: Headers; detail: string; type?: string | undefined }
  /** Nothing reached X (the address could not be resolved or connected to): safe to send again. */
  | { kind: 'not_sent'; message: string }
  /** Sent, no answer (a timeout or a dropped connection): X may or may not have acted on it. */
  | { kind: 'no_answer'; message: string };

/** A failure found before anything was sent. */
class NotSentError extends Error {
  override readonly name = 'NotSentError';
}

/** Network errors of Node's fetch (undici) that happen before a request leaves the machine. */
const BEFORE_SENDING = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** What the adapter passes to xdk: xdk calls `request(url, options)` on its `httpClient`. */
interface XdkRequestOptions {
  method?: string;
  headers?: Headers;
  body?: string;
  signal?: AbortSignal;
  timeout?: number;
}

/**
 * An xdk `Client` acting as one connected account (OAuth 2.0 user context, `Authorization: Bearer` with the
 * account's access token). Its HTTP goes through `fetch` looked up at call time (so msw in tests, or a
 * fetch handed in, is the one used), never follows a redirect, and tells apart a request that never left
 * from one that got no answer: X has no idempotency key, so the second must not be sent again.
 */
export function userClient(opts: {
  accessToken: string;
  baseUrl: string;
  timeoutMs: number;
  fetch?: SendFetch | undefined;
  /** Send `accessToken` as the app's bearer token (app-only auth) instead: for the endpoints only it may call. */
  asApp?: boolean | undefined;
  /**
   * Hears the method, path, status and headers of every answer (the app's stream rules feed the request
   * budget with them, as `XApiClient`'s `onAnswer` does).
   */
  onAnswer?: ((path: string, status: number, headers: Headers, method: string) => void) | undefined;
}): Client {
  const client = new Client({
    ...(opts.asApp ? { bearerToken: opts.accessToken } : { accessToken: opts.accessToken }),
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    timeout: opts.timeoutMs,
    retry: false,
  });
  const send: SendFetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const adapter = {
    async request(url: string, o: XdkRequestOptions = {}): Promise<Response> {
      const method = o.method ?? 'GET';
      try {
        const res = await send(url, {
          method,
          ...(o.headers && { headers: o.headers }),
          ...(o.body !== undefined && { body: o.body }),
          signal: o.signal ?? AbortSignal.timeout(opts.timeoutMs),
          redirect: 'error',
        });
        opts.onAnswer?.(new URL(url).pathname, res.status, res.headers, method);
        return res;
      } catch (err) {
        const code = (err as { cause?: { code?: unknown } }).cause?.code;
        if (typeof code === 'string' && BEFORE_SENDING.has(code)) throw new NotSentError(code);
        throw err;
      }
    },
  };
  // xdk makes every request through `client.httpClient.request`; its own instance binds the global fetch
  // once, at import, which neither a test's interceptor nor a redirect policy would reach.
  Object.defineProperty(client, 'httpClient', { value: adapter });
  return client;
}

/** Classifies what an xdk call threw (an `ApiError` wrapping the adapter's error when nothing answered). */
export function userCallFailure(err: unknown): UserCallFailure {
  if (err instanceof ApiError && err.status > 0) {
    const data = err.data as
      | { detail?: unknown; title?: unknown; type?: unknown; errors?: { message?: unknown }[] }
      | undefined;
    const said = [data?.title, data?.detail, data?.errors?.[0]?.message].find((v) => typeof v === 'string');
    return {
      kind: 'answered',
      status: err.status,
      headers: err.headers,
      detail: typeof said === 'string' ? said.slice(0, 300) : err.statusText,
      ...(typeof data?.type === 'string' && { type: data.type }),
    };
  }
  const cause = err instanceof ApiError ? err.data : err;
  if (cause instanceof NotSentError)
    return { kind: 'not_sent', message: `X could not be reached (${cause.message})` };
  const timedOut = cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError');
  return {
    kind: 'no_answer',
    message: timedOut ? 'X did not answer in time' : 'the connection to X broke before it answered',
  };
}

/** Seconds until X's rate-limit window resets (`x-rate-limit-reset`, epoch seconds), at least 1. */
export function retryAfterOf(headers: Headers, now: number): number | undefined {
  const reset = Number(headers.get('x-rate-limit-reset'));
  if (!headers.has('x-rate-limit-reset') || !Number.isFinite(reset)) return undefined;
  return Math.max(1, Math.ceil(reset - now / 1000));
}

/**
 * The error of a user-context read that failed: 401 → `x_api_unauthorized`, 429 → `x_api_rate_limited`
 * (with the wait), anything else → `x_api_unavailable`. Reads are safe to send again, so no answer is
 * simply unavailable.
 */
export function readFailure(f: UserCallFailure, what: string, now: number): PlatformUnavailableError {
  if (f.kind !== 'answered')
    return new PlatformUnavailableError('x_api_unavailable', `${f.message} (${what})`);
  if (f.status === 401)
    return new PlatformUnavailableError('x_api_unauthorized', `X refused the account's token for ${what}`);
  if (f.status === 429) {
    const wait = retryAfterOf(f.headers, now);
    return new PlatformUnavailableError('x_api_rate_limited', `X's rate limit was reached for ${what}`, wait);
  }
  return new PlatformUnavailableError('x_api_unavailable', `X answered ${f.status} to ${what}: ${f.detail}`);
}

/** The error of a write that got no answer, or a 5xx: X may have performed it. */
export function ambiguous(what: string, why: string): PlatformWriteAmbiguousError {
  return new PlatformWriteAmbiguousError(
    `${why} to ${what}; X may have performed it and has no idempotency key, so it is not sent again: check the account on X before writing again`,
  );
}
