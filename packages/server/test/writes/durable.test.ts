import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, platformFor } from '../../src/app/server.js';
import { TEMPORARY_ISSUE_WAIT_MS } from '../../src/core/accounts/health.js';
import { createAccount, createApiKey } from '../../src/core/auth/accounts.js';
import { ManualClock } from '../../src/core/clock.js';
import { parseConfig } from '../../src/core/config.js';
import type { WriteActor, WriteCommand } from '../../src/core/platform/account-writes.js';
import { type Platform, PlatformUnavailableError } from '../../src/core/platform/platform.js';
import { asTestServer, ENGINES, startTestServer, type TestServer, testDatabase } from '../helpers/server.js';
import { setBalance } from '../reads/fixtures.js';
import {
  connectThroughApi,
  DEV_PASSWORD,
  expectContract,
  newSimUser,
  setCredentials,
} from '../x-accounts/helpers.js';
import { ok, pollAction, read, refused, write } from './helpers.js';

/** How the test platform's next write behaves: as the simulated platform, or failing in one of three ways. */
type Mode = 'normal' | 'lost_after_write' | 'lost_before_write' | 'not_sent';

/**
 * The durable write-action flow around the platform: who may write (400/403/404), a dead session (401 then
 * re-authentication), credits (402 before anything is sent), and writes whose answer is lost (202
 * `pending_confirmation`, confirmed or expired by the clock) or that were never sent (`safeToRetry`).
 */
