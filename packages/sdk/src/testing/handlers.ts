// From the package itself (kept external by tsup): the declarations of the root entry are not copied here.
import type { OperationId, Output } from '@xsvc/sdk';
import { type HttpHandler, HttpResponse, http } from 'msw';
import { type ErrorCode, errorInfo } from '../contract/errors.js';
import type { AnyOperation } from '../contract/operation.js';
import { operations } from '../contract/operations/index.js';
import { exampleFor } from './examples.js';

/** What a handler sees of the request it answers. */
export interface MockRequestInfo {
  request: Request;
  params: Record<string, string | readonly string[] | undefined>;
}

/** A partial answer: any field may be left out, at any depth (arrays are given whole). */
export type DeepPartial<T> = T extends readonly (infer _)[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * A per-operation answer, typed by operation (a misspelt field is a compile error): an object, deep-merged
 * onto the operation's generated example; or a function of the request, whose answer is sent as it is (a
 * `Response` such as `mockError(...)`, or a body: start from `example`, the answer the mock would send).
 */
export type MockAnswer<K extends OperationId = OperationId> =
  | DeepPartial<Output<K>>
  | ((
      info: MockRequestInfo & { example: Output<K> },
    ) => Response | DeepPartial<Output<K>> | Promise<Response | DeepPartial<Output<K>>>);

/** An injected error: its code (status and shape from the error catalog), or the code with extra fields. */
export type MockErrorSpec =
  | ErrorCode
  | (string & {})
  | { code: ErrorCode | (string & {}); status?: number; message?: string; [field: string]: unknown };

/** How mocked durable writes end (`client.tweets.create(...)` then `action.wait()`). */
export interface MockWriteOptions {
  /** The terminal status the write reaches. Default `'success'`; `'pending'` never ends (to test timeouts). */
  status?: 'success' | 'failed' | 'expired' | 'pending' | undefined;
  /**
   * Status polls answered "still running" before the terminal state. Default 0: the write answers terminal
   * at once, so `wait()` returns without polling. Each poll waits the SDK's minimum of 250 ms.
   */
  polls?: number | undefined;
}

/** Options of {@link createHandlers}. */
export interface MockOptions {
  /** The origin the client under test uses. Default `http://127.0.0.1:8787`. */
  baseUrl?: string | undefined;
  /** Answers by operation id, deep-merged onto the generated examples. */
  overrides?: { [K in OperationId]?: MockAnswer<K> } | undefined;
  /** Errors by operation id: `{ lookupTweet: 'tweet_not_found' }` answers 404 in the service's shape. */
  errors?: { [K in OperationId]?: MockErrorSpec } | undefined;
  /** How durable writes end. */
  writes?: MockWriteOptions | undefined;
}

const exampleCache = new Map<string, unknown>();

/** The generated example answer of an operation, typed: `exampleOf('searchTweets').tweets[0]`. */
export function exampleOf<K extends OperationId>(operationId: K): Output<K> {
  return exampleResponse(operationId) as Output<K>;
}

/** The generated example answer of an operation (schema-valid); {@link exampleOf} is the typed form. */
export function exampleResponse(operationId: string): unknown {
  if (!exampleCache.has(operationId)) {
    const op = operations.find((o) => o.id === operationId);
    if (!op) throw new TypeError(`unknown operation: ${operationId}`);
    exampleCache.set(operationId, exampleFor(op.response));
  }
  return structuredClone(exampleCache.get(operationId));
}

/** An error answer in the service's default shape: `mockError(404, 'tweet_not_found')`. */
export function mockError(
  status: number,
  code: string,
  extra: Record<string, unknown> = {},
  headers?: HeadersInit,
): Response {
  return HttpResponse.json(
    { error: code, message: `${code} (mock)`, ...extra },
    { status, ...(headers && { headers }) },
  );
}

/** The error answer for an injected error: the status of its code in the catalog unless given. */
function injected(spec: MockErrorSpec): Response {
  const { code, status, message, ...extra } = typeof spec === 'string' ? { code: spec } : spec;
  const info = errorInfo(code, typeof status === 'number' ? status : undefined);
  const s = typeof status === 'number' ? status : info.status;
  const headers: Record<string, string> = {};
  if (info.retry === 'rate_limit') headers['retry-after'] = '0';
  return mockError(s, code, { ...(typeof message === 'string' && { message }), ...extra }, headers);
}

