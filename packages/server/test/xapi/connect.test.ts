import { createHash } from 'node:crypto';
import { HttpResponse, http } from 'msw';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OWNER_EMAIL } from '../../src/core/auth/sign-in-account.js';
import { X_SCOPES } from '../../src/platform/xapi/index.js';
import { DashboardBrowser } from '../dashboard/browser-session.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { write } from '../writes/helpers.js';
import { BASE, TOKEN, USER_TOKENS, useXServer, xroute } from './helpers.js';

const CLIENT_ID = 'test-client-id';
const PUBLIC_URL = 'https://svc.example.com';
const CALLBACK = `${PUBLIC_URL}/api/v1/x/oauth/callback`;
const server = useXServer();

/** What X's token endpoint saw, and the PKCE challenges of the authorization URLs handed out. */
interface TokenCall {
  form: URLSearchParams;
}
let tokenCalls: TokenCall[] = [];
let revoked: string[] = [];
let minted = 0;
/** The answer of the token endpoint to a refresh: tokens, or X's refusal. */
let refreshAnswer: 'ok' | 'refused' = 'ok';

function mint(now: number) {
  minted += 1;
  const access = `user-access-${minted}`;
  USER_TOKENS[access] = X_SCOPES;
  return {
    access_token: access,
    refresh_token: `user-refresh-${minted}`,
    expires_in: 7200,
    scope: X_SCOPES.join(' '),
    token_type: 'bearer',
    now,
  };
}

/**
 * X's OAuth 2.0 token and revocation endpoints. They are not in X's API description (X documents them in
 * its OAuth 2.0 guide), so they are answered here and not through the facts checker.
 */
function oauthEndpoints(challenges: Map<string, string>) {
  return [
    http.post(`${BASE}/2/oauth2/token`, async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      tokenCalls.push({ form });
      if (form.get('client_id') !== CLIENT_ID)
        return HttpResponse.json({ error: 'invalid_client' }, { status: 401 });
      if (form.get('grant_type') === 'authorization_code') {
        const challenge = challenges.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const computed = createHash('sha256').update(verifier).digest('base64url');
        if (!challenge || computed !== challenge || form.get('redirect_uri') !== CALLBACK)
          return HttpResponse.json({ error: 'invalid_request' }, { status: 400 });
        return HttpResponse.json(mint(0));
      }
      if (form.get('grant_type') === 'refresh_token') {
        if (refreshAnswer === 'refused')
          return HttpResponse.json({ error: 'invalid_request' }, { status: 400 });
        return HttpResponse.json(mint(0));
      }
      return HttpResponse.json({ error: 'unsupported_grant_type' }, { status: 400 });
    }),
    http.post(`${BASE}/2/oauth2/revoke`, async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      revoked.push(form.get('token') ?? '');
      return HttpResponse.json({ revoked: true });
    }),
  ];
}

const me = (username: string, id: string) =>
  xroute('get', '/2/users/me', () => ({ data: { id, username, name: username } }));

const connectBody = (username: string) => ({
  username,
  email: 'unused@example.com',
  password: 'unused',
  totp_secret: 'unused',
});

