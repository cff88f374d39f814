import { createHash } from 'node:crypto';
import { schemas } from '@xsvc/sdk/contract';
import type { FastifyRequest } from 'fastify';
import {
  type AuthorizationParams,
  createRequest,
  findClient,
  findToken,
  issueTokens,
  MCP_SCOPE,
  type OAuthClient,
  redeemCode,
  registerClient,
  revokeToken,
  rotateRefreshToken,
  secretMatches,
} from '../../core/auth/oauth-store.js';
import { sessionOf } from '../../core/auth/request-principal.js';
import { consentPage, errorPage, pageHeaders, signInPage } from '../../core/http/auth-pages.js';
import type { HttpError } from '../../core/http/errors.js';
import { Answer, defineHandlers, type HandlerContext } from '../../core/http/handler.js';
import { describeIssue } from '../../core/http/register.js';
import type { Services } from '../../core/services.js';
import { systemResolver } from '../../core/ssrf/target.js';
import { ClientMetadataError, fetchClientMetadata, isMetadataClientId } from './client-metadata.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The protected resource every token is for: this server's `/mcp`. */
export function mcpResource(services: Services): string {
  return `${services.publicUrl()}/mcp`;
}

/** An OAuth error answer of the token and revocation endpoints (RFC 6749 5.2), never cached. */
export function oauthError(error: string, description: string, status = 400): Answer {
  return new Answer(
    status,
    { error, error_description: description },
    { 'cache-control': 'no-store', pragma: 'no-cache' },
  );
}

/**
 * The OAuth-shaped body for a request the contract refused before its handler ran (a form that misses a
 * field, an unknown `grant_type`, registration metadata it refuses): token, revocation and registration
 * clients read `error`/`error_description` (RFC 6749 5.2, RFC 7591 3.2.2), not the API's error body.
 * Undefined for any other route.
 */
