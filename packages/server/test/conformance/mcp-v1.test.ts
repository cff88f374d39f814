/**
 * The MCP SDK 1.x client (what most MCP hosts ship today) against this server: over stdio through the built
 * `xsvc-mcp` with an API key, and over `/mcp` with the client's own OAuth flow (`authProvider`, `finishAuth`,
 * refresh). Tool lists, successful calls, and each error class (404, 402, validation, 429) must come back as
 * readable error results: the 1.x client validates every `structuredContent` against the output schema,
 * error results included, and throws -32602 on a mismatch. `pnpm test` builds `@xsvc/mcp` before testing.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveInBrowser, type Listening, listen } from './listening.js';

const BIN = join(dirname(createRequire(import.meta.url).resolve('@xsvc/mcp/package.json')), 'dist', 'bin.js');
const REDIRECT = 'http://127.0.0.1:8976/callback';
/** Reads per account and hour: small enough to reach 429 in a few calls, large enough for the rest. */
const READS = 40;

let at: Listening;

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build @xsvc/mcp first (pnpm test does).`);
  at = await listen(`svc_${'1b'.repeat(32)}`, {
    read: { limit: READS, windowMs: 3_600_000, retryAfterSeconds: 60 },
    write: { limit: 100, windowMs: 3_600_000, retryAfterSeconds: 60 },
    delete: { limit: 100, windowMs: 3_600_000, retryAfterSeconds: 60 },
  });
});
afterAll(async () => at?.close());

/** A tools/call through the 1.x client (which validates the result), as the current result shape. */
async function call(mcp: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await mcp.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** Spends the account's remaining reads of the hour with `headers`, until the server answers 429. */
async function exhaustReads(headers: Record<string, string>): Promise<void> {
  for (let i = 0; i <= READS; i++) {
    const r = await fetch(`${at.base}/api/v1/account`, { headers });
    if (r.status === 429) return;
  }
  throw new Error('never rate limited');
}

/** The error classes every transport must read back, in an order that leaves the rate limit for last. */
async function expectReadableErrors(
  mcp: Client,
  spendCredits: () => Promise<void>,
  limit: () => Promise<void>,
) {
  const missing = await call(mcp, 'tweets', { action: 'get', params: { id: '999999999999' } });
  expect(missing.isError, textOf(missing)).toBe(true);
  expect(textOf(missing)).toMatch(/^tweet_not_found \(HTTP 404\)/);
  expect(missing.structuredContent).toMatchObject({ action: 'get', data: null, error: { status: 404 } });

  const invalid = await call(mcp, 'tweets', { action: 'get', params: {} });
  expect(invalid.isError).toBe(true);
  expect(textOf(invalid)).toMatch(/id/);

  await spendCredits();
  const unpaid = await call(mcp, 'tweets', { action: 'get', params: { id: '20' } });
  expect(unpaid.isError, textOf(unpaid)).toBe(true);
  expect(textOf(unpaid)).toMatch(/\(HTTP 402\).*\nNext: Billing/s);
  expect(unpaid.structuredContent).toMatchObject({ error: { status: 402 } });

  await limit();
  const limited = await call(mcp, 'account', { action: 'get' });
  expect(limited.isError, textOf(limited)).toBe(true);
  expect(textOf(limited)).toMatch(/^rate_limit_exceeded \(HTTP 429\).*wait 60 seconds/s);
  expect(limited.structuredContent).toMatchObject({ error: { status: 429, retry_after_seconds: 60 } });
}

async function setCredits(accountId: string, credits: number): Promise<void> {
  await at.server.services.database.db
    .updateTable('accounts')
    .set({ credits_balance: BigInt(credits) })
    .where('id', '=', accountId)
    .execute();
}

describe('MCP SDK 1.x over stdio (xsvc-mcp)', () => {
  let mcp: Client;
  beforeAll(async () => {
    mcp = new Client({ name: 'xsvc-v1-stdio', version: '1.0.0' });
    await mcp.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN],
        env: { ...getDefaultEnvironment(), XSVC_BASE_URL: at.base, XSVC_API_KEY: at.key },
        stderr: 'pipe',
      }),
    );
  });
  afterAll(async () => mcp?.close());

  it('lists the tools and serves a call', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['tweets', 'users', 'account', 'explore']),
    );
    const user = await call(mcp, 'users', { action: 'get', params: { id: 'jack' } });
    expect(user.isError, textOf(user)).toBeFalsy();
    expect(user.structuredContent).toMatchObject({ action: 'get', data: { username: expect.any(String) } });
  });

  it('reads 404, validation, 402 and 429 as error results', async () => {
    await expectReadableErrors(
      mcp,
      () => setCredits(at.ownerId, 0),
      () => exhaustReads({ 'x-api-key': at.key }),
    );
  });
});

/** An MCP host's OAuth state, in memory: what the 1.x client asks its host to keep. */
class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'MCP 1.x host',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('MCP SDK 1.x over /mcp with its own OAuth flow', () => {
  const provider = new MemoryProvider();
  const url = () => new URL(`${at.base}/mcp`);
  let mcp: Client;
  let accountId: string;

  beforeAll(async () => {
    const first = new Client({ name: 'xsvc-v1-http', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(url(), { authProvider: provider });
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toEqual(expect.any(String));
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${at.base}/mcp`);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    const callback = await approveInBrowser(at, authorizationUrl, 'mcp-v1-host@localhost');
    expect(callback.searchParams.get('iss')).toBe(at.base);
    await transport.finishAuth(callback.searchParams.get('code')!);
    expect(provider.saved?.refresh_token).toEqual(expect.any(String));
    mcp = new Client({ name: 'xsvc-v1-http', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(url(), { authProvider: provider }));
    const row = await at.server.services.database.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'mcp-v1-host@localhost')
      .executeTakeFirstOrThrow();
    accountId = row.id;
  });
  afterAll(async () => mcp?.close());

  it('lists the tools and serves a call with the access token', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['tweets', 'account', 'explore']));
    const account = await call(mcp, 'account', { action: 'get' });
    expect(account.isError, textOf(account)).toBeFalsy();
    expect(account.structuredContent).toMatchObject({ action: 'get', data: expect.any(Object) });
  });

  it('refreshes the tokens itself when the access token stops working', async () => {
    const before = provider.saved!;
    const revoked = await fetch(`${at.base}/api/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: before.access_token, token_type_hint: 'access_token' }),
    });
    expect(revoked.status).toBe(200);
    const again = await call(mcp, 'account', { action: 'get' });
    expect(again.isError, textOf(again)).toBeFalsy();
    expect(provider.saved?.access_token).not.toBe(before.access_token);
    expect(provider.saved?.refresh_token).not.toBe(before.refresh_token);
  });

  it('reads 402 (an OAuth account starts with 0 credits), 404, validation and 429 as error results', async () => {
    const broke = await call(mcp, 'tweets', { action: 'get', params: { id: '20' } });
    expect(broke.isError, textOf(broke)).toBe(true);
    expect(broke.structuredContent).toMatchObject({ error: { status: 402 } });
    await setCredits(accountId, 1_000);
    await expectReadableErrors(
      mcp,
      () => setCredits(accountId, 0),
      () => exhaustReads({ authorization: `Bearer ${provider.saved!.access_token}` }),
    );
  });

  it('refuses a guest key whole instead of listing tools it would refuse', async () => {
    const made = await fetch(`${at.base}/api/v1/guest-wallets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ amount_minor: 1000, currency: 'USD' }),
    });
    expect(made.status).toBe(201);
    const { api_key } = (await made.json()) as { api_key: string };
    const guest = new Client({ name: 'xsvc-v1-guest', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(url(), {
      requestInit: { headers: { authorization: `Bearer ${api_key}` } },
    });
    await expect(guest.connect(transport)).rejects.toMatchObject({ code: 403 });
    const r = await fetch(`${at.base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${api_key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(r.status).toBe(403);
    expect(r.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });
});
