import type { Xsvc } from '@xsvc/sdk';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../../core/auth/authenticate.js';
import { sessionCookie } from '../../core/auth/authenticate.js';
import { SESSION_COOKIE } from '../../core/auth/cookie.js';
import { sessionOf } from '../../core/auth/request-principal.js';
import { injectFetch } from '../../core/http/inject-fetch.js';
import type { Services } from '../../core/services.js';
import { csrfToken } from './csrf.js';

/** A signed-in dashboard request: the session, its account, its form token and an API client acting as it. */
export interface DashboardSession {
  /** The `session_token` cookie's value (the CSRF secret; never rendered). */
  readonly token: string;
  readonly principal: Principal;
  readonly email: string;
  /** The token every form of this session carries. */
  readonly csrf: string;
  /** The typed SDK client calling this server's REST API in-process, as this session. */
  readonly api: Xsvc;
}

/**
 * A `fetch` for the SDK that sends every call through `app.inject` with this session's cookie as the only
 * credential (an `XSVC_API_KEY` in the server's environment is never picked up), and this server's origin,
 * as a same-origin browser request would carry.
 */
function sessionFetch(app: FastifyInstance, token: string, origin: string): typeof fetch {
  const inner = injectFetch(app);
  return (input, init) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    headers.delete('x-api-key');
    headers.delete('authorization');
    headers.set('cookie', `${SESSION_COOKIE}=${encodeURIComponent(token)}`);
    headers.set('origin', origin);
    // The dashboard's own page makes this call on the signed-in browser's behalf.
    headers.set('sec-fetch-site', 'same-origin');
    return inner(new Request(request, { headers }));
  };
}

/**
 * The dashboard session of a request, or undefined when the browser is not signed in (no cookie, an
 * unknown or expired session, or another kind of credential: the dashboard only knows sessions).
 */
export async function dashboardSession(
  app: FastifyInstance,
  services: Services,
  request: FastifyRequest,
): Promise<DashboardSession | undefined> {
  const header = request.headers.cookie;
  const token = sessionCookie(Array.isArray(header) ? header.join(';') : header);
  if (!token) return undefined;
  const principal = await sessionOf(services, request);
  if (principal?.mode !== 'session') return undefined;
  const account = await services.database.db
    .selectFrom('accounts')
    .select('email')
    .where('id', '=', principal.accountId)
    .executeTakeFirst();
  if (!account) return undefined;
  const { Xsvc } = await import('@xsvc/sdk');
  const origin = services.publicUrl();
  const api = new Xsvc({
    baseUrl: origin,
    fetch: sessionFetch(app, token, new URL(origin).origin),
    maxRetries: 0,
    logger: { warn: (message) => app.log.warn(message) },
  });
  return { token, principal, email: account.email, csrf: csrfToken(token), api };
}
