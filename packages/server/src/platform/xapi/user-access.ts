import type {
  LoginCredentials,
  LoginOutcome,
  SessionRenewal,
  WriteActor,
  WriteCommand,
  WriteOutcome,
} from '../../core/platform/account-writes.js';
import { PlatformUnavailableError } from '../../core/platform/platform.js';
import {
  AUTHORIZATION_TTL_MS,
  decodeSession,
  encodeSession,
  RENEW_MARGIN_MS,
  XOAuth,
  type XOAuthOptions,
  XTokenRefusedError,
  type XUserTokens,
} from './oauth.js';
import { readFailure, type SendFetch, userCallFailure, userClient } from './user-client.js';
import { type XMediaOptions, xWrite } from './writes.js';

/** What the user-context side of the xapi platform needs: the app's OAuth client and the API's origin. */
export interface XUserAccessOptions extends Omit<XOAuthOptions, 'fetch'> {
  fetch?: SendFetch | undefined;
  now?: (() => number) | undefined;
  /** How media URLs are downloaded and X's media processing waited for (see `XMediaOptions`). */
  media?: XMediaOptions | undefined;
}

/**
 * Connected accounts on X: logging in is X's OAuth 2.0 authorization code flow with PKCE (the account's
 * owner approves in a browser), the session is the account's tokens (sealed by the caller), renewed with
 * the refresh token before the access token expires, revoked when the account is disconnected; writes are
 * made with the account's access token.
 */
export class XUserAccess {
  readonly #oauth: XOAuth;
  readonly #opts: XUserAccessOptions;
  readonly #now: () => number;

  constructor(opts: XUserAccessOptions) {
    this.#opts = opts;
    this.#now = opts.now ?? Date.now;
    this.#oauth = new XOAuth({ ...opts, fetch: opts.fetch });
  }

  /**
   * Starts a connection: an authorization URL bound to `authorizationState` (which the caller must give: it
   * is how its callback finds the login again), for the account `credentials.user`. The password, e-mail
   * and authenticator secret are not used: X's consent page authenticates the owner.
   */
  async login(credentials: LoginCredentials): Promise<LoginOutcome> {
    if (!credentials.authorizationState) {
      return { kind: 'unavailable', message: 'an X authorization needs a state to return to' };
    }
    const expect = credentials.user.replace(/^@/, '');
    const { url, flow } = await this.#oauth.authorize(expect, credentials.authorizationState);
    return { kind: 'authorize', url, flow, username: expect, expiresAt: this.#now() + AUTHORIZATION_TTL_MS };
  }

  /**
   * Completes an authorization with the `code` X's callback brought: the tokens, and the account they act
   * as (`GET /2/users/me`). A code X refuses, or an approval given by another account than the one asked
   * for, is `rejected` (`login_failed`).
   */
  async completeLogin(flow: string, code: string): Promise<LoginOutcome> {
    const now = this.#now();
    let tokens: XUserTokens;
    try {
      tokens = await this.#oauth.exchange(flow, code, now);
    } catch (err) {
      if (err instanceof XTokenRefusedError)
        return { kind: 'rejected', code: 'login_failed', message: err.message };
      throw err;
    }
    let me: { id: string; username: string };
    try {
      const res = await this.#client(tokens.accessToken).users.getMe();
      const { id, username } = res.data ?? {};
      if (!id || !username)
        throw new PlatformUnavailableError('x_api_unavailable', 'X named no account for the token');
      me = { id, username };
    } catch (err) {
      if (err instanceof PlatformUnavailableError) throw err;
      throw readFailure(userCallFailure(err), 'GET /2/users/me', now);
    }
    const expect = this.#oauth.expected(flow)?.toLowerCase();
    if (expect && expect !== me.username.toLowerCase() && expect !== me.id) {
      await this.logout(encodeSession(tokens));
      return {
        kind: 'rejected',
        code: 'login_failed',
        message: `X authorized @${me.username}, not ${/^\d+$/.test(expect) ? `the account ${expect}` : `@${expect}`}; approve with the account being connected`,
      };
    }
    return { kind: 'session', userId: me.id, username: me.username, session: encodeSession(tokens) };
  }

  /** Revokes the session's tokens on X (the refresh token first: it would mint new access tokens). */
  async logout(session: string): Promise<void> {
    const t = decodeSession(session);
    if (!t) return;
    if (t.refreshToken) await this.#oauth.revoke(t.refreshToken, 'refresh_token').catch(() => undefined);
    await this.#oauth.revoke(t.accessToken, 'access_token').catch(() => undefined);
  }

  /**
   * A session whose access token expires within {@link RENEW_MARGIN_MS} of `now` is renewed with its
   * refresh token; X refusing the refresh (revoked, expired, already used) means a new approval.
   */
  async renewSession(session: string, now: number): Promise<SessionRenewal> {
    const t = decodeSession(session);
    if (!t) return { kind: 'refused', message: 'the stored session is not an X authorization' };
    if (t.expiresAt - now > RENEW_MARGIN_MS) return { kind: 'current' };
    if (!t.refreshToken) {
      return t.expiresAt > now
        ? { kind: 'current' }
        : {
            kind: 'refused',
            message: 'the X authorization expired and has no refresh token (offline.access)',
          };
    }
    try {
      const next = await this.#oauth.refresh(t.refreshToken, now);
      return {
        kind: 'renewed',
        session: encodeSession({ ...next, refreshToken: next.refreshToken ?? t.refreshToken }),
      };
    } catch (err) {
      if (err instanceof XTokenRefusedError) return { kind: 'refused', message: err.message };
      throw err;
    }
  }

  /** Performs a write as `actor` (see `xWrite`); a session that is not an X authorization is `x_auth_failure`. */
  async write(actor: WriteActor, command: WriteCommand): Promise<WriteOutcome> {
    const t = decodeSession(actor.session);
    if (!t)
      return { ok: false, code: 'x_auth_failure', message: 'the stored session is not an X authorization' };
    return xWrite(
      { client: this.#client(t.accessToken), actor, now: this.#now, media: this.#opts.media },
      command,
    );
  }

  /** The access token and granted scopes of a session, or undefined when it is not an X authorization. */
  grant(session: string): { accessToken: string; scope: readonly string[] } | undefined {
    const t = decodeSession(session);
    return t && { accessToken: t.accessToken, scope: t.scope };
  }

  /** The access token of a session (private reads), or undefined when it is not an X authorization. */
  accessToken(session: string): string | undefined {
    return decodeSession(session)?.accessToken;
  }

  #client(accessToken: string) {
    return userClient({
      accessToken,
      baseUrl: this.#opts.apiBaseUrl,
      timeoutMs: this.#opts.timeoutMs ?? 10_000,
      fetch: this.#opts.fetch,
    });
  }
}
