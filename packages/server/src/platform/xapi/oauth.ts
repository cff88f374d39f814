import { generateCodeChallenge, generateCodeVerifier, OAuth2 } from '@xdevplatform/xdk';
import { PlatformUnavailableError } from '../../core/platform/platform.js';
import type { SendFetch } from './user-client.js';

/**
 * The OAuth 2.0 scopes each feature of a connected account needs on X (authorization code with PKCE, user
 * context). `offline.access` gives the refresh token that keeps a connection alive past the access token's
 * two hours; without it every connection would need a new approval as often.
 */
export const X_SCOPES_BY_FEATURE = {
  identity: ['users.read', 'tweet.read'],
  'keep the connection (refresh token)': ['offline.access'],
  'post, reply, quote, delete, repost': ['tweet.write'],
  'like, unlike': ['like.write'],
  'liked posts, liking users': ['like.read'],
  'follow, unfollow': ['follows.write'],
  'media upload': ['media.write'],
  'direct messages (send, history)': ['dm.read', 'dm.write'],
  bookmarks: ['bookmark.read'],
} as const satisfies Record<string, readonly string[]>;

/** Every scope the server asks for when an account is connected (the union of {@link X_SCOPES_BY_FEATURE}). */
export const X_SCOPES: readonly string[] = [...new Set(Object.values(X_SCOPES_BY_FEATURE).flat())];

/** How long an authorization URL may be approved after it was made (X's own codes live 30 seconds). */
export const AUTHORIZATION_TTL_MS = 10 * 60_000;

/** A session is renewed when its access token has less than this left, so no call meets an expired one. */
export const RENEW_MARGIN_MS = 5 * 60_000;

/** The app's OAuth 2.0 client on X (the developer portal's "OAuth 2.0 Client ID and Client Secret"). */
export interface XOAuthOptions {
  clientId: string;
  /** Present for a confidential client (a web app): token calls then authenticate with HTTP Basic. */
  clientSecret?: string | undefined;
  /** The callback registered on the X app, `{public URL}/api/v1/x/oauth/callback`. */
  redirectUri: string;
  /** Where X's token and revocation endpoints are (`https://api.x.com`, or a stand-in in tests). */
  apiBaseUrl: string;
  fetch?: SendFetch | undefined;
  timeoutMs?: number | undefined;
}

/** The tokens of one connected account: what the sealed session of an xapi connection holds. */
export interface XUserTokens {
  accessToken: string;
  refreshToken?: string | undefined;
  /** When the access token expires (ms since the epoch). */
  expiresAt: number;
  /** The scopes X granted (the owner may have granted fewer than were asked). */
  scope: string[];
}

/** The state of an authorization between the URL and its callback (sealed by the caller). */
interface AuthorizationFlow {
  v: 1;
  verifier: string;
  /** The account the caller asked to connect: a username, or a user id for a re-authentication. */
  expect: string;
}

/** Serializes tokens into the opaque session string the features seal and hand back. */
export function encodeSession(t: XUserTokens): string {
  return JSON.stringify({ v: 1, ...t });
}

/** Reads a session string back; undefined when it is not one this platform made. */
export function decodeSession(session: string): XUserTokens | undefined {
  try {
    const o = JSON.parse(session) as Partial<XUserTokens> & { v?: number };
    if (o.v !== 1 || typeof o.accessToken !== 'string' || typeof o.expiresAt !== 'number') return undefined;
    return {
      accessToken: o.accessToken,
      ...(typeof o.refreshToken === 'string' && { refreshToken: o.refreshToken }),
      expiresAt: o.expiresAt,
      scope: Array.isArray(o.scope) ? o.scope.filter((s) => typeof s === 'string') : [],
    };
  } catch {
    return undefined;
  }
}

/** X refused a token request (a bad or used code, a revoked refresh token): only a new approval helps. */
export class XTokenRefusedError extends Error {
  override readonly name = 'XTokenRefusedError';
}

/**
 * X's OAuth 2.0 for connected accounts. The authorization URL and the PKCE pair come from
 * `@xdevplatform/xdk` (`OAuth2.getAuthorizationUrl`, `generateCodeVerifier`, `generateCodeChallenge`). The
 * token calls (code exchange, refresh, revocation) are made here: xdk's `exchangeCode` and `refreshToken`
 * post to a fixed `https://api.x.com` with the global `fetch` and no timeout, and throw an untyped error
 * carrying X's answer, and xdk has no revocation call.
 */
export class XOAuth {
  readonly #opts: XOAuthOptions;
  readonly #fetch: SendFetch;
  readonly #timeoutMs: number;

  constructor(opts: XOAuthOptions) {
    if (!opts.clientId) throw new TypeError('XOAuth needs a client id');
    this.#opts = { ...opts, apiBaseUrl: opts.apiBaseUrl.replace(/\/+$/, '') };
    this.#fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
  }

