import { errorInfo } from '../contract/errors.js';
import { Deadline, releaseController, takeController, unwatchDeadline, watchDeadline } from './deadline.js';
import {
  AbortError,
  type ApiError,
  ConnectionError,
  errorClassFor,
  type RequestSummary,
  redactHeaders,
  TimeoutError,
} from './errors.js';
import { normalizeOptInBody } from './normalize.js';
import { backoffMs, retryAfterMs, sleep } from './retry.js';
import type { ClientOptions, Logger, RequestContext, RequestOptions, Route } from './types.js';

/** The SDK's version, sent in `x-xsvc-client`. */
export const SDK_VERSION = '0.1.0';
const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

/** A parsed successful answer. */
export interface CallResult<T> {
  readonly data: T;
  readonly status: number;
  readonly headers: Headers;
  /** The raw response, for binary answers (its body is unread). */
  readonly response: Response;
}

/** Params of one call: path parameters by name, everything else query or body. */
export type CallParams = Record<string, unknown>;

/** Headers without the unset ones (`{ 'x-trace': process.env.TRACE }` with `TRACE` unset sends nothing). */
function definedHeaders(h: Record<string, string | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (h) for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = v;
  return out;
}

function env(name: string): string | undefined {
  const p = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const v = p?.env?.[name];
  return v === undefined || v === '' ? undefined : v;
}

const consoleLogger: Logger = { warn: (m) => console.warn(m) };

/**
 * The transport: builds requests from routes, applies the one retry policy (spec part 7), keeps the whole
 * call inside its deadline, normalizes the opt-in contract and turns error bodies into typed errors.
 */
export class Transport {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly optIn: boolean;
  readonly logger: Logger;
  /** The caller's fetch; when absent, the global one is looked up at each call (so mocks installed later apply). */
  private readonly fetchImpl: typeof fetch | undefined;
  private readonly authHeaders: Record<string, string>;
  /** The headers every request sends, in the order they are set (a call's own come after). */
  private readonly baseHeaders: Record<string, string>;
  private readonly hooks: ClientOptions['hooks'];
  private readonly warned = new Set<string>();
  /** Random source for jitter (overridable in tests). */
  random: () => number = Math.random;

