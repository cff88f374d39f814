import { Readable } from 'node:stream';
import {
  type AnyOperation,
  markResources,
  operations,
  strictify,
  toOptInContract,
  unprefixedId,
} from '@xsvc/sdk/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { authenticate, PAYMENT_PRINCIPAL, type Principal } from '../auth/authenticate.js';
import { withPaymentOptions } from '../billing/payments/options.js';
import { guestWalletAction, paymentRequired } from '../billing/payments/required.js';
import { settlePayment } from '../billing/payments/settle.js';
import { requireActivePlan } from '../billing/plan.js';
import { type Tier, tierOf } from '../limits/rate-limiter.js';
import type { Services } from '../services.js';
import { acceptEncoding } from './body-parsers.js';
import { corsRouteConfig } from './cors.js';
import { HttpError } from './errors.js';
import { Answer, type Handler, type HandlerContext, type HandlerMap } from './handler.js';
import { registerOptionsRoute } from './options-route.js';
import { assertWellFormed } from './well-formed.js';

/** Fastify's `:name` form of a contract path. */
export function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** The first issue of a failed parse, as a message naming the field. */
export function describeIssue(where: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `invalid ${where}`;
  const field = issue.path.length ? issue.path.join('.') : where;
  return `${field}: ${issue.message}`;
}

/** The error code for a validation failure of an operation: some fields have codes of their own (spec 7). */
function invalidCode(op: AnyOperation, error: z.ZodError): string {
  const msg = error.issues[0]?.message ?? '';
  const m =
    /^(too_many_ids|missing_ids|missing_query|invalid_tweet_url|invalid_tweet_id|invalid_username|invalid_user_id|invalid_id|invalid_tool_type|invalid_format|invalid_job_id|invalid_params|missing_params|unsupported_field):/.exec(
      msg,
    );
  if (m) return m[1]!;
  if (op.errors.includes('invalid_tool_type' as never) && error.issues.some((i) => i.path[0] === 'toolType'))
    return 'invalid_tool_type';
  if (op.errors.includes('invalid_format' as never) && error.issues.some((i) => i.path[0] === 'format'))
    return 'invalid_format';
  if (
    op.errors.includes('invalid_tweet_url' as never) &&
    error.issues.some((i) => i.path[0] === 'tweetUrl' && i.code !== 'invalid_type')
  )
    return 'invalid_tweet_url';
  return 'invalid_input';
}

function parse<T>(op: AnyOperation, schema: z.ZodType<T> | null, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  assertWellFormed(value, where);
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw new HttpError(invalidCode(op, r.error), describeIssue(where, r.error));
  return r.data;
}

/** Options of {@link registerOperations}. */
export interface RegisterOptions {
  /** Check every JSON answer against the operation's strict response schema (on in tests). */
  validateResponses: boolean;
}

/** What a request of one operation needs to know about it, worked out once when the route is mounted. */
interface Route {
  readonly op: AnyOperation;
  readonly handler: Handler;
  /** No credential is read (`auth: ['none']` among the modes). */
  readonly noAuth: boolean;
  /** A caller without credentials may get an answer (none, guest or payment). */
  readonly anonymousAllowed: boolean;
  /** The credential modes the operation accepts (an API key also stands for OAuth). */
  readonly accepts: ReadonlySet<string>;
  readonly tier: Tier;
  readonly successStatus: number;
  /** The opt-in contract applies to the answer (a path under `/api/`). */
  readonly optInApplies: boolean;
  /** The machine payment price when the operation can be paid that way (spec 5.5). */
  readonly mppMicroUsd: number | undefined;
  /** Check JSON answers against the operation's strict response schema. */
  readonly validate: boolean;
  /**
   * Paid work that needs an active plan (402 `no_subscription` / `subscription_inactive`): the paid
   * operations that list those codes, except composition, which decides per cached style (spec 4.9).
   */
  readonly planGated: boolean;
}

const strictCache = new WeakMap<AnyOperation, z.ZodType>();

