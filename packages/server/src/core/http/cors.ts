import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { AnyOperation } from '@xsvc/sdk/contract';
import type { FastifyInstance } from 'fastify';

/**
 * The request headers a cross-origin page may send to the API: the credentials (`x-api-key`, the older
 * `svc-api-key`, `authorization`), `idempotency-key`, the opt-in contract's `svc-api-contract`,
 * `content-type` (a JSON body is not a "simple" request) and `x-xsvc-client`, which the SDK sends on every
 * call.
 */
export const CORS_ALLOWED_HEADERS = [
  'x-api-key',
  'svc-api-key',
  'authorization',
  'idempotency-key',
  'svc-api-contract',
  'content-type',
  'x-xsvc-client',
] as const;

/**
 * The answer headers a cross-origin page may read: what the SDK reads (`retry-after`, `x-request-id`, the
 * deprecation headers), the rate-limit count, a payment's receipt and challenge, and a download's name.
 */
export const CORS_EXPOSED_HEADERS = [
  'retry-after',
  'x-request-id',
  'x-ratelimit-remaining',
  'deprecation',
  'sunset',
  'link',
  'payment-receipt',
  'www-authenticate',
  'content-disposition',
] as const;

/** How long a browser may keep a preflight's answer (seconds): fewer preflights, each counted as a read. */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * Operations whose routes never answer cross-origin pages: the OAuth consent page is a browser page of this
 * server, read with its session cookie (like the dashboard and the sign-in routes, which are not operations
 * and never get CORS headers either).
 */
const BROWSER_PAGES: ReadonlySet<string> = new Set(['oauthAuthorize']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `@fastify/cors`'s per-route options: set on the API routes opened to the configured origins. */
    cors?: FastifyCorsOptions | false;
  }
}

/**
 * CORS (off unless `XSVC_CORS_ORIGINS` names origins): `@fastify/cors`, whose hook answers nothing by
 * itself here (`origin: false` for every route) except on the routes that {@link corsRouteConfig} opens.
 * Preflights go on to the OPTIONS routes (`preflightContinue`), which count them in the read tier and
 * answer `Allow`. Cookies never cross origins: `Access-Control-Allow-Credentials` is never sent, so a
 * browser neither sends the session cookie with a CORS request nor shows the page an answer it sent one
 * with. Register before the hooks whose answers a page should be able to read.
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  await app.register(fastifyCors, {
    origin: false,
    credentials: false,
    preflightContinue: true,
    // A plain OPTIONS (no Origin, no Access-Control-Request-Method) is an ordinary request: 204 with Allow.
    strictPreflight: false,
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    exposedHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: PREFLIGHT_MAX_AGE_S,
  });
}

/**
 * The per-route CORS options of an API route with `methods`: open to exactly `origins` (no wildcard), or
 * nothing when CORS is off or the route is a browser page of this server.
 */
export function corsRouteConfig(
  origins: readonly string[],
  ops: readonly AnyOperation[],
): { cors: FastifyCorsOptions } | undefined {
  if (origins.length === 0 || ops.some((op) => BROWSER_PAGES.has(op.id))) return undefined;
  return { cors: { origin: [...origins], methods: allowedMethods(ops) } };
}

/** The methods a path answers, in the `Allow` header's form: HEAD with GET, and OPTIONS always. */
export function allowedMethods(ops: readonly AnyOperation[]): string {
  const methods = new Set<string>(ops.map((op) => op.method));
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  return order.filter((m) => methods.has(m)).join(', ');
}
