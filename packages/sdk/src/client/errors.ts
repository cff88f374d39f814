import type { ErrorType, RetryClass } from '../contract/error-kinds.js';

/** What an error remembers of the request that caused it; credentials are redacted. */
export interface RequestSummary {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly operationId?: string;
}

// A registry symbol rather than plain `instanceof`: the ESM and CommonJS builds of the SDK (or two versions
// of it) can be loaded side by side, and an error thrown by one must still be recognised by the other.
// Every error carries the names of its classes under this symbol; `instanceof` and the guards read them.
const BRAND = Symbol.for('@xsvc/sdk/XsvcError');
const ordinaryInstanceOf = Function.prototype[Symbol.hasInstance];

function brands(value: unknown): readonly string[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const b = (value as { [BRAND]?: unknown })[BRAND];
  return Array.isArray(b) ? (b as string[]) : undefined;
}

function instanceOf(cls: object, value: unknown): boolean {
  if (ordinaryInstanceOf.call(cls, value)) return true;
  // A subclass without a brand of its own is only recognised by its prototype chain.
  if (!Object.hasOwn(cls, 'brand')) return false;
  return brands(value)?.includes((cls as { brand: string }).brand) ?? false;
}

/**
 * Base class of every error the SDK throws. `instanceof` works across copies of the SDK (ESM and CommonJS
 * builds loaded together): each class is recognised by its `brand`, a name registered with `Symbol.for`.
 */
export class XsvcError extends Error {
  /** The name instances of this class (and its subclasses) carry under `Symbol.for('@xsvc/sdk/XsvcError')`. */
  static readonly brand: string = 'XsvcError';
  override readonly name: string = 'XsvcError';

  constructor(message?: string, options?: { cause?: unknown }) {
    super(message, options);
    const chain: string[] = [];
    for (let c: unknown = new.target; typeof c === 'function' && c !== Error; c = Object.getPrototypeOf(c)) {
      if (Object.hasOwn(c, 'brand')) chain.push((c as unknown as { brand: string }).brand);
    }
    Object.defineProperty(this, BRAND, { value: chain });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class right of `instanceof` (a subclass too)
    return instanceOf(this, value);
  }
}

/** Fields of an {@link ApiError}. */
export interface ApiErrorInit {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly type: ErrorType | (string & {});
  readonly retry: RetryClass;
  readonly retryAfterMs?: number;
  readonly reason?: string;
  readonly requestId?: string;
  readonly body?: unknown;
  readonly headers?: Headers;
  readonly request?: RequestSummary;
}

/**
 * The service answered with an error. `code` is the spec's error code (`tweet_not_found`), `status` the
 * HTTP status; `retryAfterMs` comes from `Retry-After`, `retryAfter` or `retryAfterMs`.
 */
export class ApiError extends XsvcError {
  static override readonly brand: string = 'ApiError';
  override readonly name: string = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly type: string;
  readonly retry: RetryClass;
  readonly retryAfterMs: number | undefined;
  readonly reason: string | undefined;
  readonly requestId: string | undefined;
  readonly body: unknown;
  readonly headers: Headers | undefined;
  readonly request: RequestSummary | undefined;

  constructor(init: ApiErrorInit) {
    super(`${init.code}: ${init.message}`);
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.retry = init.retry;
    this.retryAfterMs = init.retryAfterMs;
    this.reason = init.reason;
    this.requestId = init.requestId;
    this.body = init.body;
    this.headers = init.headers;
    this.request = init.request;
  }

  /** Seconds to wait before retrying, when the service said so. */
  get retryAfter(): number | undefined {
    return this.retryAfterMs === undefined ? undefined : Math.ceil(this.retryAfterMs / 1000);
  }
}

/** 400: the request is wrong; fix it, do not retry. */
export class BadRequestError extends ApiError {
  static override readonly brand: string = 'BadRequestError';
  override readonly name = 'BadRequestError';
}
/** 401: missing or invalid credentials, or a connected account whose session expired. */
export class AuthenticationError extends ApiError {
  static override readonly brand: string = 'AuthenticationError';
  override readonly name = 'AuthenticationError';
  /** The guest-wallet action offered to anonymous callers of paid reads (spec 5.5), when present. */
  get guestWalletAction(): unknown {
    return pick(this.body, 'action') ?? pick(this.body, 'guest_wallet');
  }
}

