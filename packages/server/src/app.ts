import { randomUUID } from 'node:crypto';
import { limits } from '@xsvc/sdk/contract';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import { JobsEngine, type JobsEngineOptions } from './core/jobs/index.js';
import { type Db, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { Credits } from './features/billing/credits.js';
import { RateLimiter, type TierLimits } from './features/rate-limit/rate-limiter.js';
import { registerBodyParsers } from './http/body-parsers.js';
import { checkSameOrigin } from './http/csrf.js';
import { errorHandler } from './http/error-handler.js';
import type { HandlerMap } from './http/handler.js';
import { registerOperations } from './http/register.js';
import type { Platform } from './platform/platform.js';
import type { Services } from './services.js';

/** Mounts plain routes and hooks that are not contract operations (control endpoints, sign-in, pages, docs). */
export type RouteRegistrar = (app: FastifyInstance, services: Services) => void | Promise<void>;

/** Dependencies a caller may inject (tests give a manual clock, a prepared database or another platform). */
export interface ServerDeps {
  clock?: Clock;
  database?: Db;
  platform?: (services: Omit<Services, 'platform'>) => Platform | Promise<Platform>;
  handlers?: HandlerMap[];
  /** Plain routes, mounted before the operations (so their `onRoute` hooks see the operations' routes). */
  routes?: RouteRegistrar[];
  /** Rate-limit tiers (default: the configured figures of spec 8.1). */
  rateLimits?: TierLimits;
  /** Counts an account's active monitors (the monitors feature provides it). */
  monitorsUsed?: (accountId: string) => Promise<number>;
  /** Check every answer against the contract (default: on under vitest). */
  validateResponses?: boolean;
  /** Where the log goes (default: standard output); tests read it to find a request's log lines. */
  logStream?: NodeJS.WritableStream;
  /** The jobs engine's settings (its lease owner id, the stop grace). */
  jobs?: Omit<JobsEngineOptions, 'log'>;
}

/** A built server: the Fastify app (not listening) and its services. */
export interface XsvcServer {
  readonly app: FastifyInstance;
  readonly services: Services;
  close(): Promise<void>;
}

/**
 * Builds the service (Fastify app, storage, platform) without listening; `xsvc-server` listens. Tests use
 * `app.inject()` on what this returns.
 */
export async function buildServer(config: Config, deps: ServerDeps = {}): Promise<XsvcServer> {
  const database = deps.database ?? (await openDatabase(config.databaseUrl));
  await migrateToLatest(database);
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: loggerOptions(config, deps.logStream),
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // Every request gets a fresh id: the `x-request-id` answer header, and `reqId` on its log lines.
    genReqId: () => randomUUID(),
    // Malformed percent-encoding and over-long path parameters fail before routing: same error shape.
    frameworkErrors: (error, request, reply) => errorHandler(error, request, reply),
  });
  registerBodyParsers(app);
  let listenUrl = `http://${config.host}:${config.port}`;
  const base: Omit<Services, 'platform'> = {
    config,
    database,
    clock,
    credits: new Credits(database),
    rateLimiter: new RateLimiter(database, deps.rateLimits ?? limits.rateLimits[config.rateLimits]),
    jobs: new JobsEngine(database, clock, { log: app.log, ...deps.jobs }),
    monitorsUsed: deps.monitorsUsed ?? (async () => 0),
    publicUrl: () => config.publicUrl?.replace(/\/+$/, '') ?? listenUrl,
  };
  if (!deps.platform) throw new Error('no platform: pass deps.platform');
  const platform = await deps.platform(base);
  const services: Services = { ...base, platform };
  // One jobs engine per server: features register their kinds and start them (on listen or ready, as their
  // `autoStart` options say); the server stops it, releasing what it holds, when it closes.
  app.addHook('onClose', async () => services.jobs.stop());
  app.setErrorHandler(errorHandler);
  const publicOrigin = config.publicUrl ? new URL(config.publicUrl).origin : undefined;
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // Spec 1.2: HTTPS only; plain HTTP is redirected with 301 when the public URL is https.
    if (publicOrigin?.startsWith('https://') && needsHttpsRedirect(request, config.trustProxy))
      return reply.redirect(`${publicOrigin}${request.url}`, 301);
    checkSameOrigin(request, publicOrigin ?? new URL(services.publicUrl()).origin);
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send({ error: 'not_found', message: `no route for ${request.method} ${request.url.split('?')[0]}` }),
  );
  for (const register of deps.routes ?? []) await register(app, services);
  const handlers: HandlerMap = Object.assign({}, ...(deps.handlers ?? []));
  registerOperations(app, handlers, services, {
    validateResponses: deps.validateResponses ?? Boolean(process.env.VITEST),
  });
  app.addHook('onListen', async () => {
    const addr = app.server.address();
    if (addr && typeof addr === 'object')
      listenUrl = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
  });
  return {
    app,
    services,
    close: async () => {
      await app.close();
      if (!deps.database) await database.close();
    },
  };
}

/** Fastify's logger options: off when silent, else at the configured level (to `stream` when given). */
function loggerOptions(config: Config, stream: NodeJS.WritableStream | undefined) {
  if (config.logLevel === 'silent') return false;
  return stream ? { level: config.logLevel, stream } : { level: config.logLevel };
}

/**
 * True when a request came in over plain HTTP and is not a local one. Behind a trusted proxy the scheme is
 * the proxy's `X-Forwarded-Proto` and the client its `X-Forwarded-For` (`request.ip`): a proxy on loopback
 * forwarding a plain-HTTP request from elsewhere is redirected. Only a direct request from loopback (local
 * development, health checks) stays reachable over HTTP.
 */
function needsHttpsRedirect(request: FastifyRequest, trustProxy: boolean): boolean {
  if (request.protocol === 'https') return false;
  const forwarded = trustProxy && request.headers['x-forwarded-proto'] !== undefined;
  return forwarded || !isLoopback(request.ip);
}

function isLoopback(address: string | undefined): boolean {
  return (
    address === '127.0.0.1' ||
    address === '::1' ||
    address === '::ffff:127.0.0.1' ||
    (address?.startsWith('127.') ?? false)
  );
}