describe.each(ENGINES)('durable writes (%s)', (engine) => {
  let t: TestServer & { accountId: string };
  let mode: Mode = 'normal';
  let me: { id: string; xUserId: string; xUsername: string };
  let username: string;

  beforeAll(async () => {
    const clock = new ManualClock();
    const { database, drop } = await testDatabase(engine);
    const cfg = parseConfig({ logLevel: 'silent', seedSize: 'tiny', keyFile: '' });
    const server = await createServer(cfg, {
      database,
      clock,
      validateResponses: true,
      platform: async (services) => {
        const real = await platformFor(cfg, services);
        return {
          ...real,
          write: async (token: string, actor: WriteActor, command: WriteCommand) => {
            const m = mode;
            mode = 'normal';
            if (m === 'not_sent')
              throw new PlatformUnavailableError('x_api_unavailable', 'the platform is down');
            if (m === 'lost_before_write') throw new Error('connection reset');
            const outcome = await real.write(token, actor, command);
            if (m === 'lost_after_write') throw new Error('connection reset after the write');
            return outcome;
          },
        } as Platform;
      },
    });
    t = await asTestServer(server, cfg, clock, drop);
    await setBalance(t, t.accountId, 1_000_000);
    username = (await newSimUser(t, 'durable')).username;
    me = await connectThroughApi(t, username);
  });
  afterAll(async () => t?.close());
  beforeEach(() => {
    mode = 'normal';
  });

  it('answers 202 pending_confirmation when the answer is lost, then confirms the write on the next poll', async () => {
    mode = 'lost_after_write';
    const res = await write(t, 'POST', '/api/v1/x/tweets', { account: me.id, text: 'did it post?' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: 'pending_confirmation',
      terminal: false,
      error: 'x_write_unconfirmed',
      safeToRetry: false,
      charged: false,
      sendDispatched: true,
      pollAfterMs: 1000,
      nextAction: { type: 'poll' },
    });
    expect(res.headers.location).toBe(res.body.statusUrl);
    expect(res.headers['retry-after']).toBe('1');

    const poll = await pollAction(t, res.body.id);
    expect(poll.status).toBe(200);
    expect(poll.body).toMatchObject({ status: 'success', charged: true, confirmationAttempts: 0 });
    expect(poll.body.tweetId).toMatch(/^\d+$/);
    expect((await read(t, `/api/v1/x/tweets/${poll.body.tweetId}`)).tweet.text).toBe('did it post?');
  });

  it('keeps an unconfirmed write pending (202) and expires it after its window (verify_result)', async () => {
    mode = 'lost_before_write';
    const key = randomUUID();
    const res = await write(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: me.id, text: 'maybe' },
      { idempotencyKey: key },
    );
    expect(res.status).toBe(202);
    const poll = await pollAction(t, res.body.id);
    expect(poll.status).toBe(202);
    expectContract('getWriteActionStatus', poll.body);
    expect(poll.body).toMatchObject({ status: 'pending_confirmation', confirmationAttempts: 1 });
    // The same key again never sends it again while it is pending.
    const retried = await write(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: me.id, text: 'maybe' },
      { idempotencyKey: key },
    );
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: res.body.id, idempotent: true });

    t.clock.advance(5 * 60_000);
    const expired = await pollAction(t, res.body.id);
    expect(expired.status).toBe(200);
    expect(expired.body).toMatchObject({
      status: 'expired',
      terminal: true,
      safeToRetry: false,
      charged: false,
      nextAction: { type: 'verify_result' },
    });
  });

  it('fails a write that was never sent as 500 x_write_failed, safe to retry with a new key', async () => {
    mode = 'not_sent';
    const res = await write(t, 'POST', `/api/v1/x/users/jack/follow`, { account: me.id });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({
      error: 'x_write_failed',
      status: 'failed',
      safeToRetry: true,
      retryable: true,
      nextAction: { type: 'retry' },
    });
    // The connection rests first (health temporaryIssue): a retry at once is sent nowhere, 503 safe to retry.
    const early = await write(t, 'POST', `/api/v1/x/users/jack/follow`, { account: me.id });
    expect([early.status, early.body.error, early.body.safeToRetry]).toEqual([
      503,
      'x_transient_error',
      true,
    ]);
    t.clock.advance(TEMPORARY_ISSUE_WAIT_MS);
    await ok(t, 'POST', '/api/v1/x/users/jack/follow', { account: me.id });
  });

  it('refuses writes without a usable connected account: 400, 404, 403', async () => {
    const db = t.server.services.database.db;
    const other = await createAccount(db, {
      email: 'other@example.com',
      isOwner: false,
      credits: 1000n,
      now: t.clock.now(),
    });
    const { fullKey } = await createApiKey(db, { accountId: other.id, name: 'k', now: t.clock.now() });
    const none = await write(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: 'jack', text: 'hi' },
      { apiKey: fullKey },
    );
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('account_required');
    const anonymous = await t.request('POST', '/api/v1/x/tweets', {
      key: null,
      body: { account: me.id, text: 'hi' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(anonymous.status).toBe(401);

    await refused(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: 'somebody', text: 'hi' },
      404,
      'account_not_found',
    );
    await refused(t, 'POST', '/api/v1/x/tweets', { account: 'bad ref!', text: 'hi' }, 400, 'invalid_input');

    const mine = await t.request('POST', '/api/v1/x/tweets', {
      body: { account: me.id, text: 'first' },
      headers: { 'idempotency-key': randomUUID() },
    });
    const status = await pollAction(t, mine.body.id, { key: fullKey });
    expect(status.status).toBe(404);

    for (const [health, code] of [
      ['locked', 'account_restricted'],
      ['suspended', 'account_restricted'],
      ['needsReauth', 'account_needs_reauth'],
    ] as const) {
      await db.updateTable('x_accounts').set({ health }).where('id', '=', me.id).execute();
      await refused(t, 'POST', '/api/v1/x/tweets', { account: me.id, text: `as ${health}` }, 403, code);
    }
    await db.updateTable('x_accounts').set({ health: 'healthy' }).where('id', '=', me.id).execute();
  });

  it('answers 401 x_auth_failure when the session died (password changed), then works after reauth', async () => {
    await setCredentials(t, username, { password: 'changed-password' });
    const dead = await refused(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: me.id, text: 'still me?' },
      401,
      'x_auth_failure',
    );
    expect(dead).toMatchObject({ safeToRetry: true, status: 'failed' });
    const account = await t.request('GET', `/api/v1/x/accounts/${me.id}`);
    expect(account.body.health).toBe('needsReauth');
    await refused(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: me.id, text: 'still me?' },
      403,
      'account_needs_reauth',
    );
    const reauth = await t.request('POST', `/api/v1/x/accounts/${me.id}/reauth`, {
      body: { password: DEV_PASSWORD },
    });
    expect(reauth.status).toBe(422);
    const again = await t.request('POST', `/api/v1/x/accounts/${me.id}/reauth`, {
      body: { password: 'changed-password' },
    });
    expect(again.status).toBe(201);
    await ok(t, 'POST', '/api/v1/x/tweets', { account: me.id, text: 'still me?' });
  });

  it('refuses a write of a suspended platform account (422 x_account_suspended)', async () => {
    const other = await newSimUser(t, 'soon');
    const acct = await connectThroughApi(t, other.username);
    await t.request('PATCH', `/sim/users/${other.username}`, { body: { suspended: true } });
    await refused(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: acct.id, text: 'hello' },
      422,
      'x_account_suspended',
    );
  });

  it('health follows what writes learn: suspended until a re-authentication finds the account well', async () => {
    const other = await newSimUser(t, 'banned');
    const acct = await connectThroughApi(t, other.username);
    const health = async () => (await t.request('GET', `/api/v1/x/accounts/${acct.id}`)).body.health;
    expect(await health()).toBe('healthy');
    await t.request('PATCH', `/sim/users/${other.username}`, { body: { suspended: true } });
    const body = { account: acct.id, text: 'hello' };
    await refused(t, 'POST', '/api/v1/x/tweets', body, 422, 'x_account_suspended');
    expect(await health()).toBe('suspended');
    const listed = await t.request('GET', '/api/v1/x/accounts');
    expect(listed.body.accounts.find((a: { id: string }) => a.id === acct.id).health).toBe('suspended');
    // Known suspended: refused before anything is sent (nor stored).
    await refused(t, 'POST', '/api/v1/x/tweets', body, 403, 'account_restricted');
    // The platform lifts the suspension; a re-authentication checks the account and finds it well.
    await t.request('PATCH', `/sim/users/${other.username}`, { body: { suspended: false } });
    const reauth = await t.request('POST', `/api/v1/x/accounts/${acct.id}/reauth`, {
      body: { password: DEV_PASSWORD },
    });
    expect(reauth.status, JSON.stringify(reauth.body)).toBe(201);
    expect(await health()).toBe('healthy');
    await ok(t, 'POST', '/api/v1/x/tweets', body);
  });

  it('health follows an outage: temporaryIssue, a rest, recovering, then healthy after a write that works', async () => {
    const other = await newSimUser(t, 'outage');
    const acct = await connectThroughApi(t, other.username);
    const health = async () => (await t.request('GET', `/api/v1/x/accounts/${acct.id}`)).body.health;
    const body = { account: acct.id, text: 'through the outage' };
    mode = 'not_sent';
    await refused(t, 'POST', '/api/v1/x/tweets', body, 500, 'x_write_failed');
    expect(await health()).toBe('temporaryIssue');
    // During the rest nothing is sent: 503, with the rest of the wait as Retry-After.
    t.clock.advance(10_000);
    const resting = await write(t, 'POST', '/api/v1/x/tweets', body);
    expect([resting.status, resting.body.error]).toEqual([503, 'x_transient_error']);
    expect(resting.headers['retry-after']).toBe('20');
    t.clock.advance(20_000);
    expect(await health()).toBe('recovering');
    // The retry fails again: back to temporaryIssue; once rested, a write that works makes it healthy.
    mode = 'not_sent';
    await refused(t, 'POST', '/api/v1/x/tweets', body, 500, 'x_write_failed');
    expect(await health()).toBe('temporaryIssue');
    t.clock.advance(30_000);
    await ok(t, 'POST', '/api/v1/x/tweets', body);
    expect(await health()).toBe('healthy');
  });

  it('health follows a lock: locked until the platform unlocks it and a re-authentication finds it well', async () => {
    const other = await newSimUser(t, 'locked');
    const acct = await connectThroughApi(t, other.username);
    const health = async () => (await t.request('GET', `/api/v1/x/accounts/${acct.id}`)).body.health;
    await t.request('PATCH', `/sim/users/${other.username}`, { body: { locked: true } });
    const body = { account: acct.id, text: 'while locked' };
    // The platform refuses the write of a locked account (no code of its own: 403 account_restricted).
    await refused(t, 'POST', '/api/v1/x/tweets', body, 403, 'account_restricted');
    expect(await health()).toBe('locked');
    // A re-authentication while it is still locked is refused and leaves it locked.
    const early = await t.request('POST', `/api/v1/x/accounts/${acct.id}/reauth`, {
      body: { password: DEV_PASSWORD },
    });
    expect(early.status, JSON.stringify(early.body)).toBe(422);
    expect(await health()).toBe('locked');
    await t.request('PATCH', `/sim/users/${other.username}`, { body: { locked: false } });
    const reauth = await t.request('POST', `/api/v1/x/accounts/${acct.id}/reauth`, {
      body: { password: DEV_PASSWORD },
    });
    expect(reauth.status, JSON.stringify(reauth.body)).toBe(201);
    expect(await health()).toBe('healthy');
    await ok(t, 'POST', '/api/v1/x/tweets', body);
  });

  it('health follows what private reads learn: suspended, locked, and healthy after a rest', async () => {
    const other = await newSimUser(t, 'reader');
    const acct = await connectThroughApi(t, other.username);
    const health = async () => (await t.request('GET', `/api/v1/x/accounts/${acct.id}`)).body.health;
    const bookmarks = `/api/v1/x/bookmarks?account=${acct.id}`;
    const timeline = `/api/v1/x/timeline?account=${acct.id}`;
    await read(t, bookmarks);
    expect(await health()).toBe('healthy');
    await t.request('PATCH', `/sim/users/${other.username}`, { body: { suspended: true } });
    const suspended = await t.request('GET', timeline);
    expect([suspended.status, suspended.body.error]).toEqual([403, 'account_restricted']);
    expect(await health()).toBe('suspended');
    await t.request('PATCH', `/sim/users/${other.username}`, { body: { suspended: false, locked: true } });
    const locked = await t.request('GET', bookmarks);
    expect([locked.status, locked.body.error]).toEqual([403, 'account_restricted']);
    expect(await health()).toBe('locked');
    // A read that works does not end a lock: only a re-authentication checks the account again.
    await t.request('PATCH', `/sim/users/${other.username}`, { body: { locked: false } });
    await read(t, bookmarks);
    expect(await health()).toBe('locked');
    const reauth = await t.request('POST', `/api/v1/x/accounts/${acct.id}/reauth`, {
      body: { password: DEV_PASSWORD },
    });
    expect(reauth.status, JSON.stringify(reauth.body)).toBe(201);
    expect(await health()).toBe('healthy');
    // An outage (seen by a write), a rest, recovering: a private read that works makes it healthy.
    mode = 'not_sent';
    await refused(t, 'POST', '/api/v1/x/tweets', { account: acct.id, text: 'outage' }, 500, 'x_write_failed');
    expect(await health()).toBe('temporaryIssue');
    t.clock.advance(TEMPORARY_ISSUE_WAIT_MS);
    expect(await health()).toBe('recovering');
    await read(t, timeline);
    expect(await health()).toBe('healthy');
  });

  it('answers 402 before sending when credits do not cover the write, and stores nothing', async () => {
    await setBalance(t, t.accountId, 5);
    const key = randomUUID();
    const body = { account: me.id, text: 'costly' };
    const poor = await write(t, 'POST', '/api/v1/x/tweets', body, { idempotencyKey: key });
    expect(poor.status).toBe(402);
    expect(poor.body.error).toBe('insufficient_credits');
    await setBalance(t, t.accountId, 1_000);
    const paid = await write(t, 'POST', '/api/v1/x/tweets', body, { idempotencyKey: key });
    expect(paid.status).toBe(200);
    expect(paid.body.idempotent).toBeUndefined();
    expect(await t.server.services.credits.balance(t.accountId)).toBe(990n);
  });
});

describe('writes on the xapi platform', () => {
  it('need a connected account, which an app token cannot make', async () => {
    const t = await startTestServer('sqlite', { platform: 'xapi', xBearerToken: 'test-token' });
    try {
      const res = await write(t, 'POST', '/api/v1/x/tweets', { account: 'jack', text: 'hi' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('account_required');
    } finally {
      await t.close();
    }
  });
});
