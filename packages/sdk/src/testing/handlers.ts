import { type HttpHandler, HttpResponse, http } from 'msw';
import type { AnyOperation } from '../contract/operation.js';
import { operations } from '../contract/operations/index.js';
import { exampleFor } from './examples.js';

/** A per-operation answer: a body (sent with the operation's usual status) or a function of the request. */
export type MockAnswer =
  | unknown
  | ((info: {
      request: Request;
      params: Record<string, string | readonly string[] | undefined>;
    }) => Response | unknown | Promise<Response | unknown>);

/** Options of {@link createHandlers}. */
export interface MockOptions {
  /** The origin the client under test uses. Default `http://127.0.0.1:8787`. */
  baseUrl?: string;
  /** Answers by operation id, replacing the generated examples. */
  overrides?: Record<string, MockAnswer>;
}

const exampleCache = new Map<string, unknown>();

/** The generated example answer of an operation (schema-valid). */
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
 * tests: `setupServer(...createHandlers({ overrides: { lookupTweet: { tweet: {...} } } }))`.
 */
export function createHandlers(options: MockOptions = {}): HttpHandler[] {
  const base = (options.baseUrl ?? 'http://127.0.0.1:8787').replace(/\/+$/, '');
  // Literal segments before parameters: `/x/tweets/search` must win over `/x/tweets/:id`.
  const ordered = [...operations].sort((a, b) => specificity(b.path) - specificity(a.path));
  return ordered.map((op) => {
    const method = op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    return http[method](base + toMswPath(op.path), async ({ request, params }) => {
      const override = options.overrides?.[op.id];
      let body: unknown = override === undefined ? exampleResponse(op.id) : override;
      if (typeof override === 'function') body = await override({ request, params });
      if (body instanceof Response) return body;
      return answerFor(op, body);
    });
  });
}

function specificity(path: string): number {
  return path.split('/').reduce((n, seg, i) => n + (seg.startsWith('{') ? 0 : 1000 >> Math.min(i, 9)), 0);
}
