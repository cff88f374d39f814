import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sessionCookieHeader } from '../../core/auth/cookie.js';
import { Email, NextPath, sendMagicLink } from '../../core/auth/send-link.js';
import { deleteSession } from '../../core/auth/sessions.js';
import { HttpError } from '../../core/http/errors.js';
import { csrfField, escapeHtml, notice, type PageInput } from '../../core/http/layout.js';
import { SignInLimiter } from '../../core/limits/sign-in-limits.js';
import type { Services } from '../../core/services.js';
import {
  cookieValue,
  csrfRefusal,
  csrfToken,
  newPreSessionSecret,
  PRE_SESSION_COOKIE,
  preSessionCookieHeader,
} from './csrf.js';
import { refuse, sendPage } from './http.js';
import { dashboardSession } from './session.js';

/** Only dashboard paths are offered as where to come back to after signing in. */
const DashboardNext = NextPath.refine((p) => p === '/dashboard' || p.startsWith('/dashboard/'));
const SignInQuery = z.object({ next: DashboardNext.optional().catch(undefined) });
const SignInForm = z.object({ email: Email, next: DashboardNext.optional().catch(undefined) });

function signInPage(csrf: string, next: string, top = ''): PageInput {
  return {
    title: 'Sign in',
    main: `<h1>Sign in to the dashboard</h1>${top}
<p>A one-time sign-in link is sent to your e-mail address. This self-hosted server writes it to its log unless SMTP is configured; open it in this browser. It works once, for 15 minutes.</p>
<form method="post" action="/dashboard/sign-in">${csrfField(csrf)}<input type="hidden" name="next" value="${escapeHtml(next)}">
<label for="email">E-mail address</label>
<input type="email" id="email" name="email" required autocomplete="email">
<button type="submit">Send the sign-in link</button></form>
<p class="muted">The owner of a new server signs in as <code>owner@localhost</code>.</p>`,
  };
}

/**
 * Sign-in and sign-out of the dashboard (spec 5.1): the e-mail form (CSRF-checked against a pre-session
 * cookie, then the same magic link and limits as `POST /auth/magic-link`, coming back to the dashboard), and
 * a sign-out form that ends the session and clears the `session_token` cookie.
 */
export function registerSignIn(app: FastifyInstance, services: Services): void {
  const limiter = new SignInLimiter(services.database);
  const secure = () => services.publicUrl().startsWith('https://');

  app.get('/dashboard/sign-in', async (request, reply) => {
    const next = SignInQuery.safeParse(request.query).data?.next ?? '/dashboard';
    if (await dashboardSession(app, services, request)) return reply.redirect(next, 303);
    let secret = cookieValue(request, PRE_SESSION_COOKIE);
    if (!secret) {
      secret = newPreSessionSecret();
      reply.header('set-cookie', preSessionCookieHeader(secret, secure()));
    }
    return sendPage(reply, signInPage(csrfToken(secret), next));
  });

  app.post('/dashboard/sign-in', async (request, reply) => {
    const secret = cookieValue(request, PRE_SESSION_COOKIE);
    const refused = csrfRefusal(request, services, secret);
    if (refused || !secret) return refuse(reply, refused ?? 'token');
    const form = SignInForm.safeParse(request.body);
    const next = form.data?.next ?? '/dashboard';
    if (!form.success)
      return sendPage(
        reply,
        signInPage(csrfToken(secret), next, notice('error', 'Enter an e-mail address.')),
        400,
      );
    try {
      await sendMagicLink(app, services, limiter, { email: form.data.email, next, ip: request.ip });
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 429) throw err;
      reply.headers(err.headers);
      return sendPage(reply, signInPage(csrfToken(secret), next, notice('error', err.message)), 429);
    }
    return sendPage(reply, {
      title: 'Check for your sign-in link',
      main: `<h1>Check for your sign-in link</h1>${notice('ok', `A sign-in link for ${form.data.email} is on its way.`)}
<p>Without SMTP, this server writes the link to its log: open it in this browser to continue. It works once, for 15 minutes.</p>
<p><a href="/dashboard/sign-in">Use another address</a></p>`,
    });
  });

  app.post('/dashboard/sign-out', async (request, reply) => {
    const s = await dashboardSession(app, services, request);
    if (s) {
      const refused = csrfRefusal(request, services, s.token);
      if (refused) return refuse(reply, refused);
      await deleteSession(services.database.db, s.token);
    }
    return reply
      .header('set-cookie', sessionCookieHeader('', 0, secure()))
      .header('cache-control', 'no-store')
      .redirect('/dashboard/sign-in', 303);
  });
}
