import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sessionCookie } from '../../core/auth/authenticate.js';
import { sessionCookieHeader } from '../../core/auth/cookie.js';
import { consumeMagicLink, type MagicLinkRefusal } from '../../core/auth/magic-links.js';
import { Email, NextPath, sendMagicLink } from '../../core/auth/send-link.js';
import { createSession, deleteSession, SESSION_TTL_MS } from '../../core/auth/sessions.js';
import { accountForEmail } from '../../core/auth/sign-in-account.js';
import { num } from '../../core/db/database.js';
import { linkSentPage, pageHeaders } from '../../core/http/auth-pages.js';
import { HttpError } from '../../core/http/errors.js';
import { registerFormBodies } from '../../core/http/form-body.js';
import { parseInput } from '../../core/http/parse-input.js';
import { SignInLimiter } from '../../core/limits/sign-in-limits.js';
import type { Services } from '../../core/services.js';

const MagicLinkBody = z.object({ email: Email, next: NextPath.optional() });
const CallbackQuery = z.object({ token: z.string().min(1).max(200), next: NextPath.optional() });

const REFUSALS: Record<MagicLinkRefusal, string> = {
  unknown: 'this sign-in link is not valid; ask for a new one',
  used: 'this sign-in link was already used; ask for a new one',
  expired: 'this sign-in link has expired; ask for a new one',
};

/**
 * Local sign-in for the dashboard flows (spec 5.1): an e-mail magic link written to the server log (no SMTP),
 * a `session_token` cookie valid 30 days, and sign-out. Sessions then work on every operation that accepts
 * them; the cookie is HttpOnly, SameSite=Lax and Secure when the public URL is https. Link requests are
 * limited per e-mail address and per client address (`SIGN_IN_LIMITS`): past a limit, 429 with Retry-After.
 */
export function registerSessionRoutes(app: FastifyInstance, services: Services): void {
  const db = services.database.db;
  const secure = () => services.publicUrl().startsWith('https://');
  const limiter = new SignInLimiter(services.database);
  registerFormBodies(app, ['POST /auth/magic-link']);

  app.post('/auth/magic-link', async (request, reply) => {
    const { email, next } = parseInput(MagicLinkBody, request.body, 'body');
    const expiresAt = await sendMagicLink(app, services, limiter, { email, next, ip: request.ip });
    // The same answer whether or not the address has an account: nothing is revealed about who signed up.
    // A browser's form (the sign-in page of the OAuth flow) gets a page; API clients get JSON.
    if (String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      return reply.status(202).headers(pageHeaders()).send(linkSentPage());
    return reply.status(202).send({
      success: true,
      message:
        'a sign-in link was written to the server log (SMTP is not configured); it works once, for 15 minutes',
      expiresAt: new Date(expiresAt).toISOString(),
    });
  });

  app.get('/auth/magic-link/callback', async (request, reply) => {
    const { token, next } = parseInput(CallbackQuery, request.query, 'query');
    const now = services.clock.now();
    const used = await consumeMagicLink(db, token, now);
    if ('refused' in used) throw new HttpError('unauthenticated', REFUSALS[used.refused]);
    const account = await accountForEmail(
      db,
      used.email,
      now,
      services.config.requireSubscription ? 'none' : 'active',
    );
    const session = await createSession(db, account.id, now);
    reply.header(
      'set-cookie',
      sessionCookieHeader(session.token, Math.floor(SESSION_TTL_MS / 1000), secure()),
    );
    reply.header('cache-control', 'no-store');
    if (next) return reply.redirect(next, 303);
    return reply.send({
      success: true,
      email: account.email,
      isOwner: num(account.is_owner) === 1,
      expiresAt: new Date(session.expiresAt).toISOString(),
    });
  });

  app.post('/auth/logout', async (request, reply) => {
    const cookie = request.headers.cookie;
    const token = sessionCookie(Array.isArray(cookie) ? cookie[0] : cookie);
    if (token) await deleteSession(db, token);
    reply.header('set-cookie', sessionCookieHeader('', 0, secure()));
    return reply.send({ success: true });
  });
}