/** A `WWW-Authenticate: Payment` challenge (spec 5.4). The SDK never pays by itself. */
export interface PaymentChallenge {
  readonly id?: string;
  readonly realm?: string;
  readonly method?: string;
  readonly intent?: string;
  /** The decoded `request` parameter (amount, currency, recipient), when it is base64url JSON. */
  readonly request?: unknown;
  /** When the challenge stops being payable (RFC 3339), when the service says. */
  readonly expires?: string;
  /** Every auth-param exactly as sent (`request` still encoded): what a credential echoes back. */
  readonly params: Readonly<Record<string, string>>;
  readonly raw: string;
}

/**
 * A payment the caller made for a challenge, on the challenge's payment network: the method payload the
 * network gave back (for the simulated platform's network, the `payload` of `POST /sim/payments`), and the
 * payer's identity when the method names one.
 */
export interface MachinePayment {
  readonly payload: unknown;
  readonly source?: string;
}

/**
 * 402: billing. Exposes what the service offers (payment options, a machine-payment challenge, a guest
 * wallet action) without ever starting a checkout or paying: nothing was charged.
 */
export class PaymentRequiredError extends ApiError {
  static override readonly brand: string = 'PaymentRequiredError';
  override readonly name = 'PaymentRequiredError';
  get paymentOptions(): unknown {
    return pick(this.body, 'payment_options') ?? pick(this.body, 'paymentOptions');
  }
  get paymentChallenge(): PaymentChallenge | undefined {
    const h = this.headers?.get('www-authenticate');
    return h ? parsePaymentChallenge(h) : undefined;
  }
  get guestWalletAction(): unknown {
    return pick(this.body, 'action') ?? pick(this.body, 'guest_wallet');
  }
  /**
   * The `Authorization` value that retries this call with a payment the caller made explicitly for
   * {@link paymentChallenge}. The SDK never pays and never retries by itself: pass the value as a header of
   * the retried call. Throws a `TypeError` when the answer carried no Payment challenge.
   */
  paymentAuthorization(payment: MachinePayment): string {
    const challenge = this.paymentChallenge;
    if (!challenge) throw new TypeError('this 402 answer carries no Payment challenge');
    return paymentAuthorization(challenge, payment);
  }
}

/** `Authorization: Payment <base64url JSON>` (spec 5.4): the challenge's parameters and the method payload. */
export function paymentAuthorization(challenge: PaymentChallenge, payment: MachinePayment): string {
  const credential = {
    challenge: challenge.params,
    ...(payment.source !== undefined && { source: payment.source }),
    payload: payment.payload,
  };
  return `Payment ${base64url(JSON.stringify(credential))}`;
}

/** A `Payment-Receipt` header (spec 5.4): the settled payment's reference and time. */
export interface PaymentReceipt {
  readonly status?: string;
  readonly method?: string;
  readonly reference?: string;
  readonly timestamp?: string;
  readonly [key: string]: unknown;
}

/** Decodes a `Payment-Receipt` value; undefined when it is not base64url JSON. */
export function parsePaymentReceipt(header: string): PaymentReceipt | undefined {
  const v = decodeBase64urlJson(header.trim());
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as PaymentReceipt) : undefined;
}

function base64url(text: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeBase64urlJson(value: string): unknown {
  try {
    const b64 = value.replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))));
  } catch {
    return undefined;
  }
}
/** 403: permissions or account health. */
export class PermissionDeniedError extends ApiError {
  static override readonly brand: string = 'PermissionDeniedError';
  override readonly name = 'PermissionDeniedError';
}
/** 404: the resource does not exist (a tweet 404 may carry `reason`: deleted, author_suspended, protected). */
export class NotFoundError extends ApiError {
  static override readonly brand: string = 'NotFoundError';
  override readonly name = 'NotFoundError';
}
/** 409: a conflict (existing monitor, idempotency key reuse, busy cursor). Never retried blindly. */
export class ConflictError extends ApiError {
  static override readonly brand: string = 'ConflictError';
  override readonly name = 'ConflictError';
}
/** 410: gone (expired challenge, cursor gone). */
export class GoneError extends ApiError {
  static override readonly brand: string = 'GoneError';
  override readonly name = 'GoneError';
}
/** 422: the platform rejected a write; change the request before retrying. */
export class UnprocessableEntityError extends ApiError {
  static override readonly brand: string = 'UnprocessableEntityError';
  override readonly name = 'UnprocessableEntityError';
}
/** 429: rate limited; `retryAfterMs` says when to come back. */
export class RateLimitError extends ApiError {
  static override readonly brand: string = 'RateLimitError';
  override readonly name = 'RateLimitError';
}
/** 5xx / 424: a transient failure of the service or the platform. */
export class ServiceError extends ApiError {
  static override readonly brand: string = 'ServiceError';
  override readonly name = 'ServiceError';
}