export function oauthRejection(
  request: FastifyRequest,
  err: HttpError,
): { status: number; body: Record<string, string> } | undefined {
  const path = request.url.split('?')[0];
  if (err.status !== 400 && err.status !== 415) return undefined;
  if (path === '/api/oauth/register') {
    // RFC 7591 3.2.2: a bad redirect URI has its own code; anything else in the metadata is the other one.
    const uris = (request.body as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    const badUris = !schemas.ClientRegistrationRequestSchema.shape.redirect_uris.safeParse(uris).success;
    return {
      status: 400,
      body: {
        error: badUris ? 'invalid_redirect_uri' : 'invalid_client_metadata',
        error_description: err.message,
      },
    };
  }
  if (path !== '/api/oauth/token' && path !== '/api/oauth/revoke') return undefined;
  const grant = (request.body as { grant_type?: unknown } | undefined)?.grant_type;
  const unsupported =
    path === '/api/oauth/token' &&
    typeof grant === 'string' &&
    grant !== 'authorization_code' &&
    grant !== 'refresh_token';
  return {
    status: 400,
    body: {
      error: unsupported ? 'unsupported_grant_type' : 'invalid_request',
      error_description: unsupported
        ? `grant_type ${grant} is not supported: use authorization_code or refresh_token`
        : err.message,
    },
  };
}

/** The client of an authorization request: registered (UUID) or described by its metadata document URL. */
async function clientFor(services: Services, clientId: string): Promise<OAuthClient | string> {
  if (isMetadataClientId(clientId)) {
    try {
      return await fetchClientMetadata(clientId, {
        allowLoopback: services.config.allowLoopbackWebhooks,
        resolver: systemResolver,
      });
    } catch (err) {
      if (err instanceof ClientMetadataError) return err.message;
      throw err;
    }
  }
  if (!UUID.test(clientId))
    return 'client_id must be a registered client id (a UUID) or a metadata document URL';
  return (await findClient(services.database.db, clientId)) ?? `no client ${clientId} is registered here`;
}

/** `redirect_uri` with the OAuth answer parameters, and `iss` (RFC 9207). */
export function redirectWith(
  redirectUri: string,
  issuer: string,
  params: Record<string, string | undefined>,
): Answer {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  url.searchParams.set('iss', issuer);
  return new Answer(302, undefined, { location: url.toString(), 'cache-control': 'no-store' });
}

/** The authorization error code (RFC 6749 4.1.2.1) for the first refused parameter of a request. */
function authorizeErrorCode(param: PropertyKey | undefined): string {
  if (param === 'response_type') return 'unsupported_response_type';
  if (param === 'scope') return 'invalid_scope';
  return 'invalid_request';
}

/**
 * The answer to an authorization request the contract would refuse (`response_type=token`, no
 * `code_challenge`, `code_challenge_method=plain`, an unknown scope) once its client and redirect URI are
 * known good: a redirect to the client with `error`, `state` and `iss` (RFC 6749 4.1.2.1, RFC 9207), so the
 * client learns why. Undefined when the request is valid, or when its client or redirect URI is not (then
 * nothing may be sent to that URI: the contract's 400 answers the browser).
 */
export async function authorizeErrorRedirect(
  services: Services,
  query: unknown,
): Promise<Answer | undefined> {
  const parsed = schemas.OAuthAuthorizeQuerySchema.safeParse(query ?? {});
  if (parsed.success) return undefined;
  const q = (query ?? {}) as Record<string, unknown>;
  if (typeof q.client_id !== 'string' || typeof q.redirect_uri !== 'string') return undefined;
  const client = await clientFor(services, q.client_id);
  if (typeof client === 'string' || !client.redirectUris.includes(q.redirect_uri)) return undefined;
  return redirectWith(q.redirect_uri, services.publicUrl(), {
    error: authorizeErrorCode(parsed.error.issues[0]?.path[0]),
    error_description: describeIssue('query', parsed.error),
    state: typeof q.state === 'string' ? q.state : undefined,
  });
}

/** base64url(SHA-256(verifier)): the S256 code challenge (RFC 7636). */
function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** A confidential client must authenticate with its secret; a public one must not be a confidential one. */
async function clientAuthFails(
  ctx: HandlerContext,
  clientId: string,
  secret: string | undefined,
): Promise<Answer | undefined> {
  if (isMetadataClientId(clientId)) return undefined;
  const client = UUID.test(clientId) ? await findClient(ctx.services.database.db, clientId) : undefined;
  if (!client) return oauthError('invalid_client', `no client ${clientId} is registered here`, 401);
  if (client.authMethod === 'client_secret_post' && !secretMatches(client, secret))
    return oauthError(
      'invalid_client',
      'this client authenticates with client_secret (client_secret_post)',
      401,
    );
  return undefined;
}

/**
 * OAuth 2.1 for the MCP endpoint (spec 5.3): dynamic client registration, the authorization endpoint (sign
 * in with a magic link, then consent; PKCE S256 required; codes valid 60 seconds, once), the token endpoint
 * (code exchange; refresh tokens rotate, and a reused one revokes its family) and revocation (RFC 7009).
 * Access tokens (`xat_…`, one hour) then work as `Authorization: Bearer` on `/mcp` and the REST API.
 */
export const oauthHandlers = defineHandlers({
  oauthRegister: async (ctx) => {
    const b = ctx.body;
    const { client, secret } = await registerClient(
      ctx.services.database.db,
      { name: b.client_name, redirectUris: b.redirect_uris, authMethod: b.token_endpoint_auth_method },
      ctx.services.clock.now(),
    );
    return {
      client_id: client.id,
      client_name: client.name,
      redirect_uris: [...client.redirectUris],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: client.authMethod,
      client_id_issued_at: Math.floor(ctx.services.clock.now() / 1000),
      // RFC 7591 3.2.1: required with every secret; strict clients (oauth4webapi) refuse the answer without it.
      ...(secret && { client_secret: secret, client_secret_expires_at: 0 }),
    };
  },

  oauthAuthorize: async (ctx) => {
    const q = ctx.query;
    const { services } = ctx;
    const client = await clientFor(services, q.client_id);
    if (typeof client === 'string')
      return new Answer(400, errorPage('Unknown client', client), pageHeaders());
    if (!client.redirectUris.includes(q.redirect_uri)) {
      return new Answer(
        400,
        errorPage(
          'Unregistered redirect URI',
          `${q.redirect_uri} is not one of the redirect URIs of ${client.name}; they are matched exactly`,
        ),
        pageHeaders(),
      );
    }
    // From here on, errors go back to the client at its redirect URI.
    const issuer = services.publicUrl();
    const resource = q.resource ?? mcpResource(services);
    if (resource !== mcpResource(services)) {
      return redirectWith(q.redirect_uri, issuer, {
        error: 'invalid_target',
        error_description: `resource must be ${mcpResource(services)}`,
        state: q.state,
      });
    }
    const principal = await sessionOf(services, ctx.request);
    if (!principal) {
      // Sign in first; the sign-in link brings the browser back to this very request.
      return new Answer(200, signInPage(client.name, ctx.request.url), pageHeaders());
    }
    const params: AuthorizationParams = {
      clientId: client.id,
      clientName: client.name,
      redirectUri: q.redirect_uri,
      codeChallenge: q.code_challenge,
      resource,
      scope: q.scope ?? MCP_SCOPE,
      state: q.state,
    };
    const db = services.database.db;
    const requestId = await createRequest(db, principal.accountId, params, services.clock.now());
    const account = await db
      .selectFrom('accounts')
      .select('email')
      .where('id', '=', principal.accountId)
      .executeTakeFirstOrThrow();
    const html = consentPage({
      clientName: client.name,
      clientId: client.id,
      redirectUri: q.redirect_uri,
      email: account.email,
      requestId,
      scope: params.scope,
    });
    return new Answer(200, html, pageHeaders([new URL(q.redirect_uri).origin]));
  },

  oauthToken: async (ctx) => {
    const b = ctx.body;
    const db = ctx.services.database.db;
    const now = ctx.services.clock.now();
    const denied = await clientAuthFails(ctx, b.client_id, b.client_secret);
    if (denied) return denied;
    if (b.resource !== undefined && b.resource !== mcpResource(ctx.services))
      return oauthError('invalid_target', `resource must be ${mcpResource(ctx.services)}`);

    if (b.grant_type === 'authorization_code') {
      const grant = await redeemCode(db, b.code, now);
      if (grant === 'unknown') return oauthError('invalid_grant', 'the authorization code is not valid');
      if (grant === 'replayed')
        return oauthError(
          'invalid_grant',
          'the authorization code was already used; the tokens issued for it are revoked',
        );
      if (grant.expiresAt <= now)
        return oauthError('invalid_grant', 'the authorization code expired (codes are valid 60 seconds)');
      if (grant.clientId !== b.client_id)
        return oauthError('invalid_grant', 'the authorization code was issued to another client');
      if (grant.redirectUri !== b.redirect_uri)
        return oauthError('invalid_grant', 'redirect_uri differs from the one of the authorization request');
      if (s256(b.code_verifier) !== grant.codeChallenge)
        return oauthError('invalid_grant', 'code_verifier does not match the code_challenge (PKCE S256)');
      return tokenAnswer(await issueTokens(db, grant, now));
    }

    const known = await findToken(db, b.refresh_token);
    if (known?.kind !== 'refresh') return oauthError('invalid_grant', 'the refresh token is not valid');
    if (known.clientId !== b.client_id)
      return oauthError('invalid_grant', 'the refresh token was issued to another client');
    const rotated = await rotateRefreshToken(db, b.refresh_token, now);
    if (rotated === 'unknown') return oauthError('invalid_grant', 'the refresh token is not valid');
    if (rotated === 'replayed')
      return oauthError(
        'invalid_grant',
        'the refresh token was already used or revoked; every token of this grant is revoked now',
      );
    if (rotated === 'expired')
      return oauthError('invalid_grant', 'the refresh token expired; authorize again');
    return tokenAnswer(await issueTokens(db, rotated, now));
  },

  oauthRevoke: async (ctx) => {
    await revokeToken(ctx.services.database.db, ctx.body.token, ctx.services.clock.now());
    return new Answer(200, undefined, { 'cache-control': 'no-store' });
  },
});

function tokenAnswer(pair: Awaited<ReturnType<typeof issueTokens>>): Answer {
  return new Answer(
    200,
    {
      access_token: pair.accessToken,
      token_type: 'Bearer',
      expires_in: pair.expiresInSeconds,
      refresh_token: pair.refreshToken,
      scope: pair.scope,
    },
    { 'cache-control': 'no-store', pragma: 'no-cache' },
  );
}
