import { limits } from '@xsvc/sdk/contract';
import { currentHealth } from '../../core/accounts/health.js';
import {
  clearTemporaryIssues,
  deleteConnection,
  findConnection,
  listConnections,
  toXAccount,
} from '../../core/accounts/x-accounts.js';
import { secretBox } from '../../core/crypto/secret-box.js';
import { num } from '../../core/db/database.js';
import { HttpError } from '../../core/http/errors.js';
import { Answer, defineHandlers } from '../../core/http/handler.js';
import { attemptView, connectsSince, startAttempt } from './attempts.js';
import { openAuthorization } from './authorization.js';
import {
  AUTHORIZING,
  challengeView,
  getChallenge,
  moveChallenge,
  newChallengeId,
  OPEN,
  replaceChallengesOf,
} from './challenges.js';
import { checkCooldown, loginKey } from './cooldown.js';
import { answerLogin, endSession } from './login-flow.js';

const { limit: CONNECT_LIMIT, windowMs: CONNECT_WINDOW_MS, retryAfterSeconds } = limits.connectAccount;

/**
 * The X Accounts operations (spec 2.13, 3.5, 4.12): connect a platform account by logging in to it (201
 * account, or 202 challenge when the platform e-mails a code), submit the code, read attempts, list, get,
 * re-authenticate, disconnect, and clear temporary failures. Passwords go to the platform and are never
 * stored; the session a login gives is stored encrypted. All of it is free.
 */
export const xAccountHandlers = defineHandlers({
  listXAccounts: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const { db } = ctx.services.database;
    const now = ctx.services.clock.now();
    const rows = await listConnections(db, accountId);
    return { accounts: (await Promise.all(rows.map((r) => currentHealth(db, r, now)))).map(toXAccount) };
  },

  connectXAccount: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const { db } = ctx.services.database;
    const now = ctx.services.clock.now();
    const { username, email, password, totp_secret } = ctx.body;
    // The safety limit of spec 8.1: connections per account in a sliding window.
    if ((await connectsSince(db, accountId, now - CONNECT_WINDOW_MS)) >= CONNECT_LIMIT) {
      throw new HttpError(
        'login_rate_limited',
        `at most ${CONNECT_LIMIT} connections per ${CONNECT_WINDOW_MS / 60_000} minutes; try again later`,
        { retryAfter: retryAfterSeconds },
        429,
        { 'retry-after': String(retryAfterSeconds) },
      );
    }
    const connected = (await listConnections(db, accountId)).find(
      (r) => r.x_username.toLowerCase() === username.toLowerCase(),
    );
    if (connected) {
      throw new HttpError(
        'account_already_connected',
        `@${connected.x_username} is already connected as ${connected.id}; re-authenticate it instead`,
      );
    }
    const failureKey = loginKey(accountId, username);
    await checkCooldown(db, failureKey, now);
    const attemptId = await startAttempt(db, accountId, 'connect', username, now);
    // A platform that logs in through the owner's browser (xapi: X's OAuth 2.0) binds it to this state.
    const state = newChallengeId();
    const outcome = await ctx.services.platform.login({
      user: username,
      password,
      email,
      totpSecret: totp_secret,
      authorizationState: state,
    });
    return answerLogin(ctx, { accountId, attemptId, failureKey, state }, outcome);
  },

  getXAccountConnectionAttempt: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const { db } = ctx.services.database;
    const row = await db
      .selectFrom('x_connection_attempts')
      .selectAll()
      .where('id', '=', ctx.params.id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw new HttpError('not_found', `no connection attempt ${ctx.params.id}`);
    const challenge = row.challenge_id ? await getChallenge(db, accountId, row.challenge_id) : undefined;
    const authorization =
      challenge?.status === AUTHORIZING
        ? openAuthorization(await secretBox(ctx.services), challenge.flow_enc)
        : undefined;
    return attemptView(row, challenge, ctx.services.clock.now(), authorization?.url);
  },

  submitXAccountConnectionChallenge: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const { db } = ctx.services.database;
    const now = ctx.services.clock.now();
    const challenge = await getChallenge(db, accountId, ctx.params.id);
    if (challenge.status !== OPEN) throw inactive(challenge.id, challenge.status);
    if (now > num(challenge.expires_at)) {
      await moveChallenge(db, challenge.id, 'expired', now);
      throw new HttpError(
        'connection_challenge_expired',
        `challenge ${challenge.id} expired at ${challengeView(challenge).expiresAt}; start a new connection`,
      );
    }
    const reauth = challenge.x_account_id
      ? await findConnection(db, accountId, challenge.x_account_id).catch(() => undefined)
      : undefined;
    if (challenge.x_account_id && !reauth) {
      await moveChallenge(db, challenge.id, 'replaced', now);
      throw inactive(challenge.id, 'replaced');
    }
    const box = await secretBox(ctx.services);
    const outcome = await ctx.services.platform.submitLoginCode(
      box.open(challenge.flow_enc),
      ctx.body.email_code,
    );
    const login = {
      accountId,
      attemptId: challenge.attempt_id,
      failureKey: loginKey(accountId, challenge.username),
      reauth,
      unavailableCode: 'service_unavailable' as const,
    };
    if (outcome.kind === 'email_code') {
      // The platform wants another code: the same challenge stays open with the new login state.
      const reopen = { flowEnc: box.seal(outcome.flow), expiresAt: outcome.expiresAt };
      if (!(await moveChallenge(db, challenge.id, OPEN, now, reopen)))
        throw inactive(challenge.id, 'completed');
      return new Answer(202, challengeView({ ...challenge, expires_at: outcome.expiresAt }));
    }
    const next = outcome.kind === 'session' ? 'completed' : 'failed';
    if (!(await moveChallenge(db, challenge.id, next, now))) throw inactive(challenge.id, 'completed');
    return answerLogin(ctx, login, outcome);
  },

  getXAccount: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const { db } = ctx.services.database;
    const row = await findConnection(db, accountId, ctx.params.id);
    return toXAccount(await currentHealth(db, row, ctx.services.clock.now()));
  },

  disconnectXAccount: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const { db } = ctx.services.database;
    const row = await findConnection(db, accountId, ctx.params.id);
    await deleteConnection(db, row.id);
    await replaceChallengesOf(db, row.id, ctx.services.clock.now());
    if (row.session_enc) await endSession(ctx, row.session_enc);
    return { success: true };
  },

  reauthXAccount: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const { db } = ctx.services.database;
    const now = ctx.services.clock.now();
    const row = await findConnection(db, accountId, ctx.params.id);
    const failureKey = loginKey(accountId, row.x_username);
    await checkCooldown(db, failureKey, now);
    const attemptId = await startAttempt(db, accountId, 'reauth', row.x_username, now);
    const { password, email, totp_secret } = ctx.body;
    const state = newChallengeId();
    const outcome = await ctx.services.platform.login({
      user: row.x_user_id,
      password,
      email,
      totpSecret: totp_secret,
      authorizationState: state,
    });
    return answerLogin(ctx, { accountId, attemptId, failureKey, reauth: row, state }, outcome);
  },

  bulkRetryXAccounts: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    return {
      cleared: await clearTemporaryIssues(ctx.services.database.db, accountId, ctx.services.clock.now()),
    };
  },
});

/** 409 `connection_challenge_inactive`: completed, failed, expired or replaced challenges never reopen. */
function inactive(id: string, status: string): HttpError {
  return new HttpError(
    'connection_challenge_inactive',
    `challenge ${id} is ${status} and cannot be reopened; start a new connection or re-authentication`,
    { status },
  );
}
