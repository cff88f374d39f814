import type { FastifyReply, FastifyRequest } from 'fastify';
import { oauthRejection } from '../../features/oauth/handlers.js';
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
 * The spec's error for anything thrown while answering a request: contract errors as themselves, Fastify's
 * own failures (content type, body size, JSON, URL) as the codes they stand for, and anything else as
 * `internal_error` (the caller logs it).
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
  return undefined;
}

/**
 * Renders any thrown error in the caller's contract (`{ error, message }`, or the structured shape of the
 * opt-in contract). An unexpected error answers 500 `internal_error` and is logged with the request id that
 * the answer's `x-request-id` header carries, so the two can be matched.
 */
export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const optIn = request.headers['svc-api-contract'] === '2026-04-29';
  let err = httpErrorOf(error);
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
  const oauth = oauthRejection(request, err);
  if (oauth) return reply.status(oauth.status).header('cache-control', 'no-store').send(oauth.body);
  return reply.status(err.status).send(errorBody(err, optIn));
}
