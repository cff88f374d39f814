import type { FastifyInstance } from 'fastify';

const FORM = 'application/x-www-form-urlencoded';

/**
 * Parses `application/x-www-form-urlencoded` bodies into flat objects (`/ask` takes forms; the checkout page's
 * Approve button posts one). Registered once: another feature may already have added the same parser.
 */
export function registerFormBodies(app: FastifyInstance): void {
  if (app.hasContentTypeParser(FORM)) return;
  app.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}