  /**
   * An authorization URL for the account `expect` (a username or a user id), bound to `state`; `flow` is
   * what {@link exchange} needs back (it holds the PKCE verifier: keep it sealed).
   */
  async authorize(expect: string, state: string): Promise<{ url: string; flow: string }> {
    const verifier = generateCodeVerifier(64);
    const oauth = new OAuth2({
      clientId: this.#opts.clientId,
      redirectUri: this.#opts.redirectUri,
      scope: [...X_SCOPES],
    });
    await oauth.setPkceParameters(verifier, await generateCodeChallenge(verifier));
    const url = await oauth.getAuthorizationUrl(state);
    const flow: AuthorizationFlow = { v: 1, verifier, expect };
    return { url, flow: JSON.stringify(flow) };
  }

  /** The account an authorization `flow` was made for. */
  expected(flow: string): string | undefined {
    return parseFlow(flow)?.expect;
  }

  /** Trades an approved authorization's `code` for the account's tokens. */
  async exchange(flow: string, code: string, now: number): Promise<XUserTokens> {
    const f = parseFlow(flow);
    if (!f) throw new XTokenRefusedError('the authorization state is not one this server made');
    return this.#token(
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: this.#opts.redirectUri,
        code_verifier: f.verifier,
      },
      now,
    );
  }

  /** New tokens for a refresh token (X rotates it: the old one stops working). */
  refresh(refreshToken: string, now: number): Promise<XUserTokens> {
    return this.#token({ grant_type: 'refresh_token', refresh_token: refreshToken }, now);
  }

  /** Revokes a token on X (a disconnected account); best effort, X answers 200 for an unknown token. */
  async revoke(token: string, kind: 'access_token' | 'refresh_token'): Promise<void> {
    const res = await this.#post('/2/oauth2/revoke', { token, token_type_hint: kind });
    // Read (a small JSON answer) rather than cancelled, so the connection is released either way.
    await res.text().catch(() => undefined);
  }

  async #token(form: Record<string, string>, now: number): Promise<XUserTokens> {
    const res = await this.#post('/2/oauth2/token', form);
    const text = await res.text().catch(() => '');
    if (res.status === 400 || res.status === 401) {
      // `invalid_grant` and friends: the code or refresh token is spent, expired or revoked.
      throw new XTokenRefusedError(`X refused the token request (${res.status}${oauthError(text)})`);
    }
    if (res.status === 429) {
      throw new PlatformUnavailableError('x_api_rate_limited', 'X rate-limited the token request');
    }
    if (!res.ok) {
      throw new PlatformUnavailableError(
        'x_api_unavailable',
        `X answered ${res.status} to the token request`,
      );
    }
    let body: { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown; scope?: unknown };
    try {
      body = JSON.parse(text);
    } catch {
      throw new PlatformUnavailableError('x_api_unavailable', 'X sent an unreadable token answer');
    }
    if (typeof body.access_token !== 'string' || !body.access_token) {
      throw new PlatformUnavailableError(
        'x_api_unavailable',
        'X sent a token answer without an access token',
      );
    }
    const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 7200;
    return {
      accessToken: body.access_token,
      ...(typeof body.refresh_token === 'string' && { refreshToken: body.refresh_token }),
      expiresAt: now + expiresIn * 1000,
      scope: typeof body.scope === 'string' ? body.scope.split(/\s+/).filter(Boolean) : [],
    };
  }

  async #post(path: string, form: Record<string, string>): Promise<Response> {
    const params = new URLSearchParams(form);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (this.#opts.clientSecret) {
      const basic = Buffer.from(`${this.#opts.clientId}:${this.#opts.clientSecret}`).toString('base64');
      headers.authorization = `Basic ${basic}`;
    } else params.set('client_id', this.#opts.clientId);
    try {
      return await this.#fetch(`${this.#opts.apiBaseUrl}${path}`, {
        method: 'POST',
        headers,
        body: params.toString(),
        signal: AbortSignal.timeout(this.#timeoutMs),
        redirect: 'error',
      });
    } catch {
      throw new PlatformUnavailableError(
        'x_api_unavailable',
        `X's OAuth endpoint ${path} could not be reached`,
      );
    }
  }
}

function parseFlow(flow: string): AuthorizationFlow | undefined {
  try {
    const f = JSON.parse(flow) as Partial<AuthorizationFlow>;
    return f.v === 1 && typeof f.verifier === 'string' && typeof f.expect === 'string'
      ? (f as AuthorizationFlow)
      : undefined;
  } catch {
    return undefined;
  }
}

/** `: error` from an OAuth error body (RFC 6749 5.2), never the rest of it (it could echo a token). */
function oauthError(text: string): string {
  try {
    const e = (JSON.parse(text) as { error?: unknown }).error;
    return typeof e === 'string' && /^[a-z_]{1,40}$/.test(e) ? `: ${e}` : '';
  } catch {
    return '';
  }
}