/** The strict response schema of an operation (built on first use). */
function strictResponse(op: AnyOperation): z.ZodType {
  let strict = strictCache.get(op);
  if (!strict) {
    strict = strictify(op.response);
    strictCache.set(op, strict);
  }
  return strict;
}

function routeOf(op: AnyOperation, handler: Handler, options: RegisterOptions): Route {
  const accepts = new Set<string>(op.auth);
  if (accepts.has('oauth')) accepts.add('apiKey');
  return {
    op,
    handler,
    noAuth: op.auth.includes('none'),
    anonymousAllowed: op.auth.some((a) => a === 'none' || a === 'guest' || a === 'payment'),
    accepts,
    tier: tierOf(op.method),
    successStatus: op.success[0] ?? 200,
    optInApplies: op.path.startsWith('/api/'),
    mppMicroUsd:
      op.auth.includes('payment') && op.cost.kind === 'per_call' && op.cost.mppMicroUsd
        ? op.cost.mppMicroUsd
        : undefined,
    validate: options.validateResponses && op.responseKind !== 'binary',
    planGated:
      op.errors.includes('subscription_inactive' as never) &&
      op.cost.kind !== 'free' &&
      op.tag !== 'Composition',
  };
}

/**
 * Mounts every operation that has a handler: parameters validated by the contract's schemas, the caller
 * authenticated and rate-limited, the answer rendered in the caller's contract with deprecation headers.
 * Each path also answers OPTIONS (`options-route.ts`), and is opened to the configured CORS origins.
 */
export function registerOperations(
  app: FastifyInstance,
  handlers: HandlerMap,
  services: Services,
  options: RegisterOptions,
): void {
  const byPath = new Map<string, AnyOperation[]>();
  for (const op of operations as readonly AnyOperation[]) {
    if (!(handlers as Record<string, Handler | undefined>)[op.id]) continue;
    const list = byPath.get(op.path) ?? [];
    list.push(op);
    byPath.set(op.path, list);
  }
  for (const [path, ops] of byPath) {
    const url = fastifyPath(path);
    const cors = corsRouteConfig(services.config.corsOrigins, ops);
    for (const op of ops) {
      const handler = (handlers as Record<string, Handler>)[op.id] as Handler;
      const route = routeOf(op, handler, options);
      const encoding = op.bodyEncoding ?? 'json';
      if (op.body && encoding !== 'json') acceptEncoding(app, encoding, [`${op.method} ${url}`]);
      app.route({
        method: op.method,
        url,
        config: { body: op.body ? 'some' : 'none', ...cors },
        handler: (request, reply) => run(route, request, reply, services),
      });
    }
    registerOptionsRoute(app, url, ops, services);
  }
}

/** The first value of a request header. */
function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The caller of a request to `route`, or undefined for an anonymous call the operation allows. */
async function principalOf(
  route: Route,
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  now: number,
): Promise<Principal | undefined> {
  if (route.noAuth) return undefined;
  const principal = await authenticate(
    services.database.db,
    {
      apiKey: header(request, 'x-api-key') ?? header(request, 'svc-api-key'),
      authorization: header(request, 'authorization'),
      cookie: header(request, 'cookie'),
    },
    now,
  );
  if (principal) {
    if (!route.accepts.has(principal.mode))
      throw new HttpError('unauthenticated', `this operation does not accept ${principal.mode} credentials`);
    return principal;
  }
  const authorization = header(request, 'authorization');
  if (route.mppMicroUsd && authorization && /^\s*Payment\s/i.test(authorization)) {
    // A machine payment (spec 5.4): settled once, before the read; every answer from here on, errors
    // included, carries its receipt. The read itself charges nothing else.
    const receipt = await settlePayment(services, route.op.id, route.mppMicroUsd, authorization);
    reply.header('payment-receipt', receipt);
    return PAYMENT_PRINCIPAL;
  }
  if (!route.anonymousAllowed)
    throw new HttpError('unauthenticated', 'this operation needs an API key, a bearer token or a session');
  // Anonymous paid reads (spec 5.4, 5.5): offer a guest wallet (and, on the 7 fixed-price reads, a machine
  // payment challenge); nothing is ever charged or started without the caller's explicit action.
  if (route.mppMicroUsd) {
    throw await paymentRequired(
      services,
      route.mppMicroUsd,
      'no_credits',
      'pay this call with a machine payment, or use an API key or guest key',
    );
  }
  throw new HttpError(
    'unauthenticated',
    'this paid read needs an API key or a guest key',
    { action: guestWalletAction(services) },
    401,
    { 'www-authenticate': 'Bearer realm="svc"' },
  );
}