describe('connected accounts on xapi: X OAuth 2.0 with PKCE', () => {
  let t: TestServer;
  /** The code X would give for each authorization URL, by code: its PKCE challenge. */
  const challenges = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestServer('sqlite', {
      platform: 'xapi',
      xBearerToken: TOKEN,
      xApiBaseUrl: BASE,
      xClientId: CLIENT_ID,
      publicUrl: PUBLIC_URL,
    });
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    tokenCalls = [];
    revoked = [];
    refreshAnswer = 'ok';
    await t.server.services.database.db.deleteFrom('x_accounts').execute();
  });

  /** Starts a connection and "approves" it on X: the code X would send back to the callback. */
  async function approve(username: string): Promise<{ attemptId: string; state: string; code: string }> {
    const res = await t.request('POST', '/api/v1/x/accounts', { body: connectBody(username) });
    expect(res.status).toBe(202);
    const url = new URL(res.body.authorizationUrl);
    const code = `code-${challenges.size + 1}`;
    challenges.set(code, url.searchParams.get('code_challenge') ?? '');
    return { attemptId: res.body.id, state: url.searchParams.get('state') ?? '', code };
  }

  it('answers 202 with X’s authorization URL: PKCE S256, the callback, every scope the features need', async () => {
    const res = await t.request('POST', '/api/v1/x/accounts', { body: connectBody('jack') });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ object: 'x_account_connection_attempt', status: 'pending' });
    expect(res.headers.location).toBe(`/api/v1/x/account-connection-attempts/${res.body.id}`);
    const url = new URL(res.body.authorizationUrl);
    expect(url.origin + url.pathname).toBe('https://x.com/i/oauth2/authorize');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^xch_[A-Za-z0-9_-]{24}$/);
    const scopes = url.searchParams.get('scope')?.split(' ');
    for (const s of [
      'tweet.read',
      'users.read',
      'tweet.write',
      'like.write',
      'like.read',
      'follows.write',
      'offline.access',
    ])
      expect(scopes).toContain(s);
    // The attempt stays pending with the same URL until X calls back.
    const attempt = await t.request('GET', `/api/v1/x/account-connection-attempts/${res.body.id}`);
    expect(attempt.body).toMatchObject({ status: 'pending', authorizationUrl: res.body.authorizationUrl });
    // The challenge submission never accepts an authorization.
    const submit = await t.request(
      'POST',
      `/api/v1/x/account-connection-challenges/${url.searchParams.get('state')}/submit`,
      {
        body: { email_code: '123456' },
      },
    );
    expect(submit.status).toBe(409);
  });

  it('connects on X’s callback: the code and verifier traded, the account from /2/users/me, tokens sealed', async () => {
    server.use(...oauthEndpoints(challenges), me('jack', '12'));
    const { attemptId, state, code } = await approve('jack');
    const cb = await t.request('GET', `/api/v1/x/oauth/callback?state=${state}&code=${code}`, { key: null });
    expect(cb.status).toBe(200);
    expect(cb.headers['content-type']).toContain('text/html');
    const attempt = await t.request('GET', `/api/v1/x/account-connection-attempts/${attemptId}`);
    expect(attempt.body).toMatchObject({ status: 'connected' });
    const { accounts } = (await t.request('GET', '/api/v1/x/accounts')).body;
    expect(accounts).toMatchObject([
      { xUserId: '12', xUsername: 'jack', health: 'healthy', status: 'active' },
    ]);
    const row = await t.server.services.database.db
      .selectFrom('x_accounts')
      .select('session_enc')
      .executeTakeFirstOrThrow();
    expect(row.session_enc).toMatch(/^v1\./);
    expect(row.session_enc).not.toContain('user-access');
    // The callback works once.
    const again = await t.request('GET', `/api/v1/x/oauth/callback?state=${state}&code=${code}`, {
      key: null,
    });
    expect(again.status).toBe(400);
  });

  it('refuses an approval given by another account than the one asked for, and revokes its tokens', async () => {
    server.use(...oauthEndpoints(challenges), me('someone_else', '99'));
    const { attemptId, state, code } = await approve('jack');
    const cb = await t.request('GET', `/api/v1/x/oauth/callback?state=${state}&code=${code}`, { key: null });
    expect(cb.status).toBe(422);
    expect(cb.body).toContain('@someone_else');
    const attempt = await t.request('GET', `/api/v1/x/account-connection-attempts/${attemptId}`);
    expect(attempt.body).toMatchObject({ status: 'failed', error: 'login_failed' });
    expect((await t.request('GET', '/api/v1/x/accounts')).body.accounts).toEqual([]);
    expect(revoked).toHaveLength(2);
  });

  it('fails the attempt when the owner declines on X, and when the authorization expires', async () => {
    const declined = await approve('jack');
    const cb = await t.request(
      'GET',
      `/api/v1/x/oauth/callback?state=${declined.state}&error=access_denied`,
      { key: null },
    );
    expect(cb.status).toBe(400);
    expect(
      (await t.request('GET', `/api/v1/x/account-connection-attempts/${declined.attemptId}`)).body,
    ).toMatchObject({
      status: 'failed',
      error: 'login_failed',
    });
    const late = await approve('jack');
    t.clock.advance(11 * 60_000);
    expect(
      (await t.request('GET', `/api/v1/x/account-connection-attempts/${late.attemptId}`)).body,
    ).toMatchObject({
      status: 'failed',
      error: 'connection_challenge_expired',
    });
    const cb2 = await t.request('GET', `/api/v1/x/oauth/callback?state=${late.state}&code=${late.code}`, {
      key: null,
    });
    expect(cb2.status).toBe(410);
    expect(tokenCalls).toEqual([]);
  });

  it('an unknown state changes nothing', async () => {
    const cb = await t.request('GET', '/api/v1/x/oauth/callback?state=xch_nope&code=abc', { key: null });
    expect(cb.status).toBe(400);
  });

  it('renews the access token before it expires, and needsReauth when X refuses the refresh', async () => {
    server.use(...oauthEndpoints(challenges), me('jack', '12'));
    const { state, code } = await approve('jack');
    await t.request('GET', `/api/v1/x/oauth/callback?state=${state}&code=${code}`, { key: null });
    const used: string[] = [];
    server.use(
      xroute('post', '/2/users/:id/likes', (_url, request) => {
        used.push(request.headers.get('authorization') ?? '');
        return { data: { liked: true } };
      }),
    );
    const like = (n: number) =>
      write(
        t,
        'POST',
        `/api/v1/x/tweets/${1000 + n}/like`,
        { account: 'jack' },
        { idempotencyKey: `like-${n}-${Date.now()}` },
      );
    expect((await like(1)).status).toBe(200);
    expect(tokenCalls.map((c) => c.form.get('grant_type'))).toEqual(['authorization_code']);
    // Two hours later the access token is about to expire: refreshed first, the new one used.
    t.clock.advance(2 * 60 * 60_000 - 60_000);
    expect((await like(2)).status).toBe(200);
    expect(tokenCalls.map((c) => c.form.get('grant_type'))).toEqual(['authorization_code', 'refresh_token']);
    expect(used[1]).not.toBe(used[0]);
    expect(tokenCalls[1]?.form.get('refresh_token')).toMatch(/^user-refresh-/);
    // X refuses the next refresh (revoked on X): the connection needs a new approval.
    refreshAnswer = 'refused';
    t.clock.advance(2 * 60 * 60_000);
    const refused = await like(3);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('account_needs_reauth');
    const { accounts } = (await t.request('GET', '/api/v1/x/accounts')).body;
    expect(accounts[0].health).toBe('needsReauth');
    expect(used).toHaveLength(2);
  });

  it('re-authentication is a new approval on X; disconnecting revokes the tokens on X', async () => {
    server.use(...oauthEndpoints(challenges), me('jack', '12'));
    const first = await approve('jack');
    await t.request('GET', `/api/v1/x/oauth/callback?state=${first.state}&code=${first.code}`, { key: null });
    const { accounts } = (await t.request('GET', '/api/v1/x/accounts')).body;
    const reauth = await t.request('POST', `/api/v1/x/accounts/${accounts[0].id}/reauth`, {
      body: { password: 'unused' },
    });
    expect(reauth.status).toBe(202);
    const url = new URL(reauth.body.authorizationUrl);
    challenges.set('code-reauth', url.searchParams.get('code_challenge') ?? '');
    const cb = await t.request(
      'GET',
      `/api/v1/x/oauth/callback?state=${url.searchParams.get('state')}&code=code-reauth`,
      {
        key: null,
      },
    );
    expect(cb.status).toBe(200);
    // The old tokens were revoked when the new ones replaced them.
    expect(revoked).toHaveLength(2);
    const gone = await t.request('DELETE', `/api/v1/x/accounts/${accounts[0].id}`);
    expect(gone.status).toBe(200);
    expect(revoked).toHaveLength(4);
    expect(revoked.slice(2)).toEqual([
      expect.stringMatching(/^user-refresh-/),
      expect.stringMatching(/^user-access-/),
    ]);
  });

  it('connects from the dashboard: the form starts the attempt and links to X’s consent page', async () => {
    const browser = new DashboardBrowser(t.server.app, PUBLIC_URL, {
      'x-forwarded-proto': 'https',
      host: 'svc.example.com',
    });
    await browser.signIn(OWNER_EMAIL);
    const page = await browser.get('/dashboard/accounts');
    expect(page.body).toContain('Connect with X');
    const sent = await browser.post('/dashboard/accounts/connect', {
      csrf: DashboardBrowser.csrfOf(page),
      username: '@jack',
    });
    expect(sent.status).toBe(200);
    const link = /href="(https:\/\/x\.com\/i\/oauth2\/authorize[^"]+)"/.exec(sent.body)?.[1];
    expect(link).toBeDefined();
    const url = new URL((link ?? '').replaceAll('&amp;', '&'));
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('state')).toMatch(/^xch_/);
    const bad = await browser.post('/dashboard/accounts/connect', {
      csrf: DashboardBrowser.csrfOf(page),
      username: 'no spaces',
    });
    expect(bad.status).toBe(400);
  });
});

describe('connected accounts on xapi without an OAuth 2.0 client', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { platform: 'xapi', xBearerToken: TOKEN, xApiBaseUrl: BASE });
  });
  afterAll(async () => t?.close());

  it('answers 503 naming X_CLIENT_ID', async () => {
    const res = await t.request('POST', '/api/v1/x/accounts', { body: connectBody('jack') });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('x_login_service_unavailable');
    expect(res.body.message).toContain('X_CLIENT_ID');
  });
});