/** `target` with `patch` merged in, depth first; arrays and non-objects replace. Returns a new value. */
export function deepMerge(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch) || !isPlainObject(target)) return patch === undefined ? target : patch;
  const out: Record<string, unknown> = { ...target };
  for (const [k, v] of Object.entries(patch)) out[k] = deepMerge(out[k], v);
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype
  );
}

function toMswPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

function answerFor(op: AnyOperation, body: unknown): Response {
  const status = op.success[0] ?? 200;
  if (op.responseKind === 'binary') {
    return new HttpResponse(typeof body === 'string' ? body : 'id,value\n1,example\n', {
      status,
      headers: { 'content-type': 'application/octet-stream' },
    });
  }
  if (op.responseKind === 'empty' || status === 204) return new HttpResponse(null, { status });
  return HttpResponse.json(body as Record<string, unknown>, { status });
}

/**
 * msw handlers for every operation of the contract, answering with schema-valid examples, for users' own
 * tests: `setupServer(...createHandlers({ overrides: { lookupTweet: { tweet: { text: 'hi' } } } }))`.
 * Durable writes reach a terminal state (`writes`), errors are injected by code (`errors`).
 */
export function createHandlers(options: MockOptions = {}): HttpHandler[] {
  const base = (options.baseUrl ?? 'http://127.0.0.1:8787').replace(/\/+$/, '');
  const overrides = (options.overrides ?? {}) as Record<string, MockAnswer>;
  const errors = (options.errors ?? {}) as Record<string, MockErrorSpec>;
  const writes = new WriteBook(options.writes ?? {});
  // Literal segments before parameters: `/x/tweets/search` must win over `/x/tweets/:id`.
  const ordered = [...operations].sort((a, b) => specificity(b.path) - specificity(a.path));
  return ordered.map((op) => {
    const method = op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    return http[method](base + toMswPath(op.path), async ({ request, params }) => {
      const error = errors[op.id];
      if (error !== undefined) return injected(error);
      let body: unknown = exampleResponse(op.id);
      if (op.writeAction) body = writes.started(op.writeAction, body);
      else if (op.id === 'getWriteActionStatus') body = writes.polled(String(params.id), body);
      const override = overrides[op.id];
      if (typeof override === 'function') {
        const answer = await override({ request, params, example: body as never });
        if (answer instanceof Response) return answer;
        body = answer;
      } else body = deepMerge(body, override);
      if (op.writeAction || op.id === 'getWriteActionStatus') {
        const done = (body as { terminal?: unknown }).terminal === true;
        return HttpResponse.json(body as Record<string, unknown>, { status: done ? 200 : 202 });
      }
      return answerFor(op, body);
    });
  });
}

/** The mocked durable writes of one handler set: each reaches its terminal state after `polls` polls. */
class WriteBook {
  private readonly actions = new Map<string, { action: string; polls: number }>();
  private seq = 0;

  constructor(private readonly options: MockWriteOptions) {}

  started(action: string, example: unknown): Record<string, unknown> {
    const id = `00000000-0000-4000-8000-${String(++this.seq).padStart(12, '0')}`;
    this.actions.set(id, { action, polls: 0 });
    return this.state(id, action, (this.options.polls ?? 0) <= 0, example);
  }

  polled(id: string, example: unknown): Record<string, unknown> {
    const known = this.actions.get(id);
    if (!known) return this.state(id, String((example as { action?: unknown }).action), true, example);
    known.polls++;
    return this.state(id, known.action, known.polls >= (this.options.polls ?? 0), example);
  }

  private state(id: string, action: string, end: boolean, example: unknown): Record<string, unknown> {
    const status = this.options.status ?? 'success';
    const terminal = end && status !== 'pending';
    const final = terminal ? status : 'accepted';
    const out: Record<string, unknown> = {
      ...(example as Record<string, unknown>),
      id,
      writeActionId: id,
      action,
      status: final,
      terminal,
      retryable: false,
      safeToRetry: final === 'failed',
      statusUrl: `/api/v1/x/write-actions/${id}`,
      pollAfterMs: terminal ? null : 0,
    };
    delete out.error;
    if (final === 'failed') out.error = 'x_rejected';
    if (final === 'expired') out.error = 'x_write_unconfirmed';
    return out;
  }
}

function specificity(path: string): number {
  return path.split('/').reduce((n, seg, i) => n + (seg.startsWith('{') ? 0 : 1000 >> Math.min(i, 9)), 0);
}
