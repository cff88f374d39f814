import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../core/services.js';

/** The cookie whose random value the sign-in form's token derives from (there is no session yet). */
export const PRE_SESSION_COOKIE = 'dashboard_csrf';

/**
 * The CSRF token of a secret: HMAC-SHA256 keyed by it. Signed in, the secret is the session token itself,
 * which only the HttpOnly cookie carries (the server keeps just its hash), so a token is bound to one session
 * and no other site can compute it; before signing in, it is the random {@link PRE_SESSION_COOKIE}.
 */
export function csrfToken(secret: string): string {
  return createHmac('sha256', secret).update('xsvc-dashboard-csrf/v1').digest('base64url');
}

/** A fresh value for {@link PRE_SESSION_COOKIE}. */
export function newPreSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The `Set-Cookie` of the pre-session secret: HttpOnly, SameSite=Strict, only for `/dashboard`. */
export function preSessionCookieHeader(value: string, secure: boolean): string {
  return `${PRE_SESSION_COOKIE}=${value}; Path=/dashboard; Max-Age=3600; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Reads one cookie from a request (undefined when absent). */
export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  for (const part of (Array.isArray(header) ? header.join(';') : (header ?? '')).split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/** Why a state-changing dashboard request was refused. */
export type CsrfRefusal = 'cross-site' | 'token';

/**
 * The origins this server answers on: the configured public URL and the one the request was addressed to
 * (the Host header over the request's protocol), so a server reached as `127.0.0.1:port` works too.
 */
function ownOrigins(request: FastifyRequest, services: Services): Set<string> {
  const origins = new Set([new URL(services.publicUrl()).origin]);
  if (request.host) origins.add(`${request.protocol}://${request.host}`);
  return origins;
}

/**
 * Checks a state-changing dashboard request: it must come from this origin (`Sec-Fetch-Site` same-origin
 * when the browser sends it; `Origin` one of this server's when present) and carry the form token of
 * `secret` in its `csrf` field. Both checks hold on their own: old browsers send no fetch metadata, and
 * the token alone stops a forged form. Undefined when the request passes.
 */
export function csrfRefusal(
  request: FastifyRequest,
  services: Services,
  secret: string | undefined,
): CsrfRefusal | undefined {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return 'cross-site';
  const origin = request.headers.origin;
  if (origin !== undefined && !ownOrigins(request, services).has(origin)) return 'cross-site';
  const sent = (request.body as { csrf?: unknown } | undefined)?.csrf;
  if (!secret || typeof sent !== 'string') return 'token';
  const expected = Buffer.from(csrfToken(secret));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : 'token';
}
