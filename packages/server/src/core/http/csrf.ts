import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** True when the request would be authenticated by the `session_token` cookie alone (no key, no bearer). */
function cookieAuthenticated(request: FastifyRequest): boolean {
  const h = request.headers;
  if (h['x-api-key'] !== undefined || h['svc-api-key'] !== undefined || h.authorization !== undefined)
    return false;
  return /(?:^|;)\s*session_token=/.test(first(h.cookie) ?? '');
}

/**
 * Refuses a cross-site request that a browser would authenticate with the session cookie (CSRF): a request
 * that may change state (any method but GET, HEAD, OPTIONS) carrying `session_token` and no other credential
 * must come from the server's own origin. Browsers say where a request comes from: `Sec-Fetch-Site`
 * (`same-origin`, or `none` for a user's own navigation) when they send it, else `Origin`, which must be the
 * server's public origin or the origin the request was sent to. A request with neither header does not come
 * from a browser page (a script or a command-line client holding the cookie) and is not a CSRF risk.
 * Requests with an API key or a bearer token are never authenticated by a cookie, so a browser cannot
 * forge them. Throws 403 `forbidden`.
 */
export function checkSameOrigin(
  request: FastifyRequest,
  serverOrigin: string | undefined | (() => string | undefined),
): void {
  if (SAFE_METHODS.has(request.method) || !cookieAuthenticated(request)) return;
  // Worked out only for the requests that need it (the caller may pass a function).
  const publicOrigin = typeof serverOrigin === 'function' ? serverOrigin() : serverOrigin;
  const site = first(request.headers['sec-fetch-site']);
  const origin = first(request.headers.origin);
  if (site !== undefined) {
    if (site === 'same-origin' || site === 'none') return;
  } else if (origin === undefined) {
    return;
  } else if (origin === publicOrigin || origin === `${request.protocol}://${request.host}`) {
    return;
  }
  throw new HttpError(
    'forbidden',
    `cross-origin request refused: a request authenticated by the session cookie must come from ${publicOrigin ?? 'this server'}'s own pages (send an API key from other origins)`,
  );
}