  constructor(options: ClientOptions = {}) {
    if (options.apiKey && options.bearerToken) {
      throw new TypeError(
        'Pass either apiKey or bearerToken, not both: the service refuses requests carrying both.',
      );
    }
    if (options.guestKey && (options.apiKey || options.bearerToken)) {
      throw new TypeError('A guest key is a credential of its own: pass it without apiKey or bearerToken.');
    }
    const apiKey =
      options.apiKey ?? (options.bearerToken || options.guestKey ? undefined : env('XSVC_API_KEY'));
    this.authHeaders = {};
    if (apiKey) this.authHeaders['x-api-key'] = apiKey;
    else if (options.bearerToken) this.authHeaders.authorization = `Bearer ${options.bearerToken}`;
    else if (options.guestKey) this.authHeaders.authorization = `Bearer ${options.guestKey}`;
    this.baseUrl = (options.baseUrl ?? env('XSVC_BASE_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.optIn = options.contract === '2026-04-29';
    this.logger = options.logger ?? consoleLogger;
    this.hooks = options.hooks;
    this.baseHeaders = {
      accept: 'application/json',
      'x-xsvc-client': `sdk/${SDK_VERSION}`,
      ...this.authHeaders,
      ...definedHeaders(options.headers),
    };
    if (this.optIn) this.baseHeaders['svc-api-contract'] = '2026-04-29';
    if (!options.fetch && typeof globalThis.fetch !== 'function') {
      throw new TypeError('No fetch implementation: pass options.fetch.');
    }
    this.fetchImpl = options.fetch;
  }

  /** True when the client holds some credential. */
  get authenticated(): boolean {
    return Object.keys(this.authHeaders).length > 0;
  }

  /** Builds the URL of a route with its path parameters filled in. */
  url(route: Route, params: CallParams): { url: URL; rest: CallParams } {
    const { href, rest } = this.target(route, params);
    return { url: new URL(href), rest };
  }

  /**
   * The URL of a route as a string (what `fetch` takes; a `URL` object is turned back into one by it) and
   * the params left once the path parameters are taken out.
   */
  private target(route: Route, params: CallParams): { href: string; rest: CallParams } {
    const names = route.pathParams;
    if (names.length === 0) return { href: this.baseUrl + route.path, rest: params };
    for (const name of names) {
      const v = params[name];
      if (v === undefined || v === null || v === '') {
        throw new TypeError(`${route.id}: missing path parameter "${name}"`);
      }
    }
    const t = pathTemplate(route);
    let path = t.literals[0]!;
    for (let i = 0; i < t.names.length; i++) {
      path += encodeURIComponent(String(params[t.names[i]!])) + t.literals[i + 1]!;
    }
    // The rest without the path parameters, built rather than copied and deleted from (which turns the
    // object into a slow dictionary).
    const rest: CallParams = {};
    for (const k in params) if (!names.includes(k)) rest[k] = params[k];
    return { href: this.baseUrl + path, rest };
  }

  /** Builds the full request (URL, headers, body) without sending it; also used by `--dry-run`. */
  build(
    route: Route,
    params: CallParams,
    options: RequestOptions = {},
  ): {
    url: URL;
    method: string;
    headers: Record<string, string>;
    body: BodyInit | undefined;
    bodyJson?: unknown;
  } {
    const req = this.prepare(route, params, options);
    return {
      url: new URL(req.href),
      method: req.method,
      headers: { ...req.headers },
      body: req.body,
      bodyJson: req.bodyJson,
    };
  }

  /**
   * The request of a call as `fetch` takes it. Its headers may be the transport's own shared object (when
   * the call adds none): read them, never change them.
   */
  private prepare(route: Route, params: CallParams, options: RequestOptions): PreparedRequest {
    const target = this.target(route, params);
    const rest = target.rest;
    let href = target.href;
    let bodyObj: Record<string, unknown> | undefined;
    let query: URLSearchParams | undefined;
    if (route.body) {
      bodyObj = {};
      const q = route.queryKeys;
      for (const k in rest) {
        const v = rest[k];
        if (v === undefined) continue;
        if (q?.includes(k)) {
          query ??= new URLSearchParams();
          appendQuery(query, k, v);
        } else bodyObj[k] = v;
      }
    } else {
      for (const k in rest) {
        query ??= new URLSearchParams();
        appendQuery(query, k, rest[k]);
      }
    }
    const qs = query?.toString();
    if (qs) href += `?${qs}`;
    let headers = this.baseHeaders;
    const key = options.idempotencyKey || (route.idempotencyKey ? crypto.randomUUID() : undefined);
    if (key || options.headers || bodyObj) {
      headers = { ...headers };
      if (key) headers['idempotency-key'] = key;
      if (options.headers)
        for (const [k, v] of Object.entries(options.headers)) if (v !== undefined) headers[k] = v;
    }
    let body: BodyInit | undefined;
    if (bodyObj) {
      if (route.body === 'multipart') body = toFormData(bodyObj);
      else if (route.body === 'form') {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(
          Object.entries(bodyObj).map(([k, v]) => [k, String(v)] as [string, string]),
        ).toString();
      } else {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(bodyObj);
      }
    }
    return { href, method: route.method, headers, body, bodyJson: bodyObj };
  }

  /** Sends one logical call: retries, deadline, abort, normalization, typed errors. */
  async call<T>(route: Route, params: CallParams = {}, options: RequestOptions = {}): Promise<CallResult<T>> {
    const req = this.prepare(route, params, options);
    if (route.deprecatedParams) this.warnDeprecatedParams(route, params);
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const maxRetries = options.maxRetries ?? this.maxRetries;
    const deadline = Date.now() + timeoutMs;
    const hooks = this.hooks;
    const fetchImpl = this.fetchImpl ?? globalThis.fetch;
    const userSignal = options.signal;
    // The URL as a `URL` would print it, for what errors and hooks report: built only when one needs it.
    let hrefCache: string | undefined;
    const href = (): string => {
      hrefCache ??= new URL(req.href).href;
      return hrefCache;
    };
    // What errors remember of the request, with credentials redacted: built only when an error needs it.
    let summaryCache: RequestSummary | undefined;
    const summary = (): RequestSummary => {
      summaryCache ??= {
        method: req.method,
        url: href(),
        headers: redactHeaders(req.headers),
        operationId: route.id,
      };
      return summaryCache;
    };
    const init: RequestInit = { method: req.method, headers: req.headers, redirect: 'follow' };
    if (req.body !== undefined) init.body = req.body;
    const idempotent = route.idempotent && !route.writeAction;
    let cursorRetried = false;
    for (let attempt = 0; ; attempt++) {
      if (userSignal?.aborted) throw new AbortError({ cause: userSignal.reason });
      // The hooks' view of the attempt, built only for a client that has hooks.
      const ctx: RequestContext | undefined = hooks && {
        operationId: route.id,
        method: req.method,
        url: href(),
        attempt,
      };
      const remaining = attempt === 0 ? timeoutMs : deadline - Date.now();
      if (remaining <= 0) throw new TimeoutError(timeoutMs, summary());
      // A reused controller where that is sound (see deadline.ts), handed back once the answer is read.
      const timer = takeController();
      const t = new Deadline(deadline, timer, () => new TimeoutError(timeoutMs, summary()));
      watchDeadline(t);
      init.signal = userSignal ? anySignal([userSignal, timer.signal]) : timer.signal;
      const started = ctx ? Date.now() : 0;
      if (ctx) hooks?.beforeRequest?.(ctx);
      let res: Response;
      try {
        res = await fetchImpl(req.href, init);
      } catch (err) {
        unwatchDeadline(t);
        if (userSignal?.aborted) throw new AbortError({ cause: userSignal.reason });
        if (timer.signal.aborted) throw new TimeoutError(timeoutMs, summary());
        const conn = new ConnectionError(`could not reach ${this.baseUrl}: ${describe(err)}`, summary(), {
          cause: err,
        });
        if (!idempotent || attempt >= maxRetries) throw conn;
        await this.pause(
          backoffMs(attempt, this.random),
          deadline,
          timeoutMs,
          summary,
          userSignal,
          () => ({
            operationId: route.id,
            method: req.method,
            url: href(),
            attempt,
          }),
          'network',
        );
        continue;
      }
      let text: string | undefined;
      try {
        if (res.ok && route.kind === 'binary') {
          unwatchDeadline(t);
          if (ctx) hooks?.afterResponse?.({ ...ctx, status: res.status, durationMs: Date.now() - started });
          this.checkDeprecation(route, res.headers);
          return { data: undefined as T, status: res.status, headers: res.headers, response: res };
        }
        text = await res.text();
      } catch (err) {
        unwatchDeadline(t);
        if (userSignal?.aborted) throw new AbortError({ cause: userSignal.reason });
        if (timer.signal.aborted) throw new TimeoutError(timeoutMs, summary());
        throw new ConnectionError(`connection lost while reading the answer: ${describe(err)}`, summary(), {
          cause: err,
        });
      }
      unwatchDeadline(t);
      // The answer is read: nothing needs the signal any more, unless it follows the caller's.
      if (!userSignal) releaseController(timer);
      if (ctx) hooks?.afterResponse?.({ ...ctx, status: res.status, durationMs: Date.now() - started });
      const body = parseBody(text);
      if (res.ok) {
        this.checkDeprecation(route, res.headers);
        const data = this.optIn && route.path.startsWith('/api/') ? normalizeOptInBody(body, route) : body;
        return { data: data as T, status: res.status, headers: res.headers, response: res };
      }
      const error = this.toError(res, body, summary());
      const delay = this.retryDelay(error, body, attempt, maxRetries, idempotent, route, cursorRetried);
      if (delay === undefined) throw error;
      if (error.code === 'coverage_cursor_unavailable') cursorRetried = true;
      if (Date.now() + delay > deadline) throw error;
      await this.pause(
        delay,
        deadline,
        timeoutMs,
        summary,
        userSignal,
        () => ({
          operationId: route.id,
          method: req.method,
          url: href(),
          attempt,
        }),
        error.code,
      );
    }
  }

  /** The delay before retrying, or undefined when the error must surface (spec part 7). */
  private retryDelay(
    error: ApiError,
    body: unknown,
    attempt: number,
    maxRetries: number,
    idempotent: boolean,
    route: Route,
    cursorRetried: boolean,
  ): number | undefined {
    const now = Date.now();
    switch (error.retry) {
      case 'cursor_once':
        return cursorRetried ? undefined : (error.retryAfterMs ?? 1_000);
      case 'rate_limit':
        if (error.code === 'x_daily_limit' || attempt >= maxRetries) return undefined;
        return retryAfterMs(error.headers, body, now) ?? backoffMs(attempt, this.random);
      case 'transient': {
        if (attempt >= maxRetries) return undefined;
        const writeLike = !idempotent || route.writeAction !== undefined;
        if (writeLike && !safeToRetry(body)) return undefined;
        return Math.max(retryAfterMs(error.headers, body, now) ?? 0, backoffMs(attempt, this.random));
      }
      default:
        return undefined;
    }
  }

  private async pause(
    ms: number,
    deadline: number,
    timeoutMs: number,
    summary: () => RequestSummary,
    signal: AbortSignal | undefined,
    ctx: () => RequestContext,
    reason: string,
  ): Promise<void> {
    if (Date.now() + ms > deadline) throw new TimeoutError(timeoutMs, summary());
    if (this.hooks?.onRetry) this.hooks.onRetry({ ...ctx(), delayMs: ms, reason });
    try {
      await sleep(ms, signal);
    } catch (err) {
      throw new AbortError({ cause: err });
    }
  }

  /** Turns an error answer (either contract's shape) into the typed error for its status. */
  toError(res: Response, body: unknown, request?: RequestSummary): ApiError {
    let code = `http_${res.status}`;
    let message = res.statusText || `HTTP ${res.status}`;
    let type: string | undefined;
    let reason: string | undefined;
    if (body && typeof body === 'object') {
      const b = body as Record<string, unknown>;
      if (typeof b.error === 'string') {
        code = b.error;
        if (typeof b.message === 'string') message = b.message;
      } else if (b.error && typeof b.error === 'object') {
        const e = b.error as Record<string, unknown>;
        if (typeof e.code === 'string') code = e.code;
        if (typeof e.message === 'string') message = e.message;
        if (typeof e.type === 'string') type = e.type;
        if (typeof e.reason === 'string') reason = e.reason;
      }
      if (typeof b.reason === 'string') reason = b.reason;
    } else if (typeof body === 'string' && body.length > 0 && body.length < 500) {
      message = body;
    }
    const info = errorInfo(code, res.status);
    const Cls = errorClassFor(res.status);
    const requestId = res.headers.get('x-request-id') ?? undefined;
    const wait = retryAfterMs(res.headers, body, Date.now());
    return new Cls({
      status: res.status,
      code,
      message,
      type: type ?? info.type,
      retry: info.retry,
      ...(wait !== undefined && { retryAfterMs: wait }),
      ...(reason !== undefined && { reason }),
      ...(requestId !== undefined && { requestId }),
      body,
      headers: res.headers,
      ...(request !== undefined && { request }),
    });
  }

  private warnDeprecatedParams(route: Route, params: CallParams): void {
    if (!route.deprecatedParams) return;
    for (const [p, replacement] of Object.entries(route.deprecatedParams)) {
      if (params[p] !== undefined)
        this.warnOnce(`${route.id}:${p}`, `${route.id}: parameter "${p}" is deprecated; use ${replacement}.`);
    }
  }

  private checkDeprecation(route: Route, headers: Headers): void {
    const dep = headers.get('deprecation');
    if (!dep) return;
    const link = headers.get('link') ?? '';
    const sunset = headers.get('sunset');
    this.warnOnce(
      `${route.id}:${dep}:${link}`,
      `${route.method} ${route.path} touches a deprecated item (Deprecation: ${dep}${sunset ? `, Sunset: ${sunset}` : ''})${link ? `; see ${link}` : ''}.`,
    );
  }

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.logger.warn(message);
  }
}

/** A route's path cut at its parameters: `literals[0] names[0] literals[1] …`. */
interface PathTemplate {
  readonly literals: readonly string[];
  readonly names: readonly string[];
}

const templates = new WeakMap<Route, PathTemplate>();

/**
 * The path of a route cut at each parameter's `{name}` (its first one, in the order they appear), cached per
 * route: filling it in is then a few concatenations rather than a search and a new string per parameter.
 */
function pathTemplate(route: Route): PathTemplate {
  let t = templates.get(route);
  if (t) return t;
  const path = route.path;
  const found: [at: number, name: string][] = [];
  for (const name of route.pathParams) {
    const at = path.indexOf(`{${name}}`);
    if (at !== -1) found.push([at, name]);
  }
  found.sort((a, b) => a[0] - b[0]);
  const literals: string[] = [];
  let from = 0;
  for (const [at, name] of found) {
    literals.push(path.slice(from, at));
    from = at + name.length + 2;
  }
  literals.push(path.slice(from));
  t = { literals, names: found.map(([, name]) => name) };
  templates.set(route, t);
  return t;
}

/** A request ready for `fetch`: see {@link Transport.build} for the public form. */
interface PreparedRequest {
  href: string;
  method: string;
  headers: Record<string, string>;
  body: BodyInit | undefined;
  bodyJson: Record<string, unknown> | undefined;
}

function safeToRetry(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  const inner = b.error && typeof b.error === 'object' ? (b.error as Record<string, unknown>) : undefined;
  return (
    b.safeToRetry === true ||
    b.safe_to_retry === true ||
    inner?.safeToRetry === true ||
    inner?.safe_to_retry === true
  );
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function appendQuery(query: URLSearchParams, key: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    if (value.length > 0) query.append(key, value.map(String).join(','));
  } else if (value instanceof Date) query.append(key, value.toISOString());
  else query.append(key, String(value));
}

function toFormData(obj: Record<string, unknown>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined || v === null) continue;
    if (v instanceof Blob) fd.append(k, v);
    else if (typeof v === 'object') fd.append(k, JSON.stringify(v));
    else fd.append(k, String(v));
  }
  return fd;
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}

/** `AbortSignal.any` where available (Node >= 20.3), with a fallback. */
function anySignal(signals: AbortSignal[]): AbortSignal {
  const any = (AbortSignal as { any?: (s: AbortSignal[]) => AbortSignal }).any;
  if (any) return any(signals);
  const c = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      c.abort(s.reason);
      break;
    }
    s.addEventListener('abort', () => c.abort(s.reason), { once: true });
  }
  return c.signal;
}
