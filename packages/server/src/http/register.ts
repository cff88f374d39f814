import { randomUUID } from 'node:crypto';
import { type AnyOperation, operations, strictify, toOptInContract } from '@xsvc/sdk/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { authenticate, type Principal } from '../features/auth/authenticate.js';
import { tierOf } from '../features/rate-limit/rate-limiter.js';
import type { Services } from '../services.js';
import { errorBody, HttpError } from './errors.js';
import { Answer, type Handler, type HandlerContext, type HandlerMap } from './handler.js';

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
    /^(too_many_ids|missing_ids|missing_query|invalid_tweet_url|invalid_tweet_id|invalid_username|invalid_user_id|invalid_tool_type|invalid_format|invalid_job_id|invalid_params|missing_params):/.exec(
      msg,
    );
  if (m) return m[1]!;
  if (op.errors.includes('invalid_tool_type' as never) && error.issues.some((i) => i.path[0] === 'toolType'))
    return 'invalid_tool_type';
  if (op.errors.includes('invalid_format' as never) && error.issues.some((i) => i.path[0] === 'format'))
    return 'invalid_format';
  return 'invalid_input';
}

function parse<T>(op: AnyOperation, schema: z.ZodType<T> | null, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw new HttpError(invalidCode(op, r.error), describeIssue(where, r.error));
  return r.data;
}

const strictCache = new WeakMap<AnyOperation, z.ZodType>();

/** Options of {@link registerOperations}. */
export interface RegisterOptions {
  /** Check every JSON answer against the operation's strict response schema (on in tests). */
  validateResponses: boolean;
}

/**
 * Mounts every operation that has a handler: parameters validated by the contract's schemas, the caller
 * authenticated and rate-limited, the answer rendered in the caller's contract with deprecation headers.
 */
export function registerOperations(
  app: FastifyInstance,
  handlers: HandlerMap,
  services: Services,
  options: RegisterOptions,
): void {
  for (const op of operations as readonly AnyOperation[]) {
    const handler = (handlers as Record<string, Handler | undefined>)[op.id];
    if (!handler) continue;
    app.route({
      method: op.method,
      url: fastifyPath(op.path),
      handler: async (request, reply) => run(op, handler, request, reply, services, options),
    });
  }
}

async function run(
  op: AnyOperation,
  handler: Handler,
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  options: RegisterOptions,
): Promise<unknown> {
  const optIn = request.headers['svc-api-contract'] === '2026-04-29';
  const requestId = randomUUID();
  reply.header('x-request-id', requestId);
  const now = services.clock.now();
  const header = (n: string) => {
    const v = request.headers[n];
    return Array.isArray(v) ? v[0] : v;
  };
  const anonymousAllowed = op.auth.some((a) => a === 'none' || a === 'guest' || a === 'payment');
  const principal: Principal | undefined = op.auth.includes('none')
    ? undefined
    : await authenticate(
        services.database.db,
        {
          apiKey: header('x-api-key') ?? header('svc-api-key'),
          authorization: header('authorization'),
          cookie: header('cookie'),
        },
        now,
      );
  if (!principal && !anonymousAllowed)
    throw new HttpError('unauthenticated', 'this operation needs an API key, a bearer token or a session');
  if (
    principal &&
    !op.auth.includes(principal.mode) &&
    !(principal.mode === 'apiKey' && op.auth.includes('oauth'))
  ) {
    throw new HttpError('unauthenticated', `this operation does not accept ${principal.mode} credentials`);
  }
  if (!principal && anonymousAllowed && !op.auth.includes('none')) {
    // Anonymous paid reads (spec 5.4, 5.5): offer a guest wallet (and, on the 7 fixed-price reads, a machine
    // payment challenge); nothing is ever charged or started without the caller's explicit action.
    const action = { type: 'guest_wallet', createUrl: `${services.publicUrl()}/api/v1/guest-wallets` };
    if (op.auth.includes('payment') && op.cost.kind === 'per_call' && op.cost.mppMicroUsd) {
      const request = Buffer.from(
        JSON.stringify({
          amount: String(op.cost.mppMicroUsd),
          currency: 'usd-micro',
          recipient: services.publicUrl(),
        }),
      ).toString('base64url');
      throw new HttpError(
        'no_credits',
        'pay this call with a machine payment, or use an API key or guest key',
        { action },
        402,
        {
          'www-authenticate': `Payment id="${randomUUID()}", realm="svc", method="tempo", intent="charge", request="${request}"`,
        },
      );
    }
    throw new HttpError(
      'unauthenticated',
      'this paid read needs an API key or a guest key',
      { action },
      401,
      {
        'www-authenticate': 'Bearer realm="svc"',
      },
    );
  }
  if (principal) {
    const rl = await services.rateLimiter.hit(principal.accountId, tierOf(op.method), now);
    reply.header('x-ratelimit-remaining', String(rl.remaining));
  }

  const ctx: HandlerContext = {
    op,
    params: parse(op, op.params, request.params, 'path') as never,
    query: parse(op, op.query, request.query, 'query') as never,
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
  deprecationHeaders(op, request, reply, services);
  const result = await handler(ctx as never);
  const answer = result instanceof Answer ? result : new Answer(op.success[0] ?? 200, result);
  for (const [k, v] of Object.entries(answer.headers)) reply.header(k, v);
  reply.status(answer.status);
  if (answer.body === undefined || answer.status === 204) return reply.send();
  if (typeof answer.body === 'string' || answer.body instanceof Uint8Array) return reply.send(answer.body);
  if (options.validateResponses && answer.status === op.success[0] && op.responseKind !== 'binary') {
    let strict = strictCache.get(op);
    if (!strict) {
      strict = strictify(op.response);
      strictCache.set(op, strict);
    }
    const r = strict.safeParse(answer.body);
    if (!r.success) {
      throw new Error(
        `${op.id}: response does not match the contract: ${JSON.stringify(r.error.issues.slice(0, 3))}`,
      );
    }
  }
  return reply.send(optIn && op.path.startsWith('/api/') ? toOptInContract(answer.body) : answer.body);
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

/** Renders any thrown error: contract errors as themselves, validation and JSON errors as 400, the rest 500. */
export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const optIn = request.headers['svc-api-contract'] === '2026-04-29';
  let err: HttpError;
  if (error instanceof HttpError) err = error;
  else {
    const e = error as { statusCode?: number; code?: string; message?: string };
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      err = new HttpError('unsupported_media_type', e.message ?? 'unsupported content type');
    else if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      err = new HttpError('body_too_large', 'the request body is too large');
    else if (
      e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      error instanceof SyntaxError ||
      e.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
    ) {
      err = new HttpError('invalid_json', 'the request body is not valid JSON');
    } else if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      err = new HttpError(
        'invalid_input',
        e.message ?? 'invalid request',
        {},
        e.statusCode === 413 ? 413 : 400,
      );
    } else {
      request.log.error({ err: error }, 'unhandled error');
      err = new HttpError(
        'internal_error',
        'internal error; the request id identifies it in the server log',
        {},
        500,
      );
    }
  }
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply.status(err.status).send(errorBody(err, optIn));
}
