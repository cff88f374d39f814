import type { AnyOperation } from '@xsvc/sdk/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/authenticate.js';
import type { Services } from '../services.js';
import { allowedMethods, corsRouteConfig } from './cors.js';

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The account an OPTIONS request counts against: the caller's, when it sends credentials that are valid,
 * else its address. Never an error: a preflight carries no credentials (browsers strip them), and an
 * OPTIONS request needs none.
 */
async function counterOf(request: FastifyRequest, services: Services, now: number): Promise<string> {
  const h = request.headers;
  const principal = await authenticate(
    services.database.db,
    {
      apiKey: first(h['x-api-key']) ?? first(h['svc-api-key']),
      authorization: first(h.authorization),
      cookie: first(h.cookie),
    },
    now,
  ).catch(() => undefined);
  return principal && principal.mode !== 'payment' ? principal.accountId : `address:${request.ip}`;
}

/**
 * Answers OPTIONS on the path of `ops` (one API path, its operations): 204 with `Allow` listing the path's
 * methods, counted in the read tier (spec 8.1: GET, HEAD, OPTIONS), past which it is 429 like any read.
 * With CORS on, a preflight from an allowed origin also gets the `Access-Control-Allow-*` headers, which
 * `@fastify/cors`'s hook has set by the time this runs (see `cors.ts`).
 */
export function registerOptionsRoute(
  app: FastifyInstance,
  url: string,
  ops: readonly AnyOperation[],
  services: Services,
): void {
  const allow = allowedMethods(ops);
  const cors = corsRouteConfig(services.config.corsOrigins, ops);
  app.route({
    method: 'OPTIONS',
    url,
    config: { body: 'none', ...cors },
    handler: async (request, reply) => {
      const now = services.clock.now();
      const rl = await services.rateLimiter.hit(await counterOf(request, services, now), 'read', now);
      reply.header('x-ratelimit-remaining', String(rl.remaining));
      return reply.status(204).header('allow', allow).send();
    },
  });
}