/** The request never got an answer (DNS, refused connection, reset). */
export class ConnectionError extends XsvcError {
  static override readonly brand: string = 'ConnectionError';
  override readonly name = 'ConnectionError';
  constructor(
    message: string,
    readonly request?: RequestSummary,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The call's overall deadline (`timeoutMs`, retries included) passed. */
export class TimeoutError extends XsvcError {
  static override readonly brand: string = 'TimeoutError';
  override readonly name = 'TimeoutError';
  constructor(
    readonly timeoutMs: number,
    readonly request?: RequestSummary,
  ) {
    super(`request timed out after ${timeoutMs} ms (retries included)`);
  }
}

/** The caller's `signal` aborted the call. */
export class AbortError extends XsvcError {
  static override readonly brand: string = 'AbortError';
  override readonly name = 'AbortError';
  constructor(options?: { cause?: unknown }) {
    super('request aborted', options);
  }
}

/** The class for an HTTP status. */
export function errorClassFor(status: number): typeof ApiError {
  switch (status) {
    case 400:
    case 413:
    case 415:
      return BadRequestError;
    case 401:
      return AuthenticationError;
    case 402:
      return PaymentRequiredError;
    case 403:
      return PermissionDeniedError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 410:
      return GoneError;
    case 422:
      return UnprocessableEntityError;
    case 429:
      return RateLimitError;
    default:
      return status >= 500 || status === 424 ? ServiceError : ApiError;
  }
}

/** True for any error the SDK throws ({@link XsvcError}), from this or any other copy of the SDK. */
export function isXsvcError(e: unknown): e is XsvcError {
  return brands(e)?.includes('XsvcError') ?? false;
}

/** True for any error the service answered with, from this or any other copy of the SDK. */
export function isApiError(e: unknown): e is ApiError {
  return brands(e)?.includes('ApiError') ?? false;
}

/** True for an {@link ApiError} with this spec code. */
export function isErrorWithCode(e: unknown, code: string): e is ApiError {
  return isApiError(e) && e.code === code;
}

/** Parses `Payment id="…", realm="…", method="…", intent="…", request="<base64url JSON>"`. */
export function parsePaymentChallenge(header: string): PaymentChallenge | undefined {
  const m = /^\s*Payment\s+(.*)$/i.exec(header);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  for (const p of m[1]!.matchAll(/([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
    params[p[1]!.toLowerCase()] = (p[2] ?? p[3] ?? '').replace(/\\(.)/g, '$1');
  }
  const request = params.request ? (decodeBase64urlJson(params.request) ?? params.request) : undefined;
  return {
    ...(params.id !== undefined && { id: params.id }),
    ...(params.realm !== undefined && { realm: params.realm }),
    ...(params.method !== undefined && { method: params.method }),
    ...(params.intent !== undefined && { intent: params.intent }),
    ...(request !== undefined && { request }),
    ...(params.expires !== undefined && { expires: params.expires }),
    params,
    raw: header,
  };
}

/** A field of an error body: top level (default contract) or inside the structured `error` (opt-in). */
function pick(body: unknown, key: string): unknown {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  if (b[key] !== undefined) return b[key];
  return b.error && typeof b.error === 'object' ? (b.error as Record<string, unknown>)[key] : undefined;
}

/** Shows the first 4 and last 4 characters of a secret: `svc_…9f2a`. */
export function redactSecret(value: string): string {
  if (value.length <= 12) return '***';
  return `${value.slice(0, 4)}…${value.slice(-4)}`;
}

const SECRET_HEADERS = new Set([
  'x-api-key',
  'svc-api-key',
  'authorization',
  'cookie',
  'proxy-authorization',
]);

/** Copies headers with credentials redacted, for error objects and logs. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    const lk = k.toLowerCase();
    if (!SECRET_HEADERS.has(lk)) out[k] = v;
    else if (lk === 'authorization') {
      const [scheme, ...rest] = v.split(' ');
      out[k] = `${scheme} ${redactSecret(rest.join(' '))}`;
    } else out[k] = redactSecret(v);
  }
  return out;
}