async function run(
  route: Route,
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
): Promise<unknown> {
  const { op } = route;
  const optIn = request.headers['svc-api-contract'] === '2026-04-29';
  const requestId = request.id;
  const now = services.clock.now();
  const principal = await principalOf(route, request, reply, services, now);
  if (principal && principal.mode !== 'payment') {
    const rl = await services.rateLimiter.hit(principal.accountId, route.tier, now);
    reply.header('x-ratelimit-remaining', String(rl.remaining));
  } else if (!principal && route.tier === 'read') {
    // The public reads (discovery documents, health) count per client address in the read tier, so no
    // anonymous caller can spend the server on them; past the limit: 429 as for an account.
    await services.rateLimiter.hit(`address:${request.ip}`, 'read', now);
  }
  if (route.planGated && principal) {
    await requireActivePlan(services.database.db, principal.accountId, now).catch(async (err: unknown) => {
      throw await withPaymentOptions(err, services, principal);
    });
  }

  const ctx: HandlerContext = {
    op,
    params: parse(op, op.params, optInIds(route, optIn, request.params), 'path') as never,
    query: parse(op, op.query, optInIds(route, optIn, request.query), 'query') as never,
    body: parse(op, op.body, op.body ? request.body : undefined, 'body') as never,
    principal,
    services,
    request,
    reply,
    requestId,
    optIn,
    requirePrincipal() {
      if (!principal) throw new HttpError('unauthenticated', 'this operation needs credentials');
      return principal;
    },
  };
  if (op.deprecated) deprecationHeaders(op, request, reply, services);
  let result: unknown;
  try {
    result = await route.handler(ctx as never);
  } catch (err) {
    // A 402 advertises how to pay (spec 4.9, part 7); it never starts a checkout.
    throw await withPaymentOptions(err, services, principal);
  }
  const answer = result instanceof Answer ? result : undefined;
  const status = answer ? answer.status : route.successStatus;
  const body = answer ? answer.body : result;
  if (answer) for (const k in answer.headers) reply.header(k, answer.headers[k]);
  reply.status(status);
  if (body === undefined || status === 204) return reply.send();
  if (typeof body === 'string' || body instanceof Uint8Array || body instanceof Readable)
    return reply.send(body);
  if (route.validate && status === op.success[0]) {
    const r = strictResponse(op).safeParse(body);
    if (!r.success) {
      throw new Error(
        `${op.id}: response does not match the contract: ${JSON.stringify(r.error.issues.slice(0, 3))}`,
      );
    }
  }
  return reply.send(optIn && route.optInApplies ? toOptInContract(markResources(op.path, body)) : body);
}

/**
 * Path and query values with the opt-in contract's id prefixes removed (`mon_123` → `123`), so a prefixed
 * id names the same resource as the plain one (spec 4.1); unchanged under the default contract.
 */
function optInIds(route: Route, optIn: boolean, values: unknown): unknown {
  if (!optIn || !route.optInApplies || !values || typeof values !== 'object') return values;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values))
    out[k] = typeof v === 'string' ? unprefixedId(route.op.path, k, v) : v;
  return out;
}

const POLICY = '/docs/deprecations.md';

function deprecationHeaders(
  op: AnyOperation,
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
): void {
  const dep = op.deprecated;
  if (!dep) return;
  const q = (request.query ?? {}) as Record<string, unknown>;
  const usedParam = Object.keys(dep.params ?? {}).some((p) => q[p] !== undefined);
  if (dep.operation || dep.fields || usedParam) {
    reply.header('deprecation', `@${dep.since}`);
    reply.header('link', `<${services.publicUrl()}${POLICY}>; rel="deprecation"; type="text/markdown"`);
  }
}
