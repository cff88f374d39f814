import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { csrfField, escapeHtml, notice, type PageInput } from '../../../core/http/layout.js';
import { badge, table, when } from '../format.js';
import { apiFailure, type DashboardRoutes } from '../http.js';
import type { DashboardSession } from '../session.js';

const ConnectForm = z.object({
  username: z
    .string()
    .trim()
    .transform((v) => v.replace(/^@/, ''))
    .pipe(z.string().regex(/^[A-Za-z0-9_]{1,15}$/)),
});

/**
 * What the connect operation's body needs beside the username on the X API platform, where X's consent
 * page authenticates the owner: the values are required by the operation's body and never used there.
 */
const OAUTH_UNUSED = { email: 'unused@invalid.example', password: 'unused', totp_secret: 'unused' } as const;

/** Whether accounts connect through X's OAuth 2.0 consent (the xapi platform with an OAuth 2.0 client). */
function connectsOnX(routes: DashboardRoutes): boolean {
  return routes.services.config.platform === 'xapi' && routes.services.config.xClientId !== undefined;
}

async function accountsPage(routes: DashboardRoutes, s: DashboardSession, top = ''): Promise<PageInput> {
  const { accounts } = await s.api.xAccounts.list();
  const rows = accounts.map((a) => [
    escapeHtml(`@${a.xUsername}`),
    escapeHtml(a.status),
    badge(a.health),
    when(a.createdAt),
    when(a.cookiesObtainedAt),
  ]);
  const connect = connectsOnX(routes)
    ? `<form method="post" action="/dashboard/accounts/connect">${csrfField(s.csrf)}
<label for="x-username">X username to connect</label>
<input type="text" id="x-username" name="username" maxlength="16" placeholder="@handle" autocomplete="off" required>
<button type="submit">Connect with X</button></form>
<p class="muted">X asks the account's owner to approve this server; the password is never asked here.</p>`
    : '';
  const reauth = connectsOnX(routes)
    ? 'must be approved on X again (<code>xsvc x-accounts reauth</code>)'
    : 'must log in again (<code>xsvc x-accounts reauth</code>)';
  return {
    title: 'Connected accounts',
    main: `<h1>Connected accounts</h1>${top}${connect}
${table('Platform accounts this account acts as', ['Account', 'Connection', 'Health', 'Connected', 'Session obtained'], rows, 'No connected accounts: connect one with the API or the CLI (xsvc x-accounts connect).')}
<p class="muted">An account whose health is <code>needsReauth</code> ${reauth} before it can act.</p>`,
  };
}

/**
 * Mounts the connected platform accounts page, with each account's health, and on the X API platform the
 * "Connect with X" form: it starts a connection and links to X's consent page (a link, not a redirect, so
 * the page's `form-action` policy stays this origin only).
 */
export function registerAccounts(routes: DashboardRoutes): void {
  routes.page('/dashboard/accounts', async (s) => accountsPage(routes, s));
  routes.action('/dashboard/accounts/connect', async (s, request: FastifyRequest) => {
    if (!connectsOnX(routes))
      return {
        page: await accountsPage(
          routes,
          s,
          notice('error', 'Accounts connect with the API or the CLI here.'),
        ),
        status: 400,
      };
    const form = ConnectForm.safeParse(request.body);
    if (!form.success)
      return {
        page: await accountsPage(
          routes,
          s,
          notice('error', 'Enter a username: 1-15 letters, digits or underscores.'),
        ),
        status: 400,
      };
    try {
      const attempt = await s.api.xAccounts.connect({ username: form.data.username, ...OAUTH_UNUSED });
      const url: unknown = (attempt as { authorizationUrl?: unknown }).authorizationUrl;
      if (typeof url !== 'string')
        return {
          page: await accountsPage(routes, s, notice('error', 'X gave no authorization to open.')),
          status: 502,
        };
      const link = `<p class="notice ok" role="status">Now approve on X as @${escapeHtml(form.data.username)}: <a href="${escapeHtml(url)}" rel="noreferrer">continue to X</a> (the link works for ten minutes).</p>`;
      return { page: await accountsPage(routes, s, link) };
    } catch (err) {
      return { page: await accountsPage(routes, s, notice('error', apiFailure(err))), status: 400 };
    }
  });
}
