import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.js';
import type { Services } from '../services.js';
import { authenticate, type Principal } from './authenticate.js';

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The caller of a plain route (one that is not a contract operation), from the same credentials the
 * operations accept: `x-api-key`, `Authorization: Bearer svc_…` or the `session_token` cookie.
 */
export function requestPrincipal(
  request: FastifyRequest,
  services: Services,
): Promise<Principal | undefined> {
  return authenticate(
    services.database.db,
    {
      apiKey: header(request, 'x-api-key') ?? header(request, 'svc-api-key'),
      authorization: header(request, 'authorization'),
      cookie: header(request, 'cookie'),
    },
    services.clock.now(),
  );
}

/**
 * The caller when it is the server's owner, by an owner credential: the owner's API key or session. An OAuth
 * access token (a grant to an app, scoped to its tools) or a guest key never reaches the owner's routes, even
 * for the owner's account. 401 `unauthenticated` without credentials, 403 `forbidden` for anything else.
 */
export async function requireOwner(
  request: FastifyRequest,
  services: Services,
  what: string,
): Promise<Principal> {
  const principal = await requestPrincipal(request, services);
  if (!principal) throw new HttpError('unauthenticated', `${what} needs the owner's API key or session`);
  if (principal.mode !== 'apiKey' && principal.mode !== 'session')
    throw new HttpError(
      'forbidden',
      `${what} takes the owner's API key or session, not ${principal.mode} credentials`,
    );
  if (!principal.isOwner) throw new HttpError('forbidden', `${what} is reserved to the owner of this server`);
  return principal;
}

/** The account signed in with the `session_token` cookie of this browser, or undefined (none, or expired). */
export async function sessionOf(services: Services, request: FastifyRequest): Promise<Principal | undefined> {
  const cookie = request.headers.cookie;
  if (!cookie) return undefined;
  try {
    return await authenticate(services.database.db, { cookie }, services.clock.now());
  } catch {
    return undefined;
  }
}
