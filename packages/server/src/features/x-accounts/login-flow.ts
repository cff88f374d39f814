import {
  insertConnection,
  renewConnection,
  setHealth,
  toSanitizedXAccount,
  type XAccountRow,
} from '../../core/accounts/x-accounts.js';
import { secretBox } from '../../core/crypto/secret-box.js';
import { HttpError } from '../../core/http/errors.js';
import { Answer, type HandlerContext } from '../../core/http/handler.js';
import type { LoginOutcome } from '../../core/platform/account-writes.js';
import { attemptPath, authorizationView, settleAttempt } from './attempts.js';
import { sealAuthorization } from './authorization.js';
import { challengeView, openChallenge } from './challenges.js';
import { clearFailures, recordFailure } from './cooldown.js';

/** The login a platform outcome belongs to. */
export interface LoginContext {
  accountId: string;
  attemptId: string;
  /** The cooldown key of the username logged in to. */
  failureKey: string;
  /** The connection being re-authenticated; absent for a new connection. */
  reauth?: XAccountRow | undefined;
  /** The 503 code when the platform cannot log in (the challenge submission names it `service_unavailable`). */
  unavailableCode?: 'service_unavailable' | 'x_login_service_unavailable';
  /** The state handed to the platform for a browser authorization (it becomes the challenge's id). */
  state?: string | undefined;
}

/** What the login flow needs of a handler's context. */
export type LoginServices = Pick<HandlerContext, 'services'>;

/**
 * Turns a platform login outcome into the answer of connect, re-authenticate and challenge submission:
 *
 * - a session: the connection is created (or renewed), the attempt `connected`, 201 with the account;
 * - an e-mailed code: a challenge is opened, the attempt waits on it, 202 with the challenge;
 * - a browser authorization (X's OAuth 2.0): an authorization is opened under the login's state, the
 *   attempt waits on it, 202 with the pending attempt and its `authorizationUrl`;
 * - a rejection: counted toward the cooldown, the attempt `failed`, 422 (`login_failed`, `x_login_suspended`);
 * - no login possible on this platform: 503 `x_login_service_unavailable`.
 *
 * Answers carry `Location` naming the attempt. Sessions and login state are stored encrypted.
 */
export async function answerLogin(
  ctx: LoginServices,
  login: LoginContext,
  outcome: LoginOutcome,
): Promise<Answer> {
  const { db } = ctx.services.database;
  const now = ctx.services.clock.now();
  const headers = { location: attemptPath(login.attemptId) };
  switch (outcome.kind) {
    case 'session': {
      const box = await secretBox(ctx.services);
      const update = {
        userId: outcome.userId,
        username: outcome.username,
        sessionEnc: box.seal(outcome.session),
        now,
      };
      let row: XAccountRow;
      try {
        row = login.reauth
          ? await renewConnection(db, login.reauth, update)
          : await insertConnection(db, login.accountId, update);
      } catch (err) {
        await ctx.services.platform.logout(outcome.session);
        await settleAttempt(db, login.attemptId, failure(err), now);
        throw err;
      }
      if (login.reauth?.session_enc) await endSession(ctx, login.reauth.session_enc);
      await clearFailures(db, login.failureKey);
      await settleAttempt(db, login.attemptId, { status: 'connected', xAccountId: row.id }, now);
      return new Answer(201, toSanitizedXAccount(row), headers);
    }
    case 'email_code': {
      const box = await secretBox(ctx.services);
      const challenge = await openChallenge(db, {
        accountId: login.accountId,
        attemptId: login.attemptId,
        username: outcome.username,
        xAccountId: login.reauth?.id ?? null,
        flowEnc: box.seal(outcome.flow),
        expiresAt: outcome.expiresAt,
        now,
      });
      await settleAttempt(db, login.attemptId, { status: 'challenge', challengeId: challenge.id }, now);
      return new Answer(202, challengeView(challenge), headers);
    }
    case 'authorize': {
      if (!login.state) throw new Error('a browser authorization needs the state the login was given');
      const box = await secretBox(ctx.services);
      const authorization = await openChallenge(db, {
        accountId: login.accountId,
        attemptId: login.attemptId,
        username: outcome.username,
        xAccountId: login.reauth?.id ?? null,
        flowEnc: sealAuthorization(box, outcome.flow, outcome.url),
        expiresAt: outcome.expiresAt,
        now,
        authorization: { id: login.state },
      });
      await settleAttempt(db, login.attemptId, { status: 'challenge', challengeId: authorization.id }, now);
      return new Answer(202, authorizationView(login.attemptId, authorization, outcome.url), headers);
    }
    case 'rejected': {
      await recordFailure(db, login.failureKey, now);
      if (login.reauth && outcome.code === 'x_login_suspended')
        await setHealth(db, login.reauth.id, 'suspended', now);
      await settleAttempt(
        db,
        login.attemptId,
        { status: 'failed', error: outcome.code, retryable: false },
        now,
      );
      throw new HttpError(outcome.code, `${outcome.message}; start a new connection or re-authentication`, {
        attemptId: login.attemptId,
      });
    }
    case 'unavailable': {
      await settleAttempt(
        db,
        login.attemptId,
        { status: 'failed', error: 'x_login_service_unavailable', reason: outcome.message, retryable: false },
        now,
      );
      throw new HttpError(login.unavailableCode ?? 'x_login_service_unavailable', outcome.message);
    }
  }
}

/** Ends a stored session on the platform (best effort: it may be gone already). */
export async function endSession(ctx: LoginServices, sessionEnc: string): Promise<void> {
  try {
    const box = await secretBox(ctx.services);
    await ctx.services.platform.logout(box.open(sessionEnc));
  } catch {
    // A session that cannot be opened or ended is dead already.
  }
}

function failure(err: unknown) {
  const error = err instanceof HttpError ? err.code : 'internal_error';
  return { status: 'failed' as const, error, retryable: false };
}
