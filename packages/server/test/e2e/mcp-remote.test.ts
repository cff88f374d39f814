/**
 * The remote MCP endpoint of a listening server, driven by the MCP client over Streamable HTTP: the OAuth
 * challenge of an anonymous call, then an agent that registers, gets its user's consent, exchanges the
 * code and calls tools with the access token; an API key works as a bearer token too.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchMagicLinks } from '../../src/core/auth/outbox.js';
import { bootstrapOwner, createServer, parseConfig, type XsvcServer } from '../../src/index.js';
import { structured, textOf } from './mcp-results.js';

const KEY = `svc_${'5e'.repeat(32)}`;
const REDIRECT = 'http://127.0.0.1:8976/callback';

let server: XsvcServer;
let base: string;
const links: string[] = [];

beforeAll(async () => {
  const config = parseConfig({ databaseUrl: ':memory:', seedSize: 'tiny', logLevel: 'silent', keyFile: '' });
  server = await createServer(config);
  await bootstrapOwner(server.services.database, { ...config, bootstrapApiKey: KEY }, Date.now());
  watchMagicLinks(server.app, (m) => links.push(m.url));
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => server?.close());

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** What an agent and its user do in the browser: register, sign in, approve, exchange the code. */
async function accessToken(email: string): Promise<string> {
  const reg = await fetch(`${base}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'E2E agent', redirect_uris: [REDIRECT] }),
  });
  const { client_id } = (await reg.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const authorize = `/api/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${base}/mcp`,
    state: 'e2e',
  })}`;
  await fetch(`${base}/auth/magic-link`, {
    method: 'POST',
    headers: FORM,
    body: new URLSearchParams({ email, next: authorize }),
  });
  const signedIn = await fetch(links.at(-1)!, { redirect: 'manual' });
  expect(signedIn.status).toBe(303);
  const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
  const consent = await (
    await fetch(`${base}${signedIn.headers.get('location')}`, { headers: { cookie } })
  ).text();
  const requestId = /name="request_id" value="([^"]+)"/.exec(consent)![1]!;
  const approved = await fetch(`${base}/api/oauth/authorize/decision`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...FORM, cookie },
    body: new URLSearchParams({ request_id: requestId, decision: 'approve' }),
  });
  const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
  const tokens = await fetch(`${base}/api/oauth/token`, {
    method: 'POST',
    headers: FORM,
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id,
      redirect_uri: REDIRECT,
      resource: `${base}/mcp`,
    }),
  });
  expect(tokens.status).toBe(200);
  return ((await tokens.json()) as { access_token: string }).access_token;
}

async function connect(bearer: string): Promise<Client> {
  const client = new Client({ name: 'xsvc-remote-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    }),
  );
  return client;
}

describe('the remote MCP endpoint /mcp', () => {
  it('challenges an anonymous call with the OAuth discovery pointers', async () => {
    const r = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe(
      `Bearer realm="OAuth", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`,
    );
    const meta = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(meta).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    const bad = await fetch(`${base}/mcp`, { method: 'POST', headers: { authorization: 'Bearer xat_nope' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('serves the tools to an agent with an OAuth access token, acting as the user who approved', async () => {
    const mcp = await connect(await accessToken('owner@localhost'));
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['tweets', 'users', 'account', 'explore']),
      );
      expect(tools.some((t) => t.name.endsWith('_write'))).toBe(false);
      const user = await mcp.callTool({
        name: 'users',
        arguments: { action: 'get', params: { id: 'jack' } },
      });
      expect(user.isError, textOf(user)).toBeFalsy();
      expect(structured(user).data).toMatchObject({ username: expect.stringMatching(/^jack$/i) });
    } finally {
      await mcp.close();
    }
    // Another person's approval acts as their own account: a new one, without credits, gets a tool error
    // that says so (and that nothing was charged), not a crash.
    const theirs = await connect(await accessToken('someone.new@example.com'));
    try {
      const search = await theirs.callTool({
        name: 'tweets',
        arguments: { action: 'search', params: { q: 'from:jack' } },
      });
      expect(search.isError).toBe(true);
      expect(textOf(search)).toMatch(/insufficient_credits.*Nothing was paid or charged/s);
    } finally {
      await theirs.close();
    }
  });

  it('accepts an API key as the bearer token', async () => {
    const mcp = await connect(KEY);
    try {
      const result = await mcp.callTool({
        name: 'tweets',
        arguments: { action: 'search', params: { q: 'from:jack' } },
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      const tweets = (structured(result).data as { tweets: { author?: { username: string } }[] }).tweets;
      expect(tweets.length).toBeGreaterThan(0);
      for (const t of tweets) expect(t.author?.username.toLowerCase()).toBe('jack');
    } finally {
      await mcp.close();
    }
  });
});

describe('the remote MCP endpoint with writes enabled (XSVC_MCP_ENABLE_WRITES)', () => {
  let writable: XsvcServer;
  let url: string;
  beforeAll(async () => {
    const config = parseConfig({
      databaseUrl: ':memory:',
      seedSize: 'tiny',
      logLevel: 'silent',
      keyFile: '',
      mcpEnableWrites: true,
    });
    writable = await createServer(config);
    await bootstrapOwner(writable.services.database, { ...config, bootstrapApiKey: KEY }, Date.now());
    url = await writable.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => writable?.close());

  it('posts through a connected account with the write tool, and the post is on the platform', async () => {
    const connected = await fetch(`${url}/api/v1/x/accounts`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'xsvc_demo',
        email: 'demo@example.com',
        password: 'sim-password',
        totp_secret: 'JBSWY3DPEHPK3PXP',
      }),
    });
    expect(connected.status, await connected.clone().text()).toBe(201);
    const client = new Client({ name: 'xsvc-remote-writes', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${KEY}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('x_write');
      const posted = await client.callTool({
        name: 'x_write',
        arguments: { action: 'create_tweet', params: { account: 'xsvc_demo', text: 'posted by an agent' } },
      });
      expect(posted.isError, textOf(posted)).toBeFalsy();
      const data = structured(posted).data as { status: string; tweetId: string };
      expect(data.status).toBe('success');
      const read = await fetch(`${url}/api/v1/x/tweets/${data.tweetId}`, { headers: { 'x-api-key': KEY } });
      expect(((await read.json()) as { tweet: { text: string } }).tweet.text).toBe('posted by an agent');
    } finally {
      await client.close();
    }
  });
});
