import type { FastifyInstance } from 'fastify';
import { acceptEncoding, takesEncoding } from './body-parsers.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * Parses `application/x-www-form-urlencoded` bodies into flat objects, on the routes named in `routes`
 * (`'POST /ask'`; the checkout page's Approve button and the sign-in and consent pages post forms) and on the
 * contract operations that declare form bodies; any other route refuses them (415). The parser is added once:
 * another feature may already have added it.
 */
export function registerFormBodies(app: FastifyInstance, routes: readonly string[] = []): void {
  acceptEncoding(app, 'form', routes);
  if (app.hasContentTypeParser(FORM)) return;
  app.addContentTypeParser(FORM, { parseAs: 'string' }, (request, body, done) => {
    try {
      if (!takesEncoding(request, 'form')) return done(null, undefined);
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}
