import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { findConnection } from '../../core/accounts/x-accounts.js';
import { secretBox } from '../../core/crypto/secret-box.js';
import { num } from '../../core/db/database.js';
import { HttpError } from '../../core/http/errors.js';
import { dashboardHeaders, escapeHtml, renderPage } from '../../core/http/layout.js';
import type { Services } from '../../core/services.js';
import { settleAttempt } from './attempts.js';
import { openAuthorization } from './authorization.js';
import { AUTHORIZING, authorizationByState, moveChallenge } from './challenges.js';
import { loginKey } from './cooldown.js';
import { answerLogin } from './login-flow.js';

/** Where X sends the account's owner back after the consent page (register it on the X app). */
export const X_OAUTH_CALLBACK_PATH = '/api/v1/x/oauth/callback';

const CallbackQuery = z.object({
  state: z.string().max(200).optional(),
  code: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
});

/**
 * `GET /api/v1/x/oauth/callback` (xapi platform): the redirect of X's OAuth 2.0 consent. The `state` names
 * the authorization (a challenge row waiting in `requires_authorization`, unguessable, usable once and for
 * ten minutes); its code is traded for the account's tokens, which are sealed on the connection, and the
 * attempt becomes `connected` (or `failed`: refused, expired, or approved by another account than the one
 * asked for). The browser gets a page saying so; the API client learns it by polling the attempt.
 */
export function registerXOAuthCallback(app: FastifyInstance, services: Services): void {
  app.get(X_OAUTH_CALLBACK_PATH, async (request, reply) => {
    const q = CallbackQuery.safeParse(request.query);
    const { db } = services.database;
    const now = services.clock.now();
    const state = q.success ? q.data.state : undefined;
    const row = state ? await authorizationByState(db, state) : undefined;
    if (!q.success || !row) {
      return page(
        reply,
        400,
        'Connection not found',
        'This authorization is unknown, used or over. Start a new connection.',
      );
    }
    const fail = async (status: string, error: string, reason: string) => {
      await moveChallenge(db, row.id, status, now, undefined, AUTHORIZING);
      await settleAttempt(db, row.attempt_id, { status: 'failed', error, reason, retryable: true }, now);
    };
    if (now > num(row.expires_at)) {
      await fail('expired', 'connection_challenge_expired', 'the X authorization was not approved in time');
      return page(
        reply,
        410,
        'Authorization expired',
        'It was not approved within ten minutes. Start a new connection.',
      );
    }
    if (q.data.error || !q.data.code) {
      const why =
        q.data.error === 'access_denied'
          ? 'the owner declined on X'
          : `X answered ${q.data.error ?? 'no code'}`;
      await fail('failed', 'login_failed', why);
      return page(reply, 400, 'Not connected', `The account was not connected: ${why}.`);
    }
    // Used once: a second visit of the same callback URL finds nothing.
    if (!(await moveChallenge(db, row.id, 'completed', now, undefined, AUTHORIZING))) {
      return page(
        reply,
        409,
        'Already used',
        'This authorization was already used. Check your connected accounts.',
      );
    }
    const box = await secretBox(services);
    const sealed = openAuthorization(box, row.flow_enc);
    if (!sealed) {
      await settleAttempt(
        db,
        row.attempt_id,
        { status: 'failed', error: 'login_failed', retryable: true },
        now,
      );
      return page(
        reply,
        400,
        'Not connected',
        'The authorization could not be read (the server key changed). Start again.',
      );
    }
    const reauth = row.x_account_id
      ? await findConnection(db, row.account_id, row.x_account_id).catch(() => undefined)
      : undefined;
    try {
      const outcome = await services.platform.submitLoginCode(sealed.flow, q.data.code);
      const login = {
        accountId: row.account_id,
        attemptId: row.attempt_id,
        failureKey: loginKey(row.account_id, row.username),
        reauth,
      };
      await answerLogin({ services }, login, outcome);
    } catch (err) {
      if (!(err instanceof HttpError)) {
        await settleAttempt(
          db,
          row.attempt_id,
          {
            status: 'failed',
            error: 'x_login_service_unavailable',
            reason: 'X could not be reached',
            retryable: true,
          },
          now,
        );
        request.log.warn({ err }, 'X authorization callback failed');
        return page(
          reply,
          502,
          'Not connected',
          'X could not be reached to finish the connection. Start again.',
        );
      }
      return page(reply, err.status, 'Not connected', err.message);
    }
    return page(
      reply,
      200,
      'Account connected',
      `@${row.username} is connected. You can close this window, or open your connected accounts.`,
      true,
    );
  });
}

function page(reply: FastifyReply, status: number, title: string, message: string, ok = false): FastifyReply {
  const link = ok ? '<p><a href="/dashboard/accounts">Connected accounts</a></p>' : '';
  return reply
    .status(status)
    .headers(dashboardHeaders())
    .send(renderPage({ title, main: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${link}` }));
}
