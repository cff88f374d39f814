import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../core/http/errors.js';
import { AskFailure } from './ask/answer.js';

/** The largest `/ask` request body (spec 4.2, 8.3). */
export const ASK_BODY_LIMIT = 8 * 1024;

/** Any failure of an `/ask` request as the `/ask` failure it stands for. */
function asAskFailure(error: unknown): AskFailure {
  if (error instanceof AskFailure) return error;
  const e = error as Partial<FastifyError>;
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || e.statusCode === 413) {
    return new AskFailure(413, 'TOKEN_LIMIT', `the request body is over ${ASK_BODY_LIMIT / 1024} KiB`);
  }
  if (error instanceof HttpError) {
    if (error.status === 429) return new AskFailure(429, 'RATE_LIMITED', error.message);
    if (error.status < 500) return new AskFailure(400, 'INVALID_QUERY', error.message);
  } else if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return new AskFailure(400, 'INVALID_QUERY', e.message ?? 'invalid request');
  }
  return new AskFailure(502, 'INTERNAL_ERROR', 'the documentation search failed');
}

/**
 * The error handler of the `/ask` routes: their failures have their own body (spec 4.2:
 * `{ _meta: { response_type: 'failure', version }, error: { code, message } }`), not the API's error body.
 */
export function askErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const failure = asAskFailure(error);
  if (failure.status >= 500) request.log.error({ err: error }, 'documentation search failed');
  if (error instanceof HttpError) reply.headers(error.headers);
  return reply
    .status(failure.status)
    .header('content-type', 'application/json; charset=utf-8')
    .send(failure.body());
}
