/**
 * A contract test for every operation: the SDK method generated for it sends the right method, path, query,
 * body and headers, and gives back the parsed answer — in the default contract and in the opt-in one.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { Xsvc } from '../src/client/client.js';
import type { AnyOperation } from '../src/contract/operation.js';
import { operations } from '../src/contract/operations/index.js';
import { toOptInContract } from '../src/contract/opt-in.js';
import { exampleFor } from '../src/testing/examples.js';

const KEY = `svc_${'cd'.repeat(32)}`;

interface Captured {
  method: string;
  url: URL;
  headers: Headers;
  body: string | FormData | undefined;
}

function clientFor(op: AnyOperation, answer: unknown, optIn: boolean, captured: Captured[]) {
  const status = op.success[0] ?? 200;
  const f = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    captured.push({
      method: init.method ?? 'GET',
      url: new URL(String(input)),
      headers: new Headers(init.headers),
      body: init.body as string | FormData | undefined,
    });
    if (op.responseKind === 'binary')
      return new Response('col\nvalue\n', { status, headers: { 'content-type': 'text/csv' } });
    if (op.responseKind === 'empty' || status === 204 || status === 302)
      return new Response(null, { status: status === 302 ? 200 : status });
    return Response.json(optIn && op.path.startsWith('/api/') ? toOptInContract(answer) : answer, { status });
  };
  return new Xsvc({
    apiKey: KEY,
    baseUrl: 'http://svc.test',
    fetch: f as typeof fetch,
    maxRetries: 0,
    ...(optIn && { contract: '2026-04-29' as const }),
  });
}

function method(client: Xsvc, op: AnyOperation): (...args: unknown[]) => Promise<unknown> {
  let target: unknown = client;
  for (const seg of op.sdk.slice(0, -1)) target = (target as Record<string, unknown>)[seg];
  const fn = (target as Record<string, unknown>)[op.sdk[op.sdk.length - 1]!];
  expect(typeof fn, `client.${op.sdk.join('.')}`).toBe('function');
  return (fn as (...a: unknown[]) => Promise<unknown>).bind(target);
}

function sampleParams(op: AnyOperation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (op.query) Object.assign(out, exampleFor(op.query));
  if (op.body) Object.assign(out, exampleFor(op.body));
  return out;
}

const jsonOps = operations.filter((o) => o.bodyEncoding !== 'multipart');

describe.each([false, true])('every operation through the SDK (opt-in contract: %s)', (optIn) => {
  it.each(jsonOps.map((o) => [o.id, o] as const))('%s', async (_id, op) => {
    const answer = exampleFor(op.response);
    const captured: Captured[] = [];
    const client = clientFor(op, answer, optIn, captured);
    const pathNames = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const pathArgs = pathNames.map((n) => `${n}-value`);
    const params = sampleParams(op);
    const args: unknown[] = [...pathArgs];
    if (op.query || op.body) args.push(params);
    const result = await method(client, op)(...args);

    expect(captured).toHaveLength(1);
    const req = captured[0]!;
    expect(req.method).toBe(op.method);
    expect(decodeURIComponent(req.url.pathname)).toBe(
      pathNames.reduce((p, n) => p.replace(`{${n}}`, `${n}-value`), op.path),
    );
    expect(req.headers.get('x-api-key')).toBe(KEY);
    expect(req.headers.get('authorization')).toBeNull();
    expect(req.headers.get('svc-api-contract')).toBe(optIn ? '2026-04-29' : null);
    if (op.writeAction) expect(req.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);

    // What was sent is what the operation's schemas accept.
    if (op.query) {
      const q = Object.fromEntries(req.url.searchParams);
      const parsed = (op.query as z.ZodType).safeParse(q);
      expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    } else if (!op.body) {
      expect([...req.url.searchParams.keys()]).toEqual([]);
    }
    if (op.body) {
      let body: unknown;
      if (op.bodyEncoding === 'form') body = Object.fromEntries(new URLSearchParams(String(req.body)));
      else body = JSON.parse(String(req.body));
      const parsed = (op.body as z.ZodType).safeParse(body);
      expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    }

    // What came back is the default-contract answer, whichever contract was used.
    if (op.responseKind === 'binary') {
      expect(result).toBeInstanceOf(Response);
      expect(await (result as Response).text()).toBe('col\nvalue\n');
    } else if (op.pagination) {
      const page = result as { body: unknown; items: unknown[] };
      expect(page.body).toEqual(answer);
      expect(page.items).toEqual((answer as Record<string, unknown>)[op.items!]);
    } else if (op.writeAction) {
      expect((result as { data: unknown }).data).toEqual(answer);
    } else if (op.responseKind !== 'empty' && !op.success.includes(204) && !op.success.includes(302)) {
      expect(result).toMatchObject(answer as object);
    }
  });
});
