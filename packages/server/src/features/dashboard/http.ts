import { ApiError, XsvcError } from '@xsvc/sdk';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptEncoding } from '../../core/http/body-parsers.js';
import {
  dashboardHeaders,
  escapeHtml,
  type PageInput,
  renderPage,
  SECTIONS,
} from '../../core/http/layout.js';
import type { Services } from '../../core/services.js';
import { csrfRefusal } from './csrf.js';
import { type DashboardSession, dashboardSession } from './session.js';

/**
 * What an action answers: a redirect (Post/Redirect/Get, so a reload does not send the form again), with a
 * cookie for the page it leads to when that page must show something once; or a page to show now (errors).
 */
export type ActionResult =
  | { readonly redirect: string; readonly setCookie?: string }
  | { readonly page: PageInput; readonly status?: number };

/** What a page renders: the page, and a cookie to set with it (clearing a one-time cookie it read). */
export type PageResult = PageInput & { readonly setCookie?: string };

/** Renders a page with the dashboard's security headers. */
export function sendPage(reply: FastifyReply, input: PageInput, status = 200): FastifyReply {
  return reply.status(status).headers(dashboardHeaders()).send(renderPage(input));
}

/** A page that stands alone (errors, refusals): a title and one paragraph. */
export function messagePage(title: string, message: string): PageInput {
  return {
    title,
    main: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/dashboard">Back to the dashboard</a></p>`,
  };
}

/** What a failed API call says, for a notice: the service's own message (its code in front). */
export function apiFailure(err: unknown): string {
  if (err instanceof ApiError) return `${err.code}: ${err.message}`;
  if (err instanceof XsvcError) return err.message;
  throw err;
}

/** A signed-in page with the navigation (the section whose path is the longest prefix of the URL). */
function withChrome(s: DashboardSession, request: FastifyRequest, page: PageInput): PageInput {
  const path = request.url.split('?')[0] ?? '';
  const current =
    [...SECTIONS].reverse().find((x) => path === x.path || path.startsWith(`${x.path}/`))?.path ??
    '/dashboard';
  return { ...page, chrome: { email: s.email, csrf: s.csrf, current } };
}

function toSignIn(reply: FastifyReply, request: FastifyRequest): FastifyReply {
  const next = request.method === 'GET' ? request.url : '/dashboard';
  return reply.redirect(`/dashboard/sign-in?next=${encodeURIComponent(next)}`, 303);
}

/** Registers the dashboard's routes: pages for signed-in browsers, and their CSRF-checked actions. */
export class DashboardRoutes {
  constructor(
    readonly app: FastifyInstance,
    readonly services: Services,
  ) {}

  /** A signed-in page (GET); signed-out browsers are sent to the sign-in page, coming back here after. */
  page(path: string, render: (s: DashboardSession, request: FastifyRequest) => Promise<PageResult>): void {
    this.app.get(path, async (request, reply) => {
      const s = await dashboardSession(this.app, this.services, request);
      if (!s) return toSignIn(reply, request);
      const { setCookie, ...page } = await render(s, request);
      if (setCookie) reply.header('set-cookie', setCookie);
      return sendPage(reply, withChrome(s, request, page));
    });
  }

  /** Whether the dashboard is served over https (its cookies are then `Secure`). */
  secure(): boolean {
    return this.services.publicUrl().startsWith('https://');
  }

  /**
   * A state-changing form target (POST): signed in, same-origin, and carrying this session's CSRF token,
   * or refused with 403 before anything changes.
   */
  action(path: string, act: (s: DashboardSession, request: FastifyRequest) => Promise<ActionResult>): void {
    acceptEncoding(this.app, 'form', [`POST ${path}`]);
    this.app.post(path, async (request, reply) => {
      const s = await dashboardSession(this.app, this.services, request);
      if (!s) return toSignIn(reply, request);
      const refused = csrfRefusal(request, this.services, s.token);
      if (refused) return refuse(reply, refused);
      const result = await act(s, request);
      if ('redirect' in result) {
        if (result.setCookie) reply.header('set-cookie', result.setCookie);
        return reply.header('cache-control', 'no-store').redirect(result.redirect, 303);
      }
      return sendPage(reply, withChrome(s, request, result.page), result.status);
    });
  }
}

/** The 403 page of a request that failed the CSRF checks. */
export function refuse(reply: FastifyReply, why: 'cross-site' | 'token'): FastifyReply {
  const message =
    why === 'cross-site'
      ? 'This form was sent from another site, so nothing was changed.'
      : 'This form has expired or did not come from this dashboard, so nothing was changed. Reload the page and try again.';
  return sendPage(reply, messagePage('Request refused', message), 403);
}

/** The `?done=` notices of redirects after an action, by code (fixed texts: nothing from the URL is shown). */
export function doneNotice(request: FastifyRequest, texts: Record<string, string>): string | undefined {
  const done = (request.query as { done?: unknown } | undefined)?.done;
  return typeof done === 'string' ? texts[done] : undefined;
}
