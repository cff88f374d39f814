import { errorInfo } from '@xsvc/sdk/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { issueCode, takeRequest } from '../../core/auth/oauth-store.js';
import { sessionOf } from '../../core/auth/request-principal.js';
import { errorPage, pageHeaders } from '../../core/http/auth-pages.js';
import { HttpError } from '../../core/http/errors.js';
import { registerFormBodies } from '../../core/http/form-body.js';
import { wantsJson } from '../../core/http/negotiate.js';
import type { Services } from '../../core/services.js';
import { authorizeErrorRedirect, redirectWith } from './handlers.js';

const Decision = z.object({
  request_id: z.string().min(1).max(200),
  decision: z.enum(['approve', 'deny']),
});

/**
 * The consent form's target (not a contract operation: the browser posts it from the page the authorization
 * endpoint shows). Only the signed-in account the request was made for can answer it, once, within 10
 * minutes. Approve redirects to the client with `code`, `state` and `iss`; Deny with `error=access_denied`.
 * Its errors are HTML pages for browsers and the API's JSON error body for clients that ask for JSON
 * (`core/http/negotiate.ts`).
 */
export function registerOAuthRoutes(app: FastifyInstance, services: Services): void {
  registerFormBodies(app, ['POST /api/oauth/authorize/decision']);
  // Mounted before the operations: the authorization endpoint's own route gets a hook that answers a bad
  // request of a known client with an error redirect before the contract's 400 (RFC 6749 4.1.2.1).
  app.addHook('onRoute', (route) => {
    if (route.url !== '/api/oauth/authorize' || route.method !== 'GET') return;
    const own = route.preHandler;
    const redirect = async (request: FastifyRequest, reply: FastifyReply) => {
      const answer = await authorizeErrorRedirect(services, request.query);
      if (answer) await reply.status(answer.status).headers(answer.headers).send();
    };
    route.preHandler = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), redirect];
  });
  app.post('/api/oauth/authorize/decision', async (request, reply) => {
    // A browser gets a page; a program that asks for JSON gets the API's error body (`{ error, message }`,
    // or the opt-in contract's shape) from the one error handler.
    const json = wantsJson(request);
    const send = (code: string, title: string, message: string) => {
      if (json) throw new HttpError(code, message);
      return reply.status(errorInfo(code).status).headers(pageHeaders()).send(errorPage(title, message));
    };
    const parsed = Decision.safeParse(request.body);
    if (!parsed.success)
      return send(
        'invalid_input',
        'Invalid form',
        'this approval form is incomplete; start again from the app (request_id, and decision approve or deny)',
      );
    const principal = await sessionOf(services, request);
    if (!principal)
      return send('unauthenticated', 'Signed out', 'your session ended; start again from the app');
    const db = services.database.db;
    const now = services.clock.now();
    const params = await takeRequest(db, parsed.data.request_id, principal.accountId, now);
    if (!params)
      return send(
        'invalid_input',
        'Approval expired',
        'this approval form was already answered or has expired; start again from the app',
      );
    const issuer = services.publicUrl();
    const answer =
      parsed.data.decision === 'deny'
        ? redirectWith(params.redirectUri, issuer, {
            error: 'access_denied',
            error_description: 'the user denied access',
            state: params.state,
          })
        : redirectWith(params.redirectUri, issuer, {
            code: await issueCode(db, principal.accountId, params, now),
            state: params.state,
          });
    return reply.status(answer.status).headers(answer.headers).send();
  });
}
