import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

/** A request body encoding a route may take beside JSON. */
export type FormEncoding = 'form' | 'multipart';

/** `METHOD /url` of the routes that take each encoding, per server (encapsulated plugins share `server`). */
type EncodingRules = Map<FormEncoding, Set<string>>;

const registries = new WeakMap<object, EncodingRules>();

function rulesOf(app: FastifyInstance): EncodingRules {
  let rules = registries.get(app.server);
  if (!rules) {
    rules = new Map();
    registries.set(app.server, rules);
  }
  return rules;
}

function keyOf(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? ''}`;
}

/**
 * Declares the routes (`'POST /checkout/:id/approve'`) that take form or multipart bodies. A browser can
 * send those encodings from any site without a preflight, so they are parsed only where a route takes them:
 * elsewhere they answer 415 `unsupported_media_type`.
 */
export function acceptEncoding(
  app: FastifyInstance,
  encoding: FormEncoding,
  routes: readonly string[],
): void {
  const rules = rulesOf(app);
  let set = rules.get(encoding);
  if (!set) {
    set = new Set();
    rules.set(encoding, set);
  }
  for (const r of routes) set.add(r);
}

/** True when the request's route is a contract operation without a body (whatever comes with it is ignored). */
export function isBodiless(request: FastifyRequest): boolean {
  return request.routeOptions.config.body === 'none';
}

/**
 * Checks that the request's route takes `encoding`; false when the route takes no body (the caller ignores
 * it), 415 `unsupported_media_type` when the route takes bodies of other encodings.
 */
export function takesEncoding(request: FastifyRequest, encoding: FormEncoding): boolean {
  if (isBodiless(request)) return false;
  if (registries.get(request.server.server)?.get(encoding)?.has(keyOf(request))) return true;
  throw new HttpError(
    'unsupported_media_type',
    `${request.method} ${request.routeOptions.url ?? request.url} does not take ${encoding === 'form' ? 'application/x-www-form-urlencoded' : 'multipart/form-data'} bodies; send JSON`,
  );
}

/**
 * Replaces Fastify's body parsers with the server's rules: JSON as before, except that an operation without
 * a body ignores what comes with it (many clients always send `Content-Type: application/json`, often with
 * an empty body) and a plain route reads an empty JSON body as no body; any other content type is refused
 * with 415 `unsupported_media_type` unless a route declared it (see {@link acceptEncoding}).
 */
export function registerBodyParsers(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (isBodiless(request)) return done(null, undefined);
    if (text.trim() === '' && request.routeOptions.config.body !== 'some') return done(null, undefined);
    json(request, text, done);
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, _body, done) => {
    if (isBodiless(request)) return done(null, undefined);
    done(
      new HttpError(
        'unsupported_media_type',
        `unsupported content type ${JSON.stringify(request.headers['content-type'] ?? '')}: send JSON`,
      ),
      undefined,
    );
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Set on contract operations: `none` when the operation takes no body (whatever a client sends is
     * ignored), `some` when it does (an empty JSON body is then invalid JSON).
     */
    body?: 'none' | 'some';
  }
}
