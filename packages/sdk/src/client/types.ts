/** Options and hooks of the client, and the compact route table entry the client runs on. */

/** A minimal logger; `console` fits. */
export interface Logger {
  debug?(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
}

/** What hooks see of a request. Headers are redacted. */
export interface RequestContext {
  readonly operationId: string;
  readonly method: string;
  readonly url: string;
  readonly attempt: number;
}

/** Observability hooks; they must not throw. */
export interface Hooks {
  beforeRequest?(ctx: RequestContext): void;
  afterResponse?(ctx: RequestContext & { readonly status: number; readonly durationMs: number }): void;
  onRetry?(ctx: RequestContext & { readonly delayMs: number; readonly reason: string }): void;
}

/** Options of `new Xsvc(...)`. */
export interface ClientOptions {
  /** A `svc_` API key. Defaults to `XSVC_API_KEY` when no bearer token or guest key is given. */
  apiKey?: string | undefined;
  /** An OAuth 2.1 access token. Never sent together with an API key. */
  bearerToken?: string | undefined;
  /** A guest-wallet key (read-only paid routes). */
  guestKey?: string | undefined;
  /** The service origin. Defaults to `XSVC_BASE_URL`, then `http://127.0.0.1:8787` (a local server). */
  baseUrl?: string | undefined;
  /** A `fetch` implementation (tests, proxies, instrumentation). */
  fetch?: typeof fetch | undefined;
  /** Deadline of a whole call, retries and waits included. Default 60 000 ms. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt for retryable failures. Default 2 (3 attempts, spec part 7). */
  maxRetries?: number | undefined;
  /** `'2026-04-29'` selects the opt-in response contract; responses are normalized either way. */
  contract?: 'default' | '2026-04-29' | undefined;
  logger?: Logger | undefined;
  hooks?: Hooks | undefined;
  /** Extra headers on every request. */
  headers?: Record<string, string | undefined> | undefined;
}

/** Per-call options, accepted by every method. */
export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Overrides the client's deadline for this call. */
  timeoutMs?: number | undefined;
  /** The idempotency key of this logical write; generated when omitted and kept across retries. */
  idempotencyKey?: string | undefined;
  headers?: Record<string, string | undefined> | undefined;
  /** Overrides the client's retry count for this call. */
  maxRetries?: number | undefined;
}

/** One operation as the runtime needs it (generated from the contract; no schemas, so no zod at runtime). */
export interface Route {
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly pathParams: readonly string[];
  /** Query keys, listed when the operation also has a body (the rest of the params go to the body). */
  readonly queryKeys?: readonly string[];
  readonly body?: 'json' | 'multipart' | 'form';
  readonly pagination?: 'A' | 'B';
  readonly items?: string;
  readonly writeAction?: string;
  readonly idempotent: boolean;
  /** True when the operation takes an `Idempotency-Key`: one is generated per call and kept across retries. */
  readonly idempotencyKey?: boolean;
  readonly kind?: 'binary' | 'text' | 'empty';
  readonly deprecatedParams?: Readonly<Record<string, string>>;
  /** Response keys that are snake_case in the default contract (kept when normalizing the opt-in contract). */
  readonly snakeKeys?: readonly string[];
}
