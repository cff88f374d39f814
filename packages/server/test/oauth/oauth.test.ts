import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_MS, CODE_TTL_MS } from '../../src/core/auth/oauth-store.js';
import { type MagicLinkMessage, watchMagicLinks } from '../../src/core/auth/outbox.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';

const REDIRECT = 'http://127.0.0.1:8976/callback';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A PKCE pair: a 32-byte verifier and its S256 challenge. */
function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const form = (fields: Record<string, string | undefined>) =>
  new URLSearchParams(
    Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();

describe.each(ENGINES)('OAuth 2.1 for the MCP endpoint (%s)', (engine) => {
  let t: TestServer;
  let resource: string;
  const links: MagicLinkMessage[] = [];
  /** Session cookies by e-mail address. */
  const cookies = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestServer(engine, { allowLoopbackWebhooks: true });
    watchMagicLinks(t.server.app, (m) => links.push(m));
    resource = `${t.server.services.publicUrl()}/mcp`;
  });
  afterAll(async () => t?.close());

  async function register(body: Record<string, unknown> = {}) {
    const r = await t.request('POST', '/api/oauth/register', {
      key: null,
      body: { client_name: 'Test agent', redirect_uris: [REDIRECT], ...body },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body as { client_id: string; client_secret?: string };
  }

  function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource,
      state: 'st-123',
      ...extra,
    });
    return `/api/oauth/authorize?${q}`;
  }

  /** Signs in through the pages a browser would see, coming back to `next`; returns the cookie. */
  async function signIn(email: string, next: string): Promise<string> {
    const known = cookies.get(email);
    if (known) return known;
    const sent = await t.request('POST', '/auth/magic-link', {
      key: null,
      rawBody: form({ email, next }),
      headers: FORM,
    });
    expect(sent.status).toBe(202);
    expect(sent.headers['content-type']).toMatch(/^text\/html/);
    expect(sent.body).toContain('server log');
    const link = new URL(links.at(-1)!.url);
    const back = await t.request('GET', `${link.pathname}${link.search}`, { key: null });
    expect(back.status).toBe(303);
    expect(back.headers.location).toBe(next);
    const cookie = String(back.headers['set-cookie']).split(';')[0]!;
    cookies.set(email, cookie);
    return cookie;
  }

  /** Runs the browser part: sign in, consent; returns the redirect's parameters. */
  async function approve(url: string, email = 'agent.user@example.com', decision = 'approve') {
    const first = await t.request('GET', url, {
      key: null,
      headers: cookies.has(email) ? { cookie: cookies.get(email)! } : {},
    });
    let consent = first;
    if (!cookies.has(email) || first.body.includes('Send the sign-in link')) {
      expect(first.status).toBe(200);
      expect(first.body).toContain('Send the sign-in link');
      const cookie = await signIn(email, url);
      consent = await t.request('GET', url, { key: null, headers: { cookie } });
    }
    expect(consent.status).toBe(200);
    expect(consent.headers['content-security-policy']).toContain("form-action 'self' http://127.0.0.1:8976");
    expect(consent.body).toContain('Allow Test agent to use your account?');
    const requestId = /name="request_id" value="([^"]+)"/.exec(consent.body)?.[1];
    expect(requestId).toBeTruthy();
    const done = await t.request('POST', '/api/oauth/authorize/decision', {
      key: null,
      rawBody: form({ request_id: requestId, decision }),
      headers: { ...FORM, cookie: cookies.get(email)! },
    });
    expect(done.status).toBe(302);
    const location = new URL(String(done.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    return location.searchParams;
  }

  const token = (fields: Record<string, string | undefined>) =>
    t.request('POST', '/api/oauth/token', { key: null, rawBody: form(fields), headers: FORM });

  async function codeFor(clientId: string) {
    const { verifier, challenge } = pkce();
    const params = await approve(authorizeUrl(clientId, challenge));
    return { code: params.get('code')!, verifier };
  }

  it('runs the whole flow: register, sign in, consent, code, tokens, then REST with the access token', async () => {
    const client = await register();
    expect(client.client_secret).toBeUndefined();
    const { verifier, challenge } = pkce();
    const params = await approve(authorizeUrl(client.client_id, challenge));
    expect(params.get('state')).toBe('st-123');
    expect(params.get('iss')).toBe(t.server.services.publicUrl());
    expect(params.get('code')).toMatch(/^xac_/);

    const r = await token({
      grant_type: 'authorization_code',
      code: params.get('code')!,
      code_verifier: verifier,
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      resource,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'mcp:tools' });
    expect(r.body.access_token).toMatch(/^xat_/);
    expect(r.body.refresh_token).toMatch(/^xrt_/);

    const me = await t.request('GET', '/api/v1/account', {
      key: null,
      headers: { authorization: `Bearer ${r.body.access_token}` },
    });
    expect(me.status).toBe(200);
    // The token acts as the account that signed in and approved, and only its hash is stored.
    const rows = await t.server.services.database.db
      .selectFrom('oauth_tokens')
      .innerJoin('accounts', 'accounts.id', 'oauth_tokens.account_id')
      .select(['oauth_tokens.token_hash', 'accounts.email'])
      .execute();
    expect(new Set(rows.map((x) => x.email))).toEqual(new Set(['agent.user@example.com']));
    expect(rows.some((x) => x.token_hash.includes(r.body.access_token.slice(4)))).toBe(false);
  });

  it('refuses a replayed code and revokes what it gave; checks PKCE, redirect_uri and the 60 seconds', async () => {
    const client = await register();
    const first = await codeFor(client.client_id);
    const base = { grant_type: 'authorization_code', client_id: client.client_id, redirect_uri: REDIRECT };
    const wrong = await token({ ...base, code: first.code, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/PKCE/) });

    const second = await codeFor(client.client_id);
    const ok = await token({ ...base, code: second.code, code_verifier: second.verifier });
    expect(ok.status).toBe(200);
    const replay = await token({ ...base, code: second.code, code_verifier: second.verifier });
    expect(replay.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/already used/),
    });
    const revoked = await t.request('GET', '/api/v1/account', {
      key: null,
      headers: { authorization: `Bearer ${ok.body.access_token}` },
    });
    expect(revoked.status).toBe(401);

    const third = await codeFor(client.client_id);
    const elsewhere = await token({
      ...base,
      redirect_uri: 'http://127.0.0.1:9/other',
      code: third.code,
      code_verifier: third.verifier,
    });
    expect(elsewhere.body.error).toBe('invalid_grant');

    const fourth = await codeFor(client.client_id);
    t.clock.advance(CODE_TTL_MS);
    const late = await token({ ...base, code: fourth.code, code_verifier: fourth.verifier });
    expect(late.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/expired/),
    });
  });

  it('rotates refresh tokens and revokes the whole grant when an old one comes back', async () => {
    const client = await register();
    const { code, verifier } = await codeFor(client.client_id);
    const one = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: client.client_id,
      redirect_uri: REDIRECT,
    });
    const two = await token({
      grant_type: 'refresh_token',
      refresh_token: one.body.refresh_token,
      client_id: client.client_id,
    });
    expect(two.status).toBe(200);
    expect(two.body.refresh_token).not.toBe(one.body.refresh_token);
    const bearer = (x: string) => ({ key: null, headers: { authorization: `Bearer ${x}` } });
    expect((await t.request('GET', '/api/v1/account', bearer(two.body.access_token))).status).toBe(200);
    // The first refresh token again: a replay; every token of the grant stops working.
    const again = await token({
      grant_type: 'refresh_token',
      refresh_token: one.body.refresh_token,
      client_id: client.client_id,
    });
    expect(again.body.error).toBe('invalid_grant');
    expect((await t.request('GET', '/api/v1/account', bearer(two.body.access_token))).status).toBe(401);
    const three = await token({
      grant_type: 'refresh_token',
      refresh_token: two.body.refresh_token,
      client_id: client.client_id,
    });
    expect(three.body.error).toBe('invalid_grant');
  });

  it('expires access tokens after an hour and revokes tokens on request (RFC 7009)', async () => {
    const client = await register();
    const { code, verifier } = await codeFor(client.client_id);
    const pair = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: client.client_id,
      redirect_uri: REDIRECT,
    });
    const bearer = (x: string) => ({ key: null, headers: { authorization: `Bearer ${x}` } });
    t.clock.advance(ACCESS_TOKEN_TTL_MS);
    const expired = await t.request('GET', '/api/v1/account', bearer(pair.body.access_token));
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired or was revoked/);
    const fresh = await token({
      grant_type: 'refresh_token',
      refresh_token: pair.body.refresh_token,
      client_id: client.client_id,
    });
    expect((await t.request('GET', '/api/v1/account', bearer(fresh.body.access_token))).status).toBe(200);
    const revoke = (tok: string) =>
      t.request('POST', '/api/oauth/revoke', { key: null, rawBody: form({ token: tok }), headers: FORM });
    expect((await revoke(fresh.body.refresh_token)).status).toBe(200);
    expect((await t.request('GET', '/api/v1/account', bearer(fresh.body.access_token))).status).toBe(401);
    expect((await revoke('xrt_unknown')).status).toBe(200);
  });

  it('sends a denial, a wrong resource and nothing else to the redirect URI; unknown clients get a page', async () => {
    const client = await register();
    const denied = await approve(
      authorizeUrl(client.client_id, pkce().challenge),
      'agent.user@example.com',
      'deny',
    );
    expect(denied.get('error')).toBe('access_denied');
    expect(denied.get('state')).toBe('st-123');
    expect(denied.get('code')).toBeNull();

    const cookie = cookies.get('agent.user@example.com')!;
    const target = await t.request(
      'GET',
      authorizeUrl(client.client_id, pkce().challenge, { resource: 'https://evil.example/mcp' }),
      {
        key: null,
        headers: { cookie },
      },
    );
    expect(target.status).toBe(302);
    expect(new URL(String(target.headers.location)).searchParams.get('error')).toBe('invalid_target');

    const unknown = await t.request(
      'GET',
      authorizeUrl('6f1c2b9e-4d3a-4e8f-9a7b-1c2d3e4f5a6b', pkce().challenge),
      { key: null },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.headers.location).toBeUndefined();
    expect(unknown.body).toContain('Unknown client');
    const stray = await t.request(
      'GET',
      authorizeUrl(client.client_id, pkce().challenge, { redirect_uri: 'https://evil.example/cb' }),
      { key: null },
    );
    expect(stray.status).toBe(400);
    expect(stray.body).toContain('matched exactly');
    // A bad request of a known client at its registered URI goes back there (RFC 6749 4.1.2.1).
    const noPkce = await t.request('GET', authorizeUrl(client.client_id, 'short'), { key: null });
    expect(noPkce.status).toBe(302);
    expect(new URL(String(noPkce.headers.location)).searchParams.get('error')).toBe('invalid_request');
  });

  it('binds the consent form to the account it was shown to, and answers it once', async () => {
    const client = await register();
    const url = authorizeUrl(client.client_id, pkce().challenge);
    const mine = await signIn('agent.user@example.com', url);
    const page = await t.request('GET', url, { key: null, headers: { cookie: mine } });
    const requestId = /name="request_id" value="([^"]+)"/.exec(page.body)![1]!;
    const other = await signIn('someone.else@example.com', url);
    const decide = (cookie: string) =>
      t.request('POST', '/api/oauth/authorize/decision', {
        key: null,
        rawBody: form({ request_id: requestId, decision: 'approve' }),
        headers: { ...FORM, cookie },
      });
    const stolen = await decide(other);
    expect(stolen.status).toBe(400);
    expect(stolen.body).toContain('Approval expired');
    expect((await decide(mine)).status).toBe(302);
    expect((await decide(mine)).status).toBe(400);
    const signedOut = await t.request('POST', '/api/oauth/authorize/decision', {
      key: null,
      rawBody: form({ request_id: requestId, decision: 'approve' }),
      headers: FORM,
    });
    expect(signedOut.status).toBe(401);
    expect(String(signedOut.headers['content-type'])).toContain('text/html');
    // A program that asks for JSON gets the API's error body instead of the pages.
    const asJson = (cookie?: string) =>
      t.request('POST', '/api/oauth/authorize/decision', {
        key: null,
        body: { request_id: requestId, decision: 'approve' },
        headers: { accept: 'application/json', ...(cookie && { cookie }) },
      });
    const answered = await asJson(mine);
    expect([answered.status, answered.body]).toEqual([
      400,
      { error: 'invalid_input', message: expect.stringContaining('already answered or has expired') },
    ]);
    expect(await asJson()).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
    const badForm = await t.request('POST', '/api/oauth/authorize/decision', {
      key: null,
      rawBody: form({ request_id: requestId, decision: 'maybe' }),
      headers: { ...FORM, accept: 'application/json', cookie: mine },
    });
    expect(badForm).toMatchObject({ status: 400, body: { error: 'invalid_input' } });
  });

  it('gives a confidential client its secret once and requires it at the token endpoint', async () => {
    const client = await register({ token_endpoint_auth_method: 'client_secret_post' });
    expect(client.client_secret).toMatch(/^xcs_/);
    const { code, verifier } = await codeFor(client.client_id);
    const base = {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: client.client_id,
      redirect_uri: REDIRECT,
    };
    const without = await token(base);
    expect(without.status).toBe(401);
    expect(without.body.error).toBe('invalid_client');
    const wrong = await token({ ...base, client_secret: 'xcs_wrong' });
    expect(wrong.status).toBe(401);
    const right = await token({ ...base, client_secret: client.client_secret });
    expect(right.status).toBe(200);
  });

  it('answers malformed token requests in the OAuth error shape', async () => {
    const bad = await token({ grant_type: 'password', username: 'a', password: 'b', client_id: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('unsupported_grant_type');
    const missing = await token({ grant_type: 'authorization_code', client_id: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
    expect(typeof missing.body.error_description).toBe('string');
    const badRegistration = await t.request('POST', '/api/oauth/register', {
      key: null,
      body: { client_name: 'x', redirect_uris: ['http://evil.example/cb'] },
    });
    expect(badRegistration.status).toBe(400);
    expect(badRegistration.body.error).toBe('invalid_redirect_uri');
    const bogusBearer = await t.request('GET', '/api/v1/account', {
      key: null,
      headers: { authorization: 'Bearer xat_nope' },
    });
    expect(bogusBearer.status).toBe(401);
  });

  describe('client metadata documents (the client id is an https URL)', () => {
    let server: Server;
    let docs: Map<string, { status?: number; type?: string; body: string }>;
    let origin: string;
    beforeAll(async () => {
      docs = new Map();
      server = createServer((req, res) => {
        const doc = docs.get(req.url ?? '');
        res.writeHead(doc?.status ?? (doc ? 200 : 404), { 'content-type': doc?.type ?? 'application/json' });
        res.end(doc?.body ?? '');
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('takes the client from its document and runs the flow as a public client', async () => {
      const id = `${origin}/client.json`;
      docs.set('/client.json', {
        body: JSON.stringify({ client_id: id, client_name: 'Test agent', redirect_uris: [REDIRECT] }),
      });
      const { code, verifier } = await codeFor(id);
      const r = await token({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        client_id: id,
        redirect_uri: REDIRECT,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    });

    it('refuses documents that do not repeat their URL, are too large, or are not JSON', async () => {
      const check = async (
        path: string,
        doc: { status?: number; type?: string; body: string },
        message: RegExp,
      ) => {
        docs.set(path, doc);
        const r = await t.request('GET', authorizeUrl(`${origin}${path}`, pkce().challenge), { key: null });
        expect(r.status).toBe(400);
        expect(r.body).toMatch(message);
      };
      await check(
        '/other.json',
        { body: JSON.stringify({ client_id: 'https://else.example/c', redirect_uris: [REDIRECT] }) },
        /repeat its exact URL/,
      );
      await check(
        '/big.json',
        {
          body: JSON.stringify({
            client_id: `${origin}/big.json`,
            redirect_uris: [REDIRECT],
            pad: 'x'.repeat(6_000),
          }),
        },
        /larger than 5 KiB/,
      );
      await check('/html.json', { type: 'text/html', body: '<p>hi</p>' }, /application\/json/);
      await check('/moved.json', { status: 302, body: '' }, /HTTP 302/);
    });
  });
});
