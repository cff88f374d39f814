import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';
import {
  connectBody,
  connectThroughApi,
  DEV_PASSWORD,
  expectContract,
  latestCode,
  newSimUser,
  setCredentials,
} from './helpers.js';

/**
 * Connecting simulated accounts (spec 2.13, 3.5, 4.12) through HTTP: the development password, own
 * credentials, e-mailed code challenges and their state machine, attempts, re-authentication, disconnection,
 * the cooldown and the safety limit. Every answer is checked against the contract.
 */
describe.each(ENGINES)('connected accounts (%s)', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine);
  });
  afterAll(async () => t?.close());
  // Each test starts past the connect safety limit's window of the one before.
  beforeEach(() => t.clock.advance(16 * 60_000));

  it('connects a seeded account with the development password, lists and gets it', async () => {
    const empty = await t.request('GET', '/api/v1/x/accounts');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ accounts: [] });

    const res = await t.request('POST', '/api/v1/x/accounts', { body: connectBody('@xsvc_demo') });
    expect(res.status).toBe(201);
    expectContract('connectXAccount', res.body);
    expect(res.body).toMatchObject({ xUsername: 'xsvc_demo', status: 'active', health: 'healthy' });
    expect(res.body).not.toHaveProperty('password');
    expect(String(res.headers.location)).toMatch(
      /^\/api\/v1\/x\/account-connection-attempts\/xatt_[0-9a-f]{32}$/,
    );

    const attempt = await t.request('GET', String(res.headers.location));
    expect(attempt.status).toBe(200);
    expectContract('getXAccountConnectionAttempt', attempt.body);
    expect(attempt.body).toMatchObject({ object: 'x_account_connection_attempt', status: 'connected' });

    const list = await t.request('GET', '/api/v1/x/accounts');
    expect(list.body.accounts.map((a: { id: string }) => a.id)).toEqual([res.body.id]);
    for (const ref of [res.body.id, '@xsvc_demo', res.body.xUserId]) {
      const one = await t.request('GET', `/api/v1/x/accounts/${encodeURIComponent(ref)}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id: res.body.id, cookiesObtainedAt: expect.any(String) });
    }

    // Stored: the session encrypted, never the password.
    const row = await t.server.services.database.db
      .selectFrom('x_accounts')
      .selectAll()
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row.session_enc).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
      DEV_PASSWORD,
    );

    const again = await t.request('POST', '/api/v1/x/accounts', { body: connectBody('xsvc_demo') });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('account_already_connected');
  });

  it('refuses bad input and unknown accounts with their codes', async () => {
    const bad = await t.request('POST', '/api/v1/x/accounts', {
      body: { username: 'not a name!', email: 'x@example.com', password: 'p', totp_secret: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_input');
    const noEmail = await t.request('POST', '/api/v1/x/accounts', {
      body: { ...connectBody('jack'), email: 'nope' },
    });
    expect(noEmail.status).toBe(400);
    for (const path of ['/api/v1/x/accounts/nobody', '/api/v1/x/accounts/123456']) {
      const missing = await t.request('GET', path);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe('account_not_found');
    }
    const del = await t.request('DELETE', '/api/v1/x/accounts/nobody');
    expect(del.status).toBe(404);
    const reauth = await t.request('POST', '/api/v1/x/accounts/nobody/reauth', { body: { password: 'x' } });
    expect(reauth.status).toBe(404);
    const attempt = await t.request('GET', `/api/v1/x/account-connection-attempts/xatt_${'0'.repeat(32)}`);
    expect(attempt.status).toBe(404);
    expect(attempt.body.error).toBe('not_found');
    const badAttempt = await t.request('GET', '/api/v1/x/account-connection-attempts/nope');
    expect(badAttempt.status).toBe(400);
    const challenge = await t.request('POST', '/api/v1/x/account-connection-challenges/xch_nope/submit', {
      body: { email_code: '123456' },
    });
    expect(challenge.status).toBe(404);
    expect(challenge.body.error).toBe('connection_challenge_not_found');
    const badCode = await t.request('POST', '/api/v1/x/account-connection-challenges/xch_nope/submit', {
      body: { email_code: '12' },
    });
    expect(badCode.status).toBe(400);
    const anonymous = await t.request('GET', '/api/v1/x/accounts', { key: null });
    expect(anonymous.status).toBe(401);
  });

  it('answers 422 login_failed for a wrong password, then 429 login_cooldown after three failures', async () => {
    const { username } = await newSimUser(t, 'cool');
    const wrong = () =>
      t.request('POST', '/api/v1/x/accounts', { body: connectBody(username, { password: 'wrong' }) });
    for (let i = 0; i < 3; i++) {
      const res = await wrong();
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('login_failed');
      expect(res.body.attemptId).toMatch(/^xatt_/);
      const attempt = await t.request('GET', `/api/v1/x/account-connection-attempts/${res.body.attemptId}`);
      expectContract('getXAccountConnectionAttempt', attempt.body);
      expect(attempt.body).toMatchObject({ status: 'failed', error: 'login_failed', retryable: false });
    }
    // Even the right password waits for the cooldown.
    const cooling = await t.request('POST', '/api/v1/x/accounts', { body: connectBody(username) });
    expect(cooling.status).toBe(429);
    expect(cooling.body).toMatchObject({ error: 'login_cooldown', retryAfterMs: 5 * 60_000 });
    expect(cooling.headers['retry-after']).toBe('300');
    t.clock.advance(2 * 60_000);
    const later = await t.request('POST', '/api/v1/x/accounts', { body: connectBody(username) });
    expect(later.body.retryAfterMs).toBe(3 * 60_000);
    t.clock.advance(3 * 60_000 + 1);
    const ok = await t.request('POST', '/api/v1/x/accounts', { body: connectBody(username) });
    expect(ok.status).toBe(201);
  });

  it('logs in with the account’s own password, e-mail and authenticator secret', async () => {
    const { username } = await newSimUser(t, 'own');
    await setCredentials(t, username, {
      password: 'hunter22',
      email: 'own@example.com',
      totpSecret: 'ABCD EFGH',
    });
    const dev = await t.request('POST', '/api/v1/x/accounts', { body: connectBody(username) });
    expect(dev.status).toBe(422);
    const wrongEmail = await t.request('POST', '/api/v1/x/accounts', {
      body: connectBody(username, { password: 'hunter22', totp_secret: 'abcdefgh' }),
    });
    expect(wrongEmail.status).toBe(422);
    const res = await t.request('POST', '/api/v1/x/accounts', {
      body: connectBody(username, {
        password: 'hunter22',
        email: 'OWN@example.com',
        totp_secret: 'abcdefgh',
      }),
    });
    expect(res.status).toBe(201);
    const stored = await t.server.services.database.db
      .selectFrom('simulated_credentials')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
      'hunter22',
    );
  });

  it('runs the e-mail code challenge: 202, a second code, then 201; a used challenge is 409', async () => {
    const { username } = await newSimUser(t, 'mail');
    await setCredentials(t, username, { emailCodes: 2 });
    const start = await t.request('POST', '/api/v1/x/accounts', { body: connectBody(username) });
    expect(start.status).toBe(202);
    expectContract('connectXAccount', start.body);
    expect(start.body).toMatchObject({
      object: 'x_account_connection_challenge',
      status: 'requires_email_code',
      username,
      expiresAt: new Date(t.clock.now() + 10 * 60_000).toISOString(),
    });
    expect(start.body.id).toMatch(/^xch_/);
    const attempt = await t.request('GET', String(start.headers.location));
    expect(attempt.body).toEqual(start.body);

    const first = await latestCode(t, username);
    const submit = (code: string) =>
      t.request('POST', `/api/v1/x/account-connection-challenges/${start.body.id}/submit`, {
        body: { email_code: ` ${code.slice(0, 3)} ${code.slice(3)} ` },
      });
    const second = await submit(first);
    expect(second.status).toBe(202);
    expectContract('submitXAccountConnectionChallenge', second.body);
    expect(second.body.id).toBe(start.body.id);
    const code2 = await latestCode(t, username);
    expect(code2).not.toBe(first);
    const done = await submit(code2);
    expect(done.status).toBe(201);
    expectContract('submitXAccountConnectionChallenge', done.body);
    expect(done.body).toMatchObject({ xUsername: username, health: 'healthy' });
    const connected = await t.request('GET', String(start.headers.location));
    expect(connected.body.status).toBe('connected');

    const reused = await submit(code2);
    expect(reused.status).toBe(409);
    expect(reused.body.error).toBe('connection_challenge_inactive');
  });

  it('fails a challenge on a wrong code (422, then 409) and expires it by the clock (410, then 409)', async () => {
    const { username } = await newSimUser(t, 'codes');
    await setCredentials(t, username, { emailCodes: 1 });
    const a = await t.request('POST', '/api/v1/x/accounts', { body: connectBody(username) });
    const wrong = await t.request('POST', `/api/v1/x/account-connection-challenges/${a.body.id}/submit`, {
      body: { email_code: '0000000' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toBe('login_failed');
    const after = await t.request('POST', `/api/v1/x/account-connection-challenges/${a.body.id}/submit`, {
      body: { email_code: await latestCode(t, username) },
    });
    expect(after.status).toBe(409);

    const b = await t.request('POST', '/api/v1/x/accounts', { body: connectBody(username) });
    expect(b.status).toBe(202);
    const code = await latestCode(t, username);
    t.clock.advance(10 * 60_000 + 1);
    const attempt = await t.request('GET', String(b.headers.location));
    expect(attempt.body).toMatchObject({ status: 'failed', error: 'connection_challenge_expired' });
    const late = await t.request('POST', `/api/v1/x/account-connection-challenges/${b.body.id}/submit`, {
      body: { email_code: code },
    });
    expect(late.status).toBe(410);
    expect(late.body.error).toBe('connection_challenge_expired');
    const again = await t.request('POST', `/api/v1/x/account-connection-challenges/${b.body.id}/submit`, {
      body: { email_code: code },
    });
    expect(again.status).toBe(409);
  });

  it('replaces an open challenge when a new login starts (409 on the old one)', async () => {
    const { username } = await newSimUser(t, 'repl');
    await setCredentials(t, username, { emailCodes: 1 });
    const old = await t.request('POST', '/api/v1/x/accounts', { body: connectBody(username) });
    t.clock.advance(1_000);
    const fresh = await t.request('POST', '/api/v1/x/accounts', { body: connectBody(username) });
    expect(fresh.body.id).not.toBe(old.body.id);
    const code = await latestCode(t, username);
    const stale = await t.request('POST', `/api/v1/x/account-connection-challenges/${old.body.id}/submit`, {
      body: { email_code: code },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'connection_challenge_inactive', status: 'replaced' });
    const ok = await t.request('POST', `/api/v1/x/account-connection-challenges/${fresh.body.id}/submit`, {
      body: { email_code: code },
    });
    expect(ok.status).toBe(201);
  });

  it('re-authenticates an account whose session died, disconnects it, and bulk-retries temporary issues', async () => {
    const { username } = await newSimUser(t, 're');
    const account = await connectThroughApi(t, username);
    const wrong = await t.request('POST', `/api/v1/x/accounts/${account.id}/reauth`, {
      body: { password: 'nope' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toBe('login_failed');
    t.clock.advance(1_000);
    const res = await t.request('POST', `/api/v1/x/accounts/${account.id}/reauth`, {
      body: { password: DEV_PASSWORD, email: 'a@example.com' },
    });
    expect(res.status).toBe(201);
    expectContract('reauthXAccount', res.body);
    // The reference's SanitizedXAccount: active, without updatedAt (the detail carries it).
    expect(res.body).toMatchObject({ id: account.id, health: 'healthy', status: 'active' });
    expect(res.body).not.toHaveProperty('updatedAt');
    expect((await t.request('GET', `/api/v1/x/accounts/${account.id}`)).body.updatedAt).toEqual(
      expect.any(String),
    );

    // Re-authentication with an e-mailed code goes through a challenge too.
    await setCredentials(t, username, { emailCodes: 1 });
    const challenge = await t.request('POST', `/api/v1/x/accounts/${account.id}/reauth`, {
      body: { password: DEV_PASSWORD },
    });
    expect(challenge.status).toBe(202);
    expectContract('reauthXAccount', challenge.body);
    const done = await t.request(
      'POST',
      `/api/v1/x/account-connection-challenges/${challenge.body.id}/submit`,
      {
        body: { email_code: await latestCode(t, username) },
      },
    );
    expect(done.status).toBe(201);
    expect(done.body.id).toBe(account.id);

    const db = t.server.services.database.db;
    await db
      .updateTable('x_accounts')
      .set({ health: 'temporaryIssue' })
      .where('id', '=', account.id)
      .execute();
    const retry = await t.request('POST', '/api/v1/x/accounts/bulk-retry');
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ cleared: 1 });
    expect((await t.request('POST', '/api/v1/x/accounts/bulk-retry')).body).toEqual({ cleared: 0 });

    const gone = await t.request('DELETE', `/api/v1/x/accounts/${account.id}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ success: true });
    expect((await t.request('GET', `/api/v1/x/accounts/${account.id}`)).status).toBe(404);
    const sessions = await db
      .selectFrom('simulated_sessions')
      .selectAll()
      .where('user_id', '=', account.xUserId)
      .execute();
    expect(sessions).toEqual([]);
  });

  it('connects a suspended account never (422 x_login_suspended), and nobody else’s accounts are visible', async () => {
    const { username } = await newSimUser(t, 'susp');
    await t.request('PATCH', `/sim/users/${username}`, { body: { suspended: true } });
    const res = await t.request('POST', '/api/v1/x/accounts', { body: connectBody(username) });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('x_login_suspended');
  });

  it('limits connections to 10 per 15 minutes (429, Retry-After 900)', async () => {
    const { username } = await newSimUser(t, 'lim');
    for (let i = 0; i < 10; i++) {
      const res = await t.request('POST', '/api/v1/x/accounts', {
        body: connectBody(username, { password: 'x' }),
      });
      expect([422, 429]).toContain(res.status);
      t.clock.advance((6 * 60_000) / 10);
      await t.server.services.database.db
        .deleteFrom('rate_limit_counters')
        .where('bucket', 'like', 'x-login:%')
        .execute();
    }
    const limited = await t.request('POST', '/api/v1/x/accounts', { body: connectBody(username) });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('login_rate_limited');
    expect(limited.headers['retry-after']).toBe('900');
  });
});

describe('connected accounts on the xapi platform', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { platform: 'xapi', xBearerToken: 'test-token' });
  });
  afterAll(async () => t?.close());

  it('answers 503 x_login_service_unavailable: an app token cannot log in as a user', async () => {
    const res = await t.request('POST', '/api/v1/x/accounts', { body: connectBody('jack') });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('x_login_service_unavailable');
    expect((await t.request('GET', '/api/v1/x/accounts')).body).toEqual({ accounts: [] });
    const control = await t.request('PUT', '/sim/users/jack/credentials', { body: { password: 'x' } });
    expect(control.status).toBe(404);
  });
});
