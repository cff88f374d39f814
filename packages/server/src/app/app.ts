import { limits } from '@xsvc/sdk/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { Credits } from '../core/billing/credits.js';
import { type Clock, systemClock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { CORE_SEALED_COLUMNS } from '../core/crypto/core-sealed-columns.js';
import {
  completeKeyChange,
  describeKeySource,
  type KeySource,
  type LoadedKeys,
  loadSecretKeys,
} from '../core/crypto/key-source.js';
import { resealAtRest } from '../core/crypto/reseal.js';
import { DatabaseOpenError, type Db, openDatabase } from '../core/db/database.js';
import { databaseFault, describeFault } from '../core/db/faults.js';
import { migrateToLatest } from '../core/db/migrate.js';
import type { Feature } from '../core/feature.js';
import { registerBodyParsers } from '../core/http/body-parsers.js';
import { registerCors } from '../core/http/cors.js';
import { checkSameOrigin } from '../core/http/csrf.js';
import { createErrorHandler } from '../core/http/error-handler.js';
import type { HandlerMap } from '../core/http/handler.js';
import { registerOperations } from '../core/http/register.js';
import { uuid } from '../core/ids/index.js';
import { JobsEngine, type JobsEngineOptions } from '../core/jobs/index.js';
import { RateLimiter, type TierLimits } from '../core/limits/rate-limiter.js';
import type { Platform } from '../core/platform/platform.js';
import { defaultPorts, type Ports } from '../core/ports.js';
import type { Services } from '../core/services.js';
import { type LogFormat, loggerOptions, OneLinePerRequest } from './logging.js';

/** Dependencies a caller may inject (tests give a manual clock, a prepared database or another platform). */
export interface ServerDeps {
  clock?: Clock;
  database?: Db;
  platform?: (services: Omit<Services, 'platform'>) => Platform | Promise<Platform>;
  /**
   * The features to mount, in order: every feature's plain routes first (so their `onRoute` hooks see the
   * operations' routes), then every feature's operations.
   */
  features?: readonly Feature[];
  /** Rate-limit tiers (default: the configured figures of spec 8.1). */
  rateLimits?: TierLimits;
  /** Check every answer against the contract (default: the configuration's `validateResponses`). */
  validateResponses?: boolean;
  /** Where the log goes (default: standard output); tests read it to find a request's log lines. */
  logStream?: NodeJS.WritableStream;
  /**
   * JSON records, or readable lines with one line per request (default: `pretty` only when the configuration
   * says so; the bin resolves `auto` against its terminal).
   */
  logFormat?: LogFormat;
  /** The jobs engine's settings (its lease owner id, the stop grace). */
  jobs?: Omit<JobsEngineOptions, 'log'>;
}

/** A built server: the Fastify app (not listening) and its services. */
export interface XsvcServer {
  readonly app: FastifyInstance;
  readonly services: Services;
  /** Where the secret key came from (`xsvc-server` says so at start). */
  readonly secretKeySource: KeySource;
  close(): Promise<void>;
}

/**
 * Builds the service (Fastify app, storage, platform) without listening; `xsvc-server` listens. Tests use
 * `app.inject()` on what this returns.
 */
export async function buildServer(config: Config, deps: ServerDeps = {}): Promise<XsvcServer> {
  // The pool reports a connection it lost while idle here once the app's logger exists (see `watchPool`).
  let lost: ((err: Error) => void) | undefined;
  const database =
    deps.database ?? (await openDatabase(config.databaseUrl, { onConnectionLost: (err) => lost?.(err) }));
  try {
    await migrateToLatest(database);
  } catch (err) {
    const fault = databaseFault(err);
    if (!fault) throw err;
    if (!deps.database) await database.close().catch(() => undefined);
    throw new DatabaseOpenError(
      `cannot use the database ${redactUrl(config.databaseUrl)}: ${describeFault(fault)}`,
      { cause: err },
    );
  }
  const clock = deps.clock ?? systemClock;
  const features = deps.features ?? [];
  const names = new Set<string>();
  for (const f of features) {
    if (names.has(f.name)) throw new Error(`feature ${f.name} is mounted twice`);
    names.add(f.name);
  }
  const handleError = createErrorHandler(features.flatMap((f) => f.errorShapers ?? []));
  const logFormat = deps.logFormat ?? (config.logFormat === 'pretty' ? 'pretty' : 'json');
  const app = Fastify({
    logger: loggerOptions(config, logFormat, deps.logStream),
    ...(logFormat === 'pretty' && { logController: new OneLinePerRequest() }),
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // Every request gets a fresh id: the `x-request-id` answer header, and `reqId` on its log lines.
    genReqId: () => uuid(),
    // Malformed percent-encoding and over-long path parameters fail before routing: same error shape.
    frameworkErrors: (error, request, reply) => handleError(error, request, reply),
  });
  lost = (err) =>
    app.log.warn(
      {
        cause: describeFault(
          databaseFault(err) ?? { kind: 'connection', code: 'lost', message: err.message },
        ),
      },
      'database connection lost; the pool opens a new one',
    );
  registerBodyParsers(app);
  const secrets = await prepareSecrets(config, database, features, clock, app.log).catch(
    async (err: unknown) => {
      if (!deps.database) await database.close();
      throw err;
    },
  );
  let listenUrl = `http://${config.host}:${config.port}`;
  const ports: Ports = defaultPorts();
  const base: Omit<Services, 'platform'> = {
    config,
    database,
    clock,
    credits: new Credits(database, clock),
    rateLimiter: new RateLimiter(database, deps.rateLimits ?? limits.rateLimits[config.rateLimits]),
    jobs: new JobsEngine(database, clock, {
      log: app.log,
      ...(config.instanceId && { owner: config.instanceId }),
      ...deps.jobs,
    }),
    ports,
    secrets: secrets.keys,
    publicUrl: () => config.publicUrl?.replace(/\/+$/, '') ?? listenUrl,
  };
  if (!deps.platform) throw new Error('no platform: pass deps.platform');
  const platform = await deps.platform(base);
  const services: Services = { ...base, platform };
  // One jobs engine per server: features register their kinds and start them (on listen or ready, as their
  // `autoStart` options say); the server stops it, releasing what it holds, when it closes.
  app.addHook('onClose', async () => services.jobs.stop());
  if (platform.close) app.addHook('onClose', async () => platform.close?.());
  for (const f of features) if (f.ports) Object.assign(ports, f.ports(services));
  app.setErrorHandler(handleError);
  const publicOrigin = config.publicUrl ? new URL(config.publicUrl).origin : undefined;
  // The origin the server is reached at when no public URL is configured: its listen address, parsed once.
  let listenOrigin: { url: string; origin: string } | undefined;
  const serverOrigin = (): string => {
    if (publicOrigin) return publicOrigin;
    const url = services.publicUrl();
    if (listenOrigin?.url !== url) listenOrigin = { url, origin: new URL(url).origin };
    return listenOrigin.origin;
  };
  // CORS first (off unless XSVC_CORS_ORIGINS is set), so that every answer of an opened API route, a
  // redirect or a refusal of the hook below included, tells an allowed page it may read it.
  await registerCors(app, config.corsOrigins);
  // A callback hook (no promise per request): answers early for a redirect, else passes on a CSRF refusal.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // Spec 1.2: HTTPS only; plain HTTP is redirected with 301 when the public URL is https.
    if (publicOrigin?.startsWith('https://') && needsHttpsRedirect(request, config.trustProxy)) {
      reply.redirect(`${publicOrigin}${request.url}`, 301);
      return;
    }
    try {
      checkSameOrigin(request, serverOrigin);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send({ error: 'not_found', message: `no route for ${request.method} ${request.url.split('?')[0]}` }),
  );
  for (const f of features) if (f.routes) await f.routes(app, services);
  checkJobKinds(features, services.jobs.kinds());
  const handlers: Record<string, unknown> = {};
  for (const f of features) {
    for (const [operationId, handler] of Object.entries(f.handlers ?? {})) {
      if (handlers[operationId]) throw new Error(`operation ${operationId} has two handlers (${f.name})`);
      handlers[operationId] = handler;
    }
  }
  registerOperations(app, handlers as HandlerMap, services, {
    validateResponses: deps.validateResponses ?? config.validateResponses,
  });
  app.addHook('onListen', async () => {
    const addr = app.server.address();
    if (addr && typeof addr === 'object')
      listenUrl = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
  });
  return {
    app,
    services,
    secretKeySource: secrets.source,
    close: async () => {
      await app.close();
      if (!deps.database) await database.close();
    },
  };
}

/** A database URL fit for a message: a Postgres URL without its password. */
function redactUrl(url: string): string {
  if (!/^postgres(ql)?:\/\//.test(url)) return url;
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}

/**
 * The server's secret keys, and every value sealed at rest under the current one: values an older server
 * stored in clear are sealed, values a previous key sealed (a rotation, or the secret older servers kept in
 * the database) are sealed again; then the database records the key's check value and forgets the old
 * secrets. Logged once: where the key came from, and what was sealed.
 */
async function prepareSecrets(
  config: Config,
  database: Db,
  features: readonly Feature[],
  clock: Clock,
  log: FastifyBaseLogger,
): Promise<LoadedKeys> {
  const loaded = await loadSecretKeys(config, database);
  const columns = [...CORE_SEALED_COLUMNS, ...features.flatMap((f) => f.sealedColumns ?? [])];
  const report = await resealAtRest(database, loaded.keys, columns);
  await completeKeyChange(database, loaded.keys, clock.now());
  const loose = loaded.source.kind === 'file' && loaded.source.looseMode !== undefined;
  log[loose || loaded.source.kind === 'memory' ? 'warn' : 'info'](
    { sealed: report.sealed, resealed: report.resealed },
    `secret key: ${describeKeySource(loaded.source)}`,
  );
  return loaded;
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

/**
 * Every registered job kind is declared by exactly one feature. (A declared kind need not have a runner: a
 * coverage walk's job is only leased, by the request that resumes the walk.)
 */
function checkJobKinds(features: readonly Feature[], registered: readonly string[]): void {
  const declared = new Map<string, string>();
  for (const f of features) {
    for (const kind of f.jobs ?? []) {
      if (declared.has(kind))
        throw new Error(`job kind ${kind} is declared by ${declared.get(kind)} and ${f.name}`);
      declared.set(kind, f.name);
    }
  }
  const stray = registered.filter((kind) => !declared.has(kind));
  if (stray.length) throw new Error(`job kinds registered by no declaring feature: ${stray.join(', ')}`);
}
