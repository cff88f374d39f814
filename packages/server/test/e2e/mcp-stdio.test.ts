/**
 * The built `xsvc-mcp` process over stdio, driven by the MCP client, against this server listening on the
 * simulated platform. `pnpm test` builds before testing; run `pnpm --filter @xsvc/mcp build` first otherwise.
 * (It lives here rather than in `@xsvc/mcp` because the server depends on that package for `/mcp`.)
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapOwner, createServer, parseConfig, type XsvcServer } from '../../src/index.js';
import { structured, textOf } from './mcp-results.js';

const BIN = join(dirname(createRequire(import.meta.url).resolve('@xsvc/mcp/package.json')), 'dist', 'bin.js');
const KEY = `svc_${'7c'.repeat(32)}`;

let server: XsvcServer;
let mcp: Client;

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the package first (pnpm test does).`);
  const config = parseConfig({ databaseUrl: ':memory:', seedSize: 'tiny', logLevel: 'silent', keyFile: '' });
  server = await createServer(config);
  await bootstrapOwner(server.services.database, { ...config, bootstrapApiKey: KEY }, Date.now());
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    env: { ...getDefaultEnvironment(), XSVC_BASE_URL: url, XSVC_API_KEY: KEY },
    stderr: 'pipe',
  });
  mcp = new Client({ name: 'xsvc-mcp-e2e', version: '1.0.0' });
  await mcp.connect(transport);
});

afterAll(async () => {
  await mcp?.close();
  await server?.close();
});

describe('xsvc-mcp over stdio against a running server', () => {
  it('lists the read-only tools', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name)).toContain('tweets');
    expect(tools.map((t) => t.name)).toContain('explore');
    expect(tools.some((t) => t.name.endsWith('_write'))).toBe(false);
  });

  it('reads the account', async () => {
    const result = await mcp.callTool({ name: 'account', arguments: { action: 'get' } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(structured(result).data).toMatchObject({ plan: 'active' });
  });

  it('searches the tweets of jack on the simulated platform', async () => {
    const result = await mcp.callTool({
      name: 'tweets',
      arguments: { action: 'search', params: { q: 'from:jack' } },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const tweets = (structured(result).data as { tweets: { author?: { username: string } }[] }).tweets;
    expect(tweets.length).toBeGreaterThan(0);
    for (const t of tweets) expect(t.author?.username.toLowerCase()).toBe('jack');
  });

  it('reads a user profile', async () => {
    const result = await mcp.callTool({
      name: 'users',
      arguments: { action: 'get', params: { id: 'jack' } },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(structured(result).data).toMatchObject({ username: expect.stringMatching(/^jack$/i) });
  });
});
