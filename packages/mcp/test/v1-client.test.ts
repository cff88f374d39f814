/**
 * The tools as the MCP SDK 1.x client sees them (the client of most MCP hosts today): it validates every
 * `structuredContent` against the tool's output schema, error results included, and throws -32602 when it
 * does not match. Each error class must come back as a readable error result, not as that exception.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { Xsvc } from '@xsvc/sdk';
import { exampleResponse, mockError } from '@xsvc/sdk/testing';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createXsvcMcpServer } from '../src/index.js';
import { api, BASE, KEY, structured, textOf } from './helpers.js';

beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
afterEach(() => api.resetHandlers());
afterAll(() => api.close());

const V1 = `${BASE}/api/v1`;

/** A 1.x client connected in memory to our server (the in-memory pair speaks plain JSON-RPC messages). */
async function connectV1(enableWrites = false): Promise<{ mcp: Client; close: () => Promise<void> }> {
  const client = new Xsvc({ apiKey: KEY, baseUrl: BASE, logger: { warn: () => {} }, maxRetries: 0 });
  const server = createXsvcMcpServer({ client, enableWrites, writeWaitMs: 0 });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: 'xsvc-v1-conformance', version: '1.0.0' });
  await mcp.connect(clientSide as unknown as Transport);
  // The 1.x client validates only tools it has listed: list them first, as hosts do.
  await mcp.listTools();
  return {
    mcp,
    close: async () => {
      await mcp.close();
      await server.close();
    },
  };
}

/** A tools/call through the 1.x client (which validates the result), as the current result shape. */
async function call(mcp: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await mcp.callTool({ name, arguments: args })) as CallToolResult;
}

describe('MCP SDK 1.x client', () => {
  it('lists the tools and reads a successful call', async () => {
    const { mcp, close } = await connectV1();
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['tweets', 'users', 'explore']));
      for (const t of tools) expect(t.outputSchema?.type).toBe('object');
      const result = await call(mcp, 'tweets', { action: 'get', params: { id: '20' } });
      expect(result.isError).toBeFalsy();
      expect(structured(result)).toMatchObject({ action: 'get', data: { tweet: expect.any(Object) } });
      const found = await call(mcp, 'explore', { query: 'followers' });
      expect(found.isError).toBeFalsy();
    } finally {
      await close();
    }
  });

  it.each([
    [404, 'tweet_not_found', {}, {}, /^tweet_not_found \(HTTP 404\)/],
    [402, 'no_credits', {}, {}, /^no_credits \(HTTP 402\).*\nNext: Billing/],
    [429, 'rate_limit_exceeded', { retryAfter: 120 }, { 'retry-after': '120' }, /wait 120 seconds/],
    [400, 'invalid_input', {}, {}, /^invalid_input \(HTTP 400\)/],
  ] as const)('reads a %i (%s) as a readable error result', async (status, code, extra, headers, text) => {
    api.use(http.get(`${V1}/x/tweets/:id`, () => mockError(status, code, extra, headers)));
    const { mcp, close } = await connectV1();
    try {
      const result = await call(mcp, 'tweets', { action: 'get', params: { id: '20' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(text);
      expect(structured(result)).toMatchObject({ action: 'get', data: null, error: { code, status } });
    } finally {
      await close();
    }
  });

  it('reads a params error of the tool itself as a readable error result', async () => {
    const { mcp, close } = await connectV1();
    try {
      const result = await call(mcp, 'tweets', { action: 'get', params: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/id/);
    } finally {
      await close();
    }
  });

  it('reads a failed durable write as a readable error result of the write tool', async () => {
    const created = exampleResponse('createTweet') as Record<string, unknown>;
    api.use(
      http.post(`${V1}/x/tweets`, () =>
        HttpResponse.json(
          { ...created, status: 'failed', terminal: true, safeToRetry: true, error: 'x_rejected' },
          { status: 200 },
        ),
      ),
    );
    const { mcp, close } = await connectV1(true);
    try {
      const result = await call(mcp, 'x_write', {
        action: 'create_tweet',
        params: { account: 'jack', text: 'hello' },
      });
      expect(result.isError, textOf(result)).toBe(true);
      expect(structured(result)).toMatchObject({
        action: 'create_tweet',
        data: null,
        error: { code: 'x_rejected' },
      });
    } finally {
      await close();
    }
  });
});
