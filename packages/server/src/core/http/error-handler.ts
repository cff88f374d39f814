import type { FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_RETRY_AFTER_S, type DatabaseFault, databaseFault, describeFault } from '../db/faults.js';
import { errorBody, HttpError } from './errors.js';

/** Fastify's own failure codes, by the spec's error code they stand for. */
const FRAMEWORK_CODES: Readonly<Record<string, { code: string; message: string }>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type', message: 'unsupported content type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'invalid_input',
    message: 'the Content-Length header does not match the body',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'body_too_large', message: 'the request body is too large' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'invalid_json',
    message: 'the request body is empty; this operation takes a JSON body',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', message: 'the request body is not valid JSON' },
  FST_ERR_BAD_URL: { code: 'invalid_input', message: 'the path is not valid percent-encoding' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'invalid_input', message: 'a path parameter is too long' },
};

/**
 * 503 `service_unavailable` with `Retry-After` for a database that is away or cannot write now (see
 * `core/db/faults.ts`): the request may succeed when retried, so it is never a 500.
 */
export function databaseUnavailable(fault: DatabaseFault): HttpError {
  const what =
    fault.kind === 'connection' ? 'the database cannot be reached' : 'the database cannot take writes';
  return new HttpError(
    'service_unavailable',
    `${what} right now; retry in ${DATABASE_RETRY_AFTER_S} seconds`,
    { retryAfter: DATABASE_RETRY_AFTER_S },
    503,
    { 'retry-after': String(DATABASE_RETRY_AFTER_S) },
  );
}

/**
 * The spec's error for anything thrown while answering a request: contract errors as themselves, Fastify's
 * own failures (content type, body size, JSON, URL) as the codes they stand for, a database fault as 503
 * `service_unavailable`, and anything else as `internal_error` (the caller logs it).
 */
export function httpErrorOf(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  const e = error as { statusCode?: number; code?: string; message?: string } | null;
  const known = e?.code ? FRAMEWORK_CODES[e.code] : undefined;
  if (known) return new HttpError(known.code, known.message);
  if (error instanceof SyntaxError)
    return new HttpError('invalid_json', 'the request body is not valid JSON');
  const status = e?.statusCode;
  if (status === 413) return new HttpError('body_too_large', 'the request body is too large');
  if (status === 415)
    return new HttpError('unsupported_media_type', e?.message ?? 'unsupported content type');
  if (status && status >= 400 && status < 500)
    return new HttpError('invalid_input', e?.message ?? 'invalid request');
  const fault = databaseFault(error);
  if (fault) return databaseUnavailable(fault);
  return undefined;
}

/**
 * A feature's own error format for some of its routes (OAuth endpoints answer RFC 6749's
 * `{ error, error_description }`): the answer to send instead of the API's error body, or undefined to leave
 * the error to the default rendering.
 */
export type ErrorShaper = (
  request: FastifyRequest,
  err: HttpError,
) => { status: number; body: Record<string, string> } | undefined;

/** The error handler of a server whose features bring `shapers` ({@link errorHandler} with none). */
export function createErrorHandler(
  shapers: readonly ErrorShaper[],
): (error: unknown, request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  return (error, request, reply) => renderError(error, request, reply, shapers);
}

/** Renders any thrown error in the API's error body (no feature's own error format). */
export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return renderError(error, request, reply, []);
}

/**
 * Renders any thrown error in the caller's contract (`{ error, message }`, or the structured shape of the
 * opt-in contract). An unexpected error answers 500 `internal_error` and is logged with the request id that
 * the answer's `x-request-id` header carries, so the two can be matched.
 */
function renderError(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  shapers: readonly ErrorShaper[],
): FastifyReply {
  const optIn = request.headers['svc-api-contract'] === '2026-04-29';
  let err = httpErrorOf(error);
  const fault = err?.code === 'service_unavailable' ? databaseFault(error) : undefined;
  // The real cause, once per request: the answer only says the database is unavailable.
  if (fault) request.log.warn({ requestId: request.id, cause: describeFault(fault) }, 'database unavailable');
  if (!err) {
    request.log.error({ err: error, requestId: request.id }, 'unhandled error');
    err = new HttpError(
      'internal_error',
      `internal error; the request id ${request.id} identifies it in the server log`,
      {},
      500,
    );
  }
  reply.header('x-request-id', request.id);
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  // RFC 6750 3 / RFC 9110 11.6.1: every 401 names its scheme, so clients know to send a bearer token.
  if (err.status === 401 && !reply.hasHeader('www-authenticate')) {
    const presented =
      request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined;
    reply.header('www-authenticate', `Bearer realm="svc"${presented ? ', error="invalid_token"' : ''}`);
  }
  for (const shape of shapers) {
    const shaped = shape(request, err);
    if (shaped) return reply.status(shaped.status).header('cache-control', 'no-store').send(shaped.body);
  }
  return reply.status(err.status).send(errorBody(err, optIn));
}
