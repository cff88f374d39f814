import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { csrfField, escapeHtml, notice, type PageInput } from '../../../core/http/layout.js';
import { cookieValue } from '../csrf.js';
import { badge, code, table, when } from '../format.js';
import { apiFailure, type DashboardRoutes, doneNotice } from '../http.js';
import type { DashboardSession } from '../session.js';

const CreateForm = z.object({ name: z.string().trim().max(100).optional() });
const KeyParams = z.object({ id: z.string().min(1).max(200) });

/**
 * The new key travels from the create action to the page that shows it once in this cookie: HttpOnly, only
 * for this page, a minute at most, and cleared by the page that shows it. The action answers with a redirect
 * (Post/Redirect/Get), so reloading the page shows nothing new and creates no second key.
 */
const NEW_KEY_COOKIE = 'xsvc_new_key';
const FULL_KEY = /^svc_[0-9a-f]{64}$/;

function newKeyCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${NEW_KEY_COOKIE}=${value}; Path=/dashboard/keys; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The keys page: the new key once (with a copy button), the list without secrets, revoke buttons. */
async function keysPage(s: DashboardSession, top = '', flashed?: string): Promise<PageInput> {
  const { keys } = await s.api.apiKeys.list();
  // Shown only when it is one of this account's active keys (a cookie says nothing by itself).
  const created =
    flashed && FULL_KEY.test(flashed) && keys.some((k) => k.isActive && flashed.startsWith(k.prefix))
      ? flashed
      : undefined;
  const rows = keys.map((k) => [
    escapeHtml(k.name),
    code(`${k.prefix}…`),
    when(k.createdAt),
    when(k.lastUsedAt),
    k.isActive ? badge('active') : `${badge('revoked')} ${when(k.revokedAt)}`,
    k.isActive
      ? `<form class="inline" method="post" action="/dashboard/keys/${encodeURIComponent(k.id)}/revoke">${csrfField(s.csrf)}<button type="submit" class="danger" aria-label="Revoke ${escapeHtml(k.name)}">Revoke</button></form>`
      : '',
  ]);
  const secret = created
    ? `<section aria-labelledby="new-key-title" class="secret"><h2 id="new-key-title">Your new API key</h2>
<p>Copy it now: it is shown only once, and only its hash is kept.</p>
<div class="copyrow"><code id="new-key" data-copy="Copy the new API key">${escapeHtml(created)}</code></div></section>`
    : '';
  return {
    title: 'API keys',
    script: true,
    main: `<h1>API keys</h1>${top}${secret}
<form method="post" action="/dashboard/keys">${csrfField(s.csrf)}
<label for="key-name">Name of the new key</label>
<input type="text" id="key-name" name="name" maxlength="100" placeholder="production" autocomplete="off">
<button type="submit">Create a key</button></form>
${table('Your keys (secrets are never shown again)', ['Name', 'Prefix', 'Created', 'Last used', 'Status', ''], rows, 'No keys yet.')}`,
  };
}

/** Mounts the API keys page and its create and revoke actions (spec 5.2: keys are managed with a session). */
export function registerKeys(routes: DashboardRoutes): void {
  routes.page('/dashboard/keys', async (s, request: FastifyRequest) => {
    const done = doneNotice(request, { revoked: 'The key was revoked: it no longer works.' });
    const flashed = cookieValue(request, NEW_KEY_COOKIE);
    const page = await keysPage(s, done ? notice('ok', done) : '', flashed);
    return flashed === undefined ? page : { ...page, setCookie: newKeyCookie('', 0, routes.secure()) };
  });
  routes.action('/dashboard/keys', async (s, request) => {
    const form = CreateForm.safeParse(request.body);
    if (!form.success)
      return { page: await keysPage(s, notice('error', 'The name is at most 100 characters.')), status: 400 };
    try {
      const name = form.data.name || undefined;
      const key = await s.api.apiKeys.create(name ? { name } : {});
      return { redirect: '/dashboard/keys', setCookie: newKeyCookie(key.fullKey, 60, routes.secure()) };
    } catch (err) {
      return { page: await keysPage(s, notice('error', apiFailure(err))), status: 400 };
    }
  });
  routes.action('/dashboard/keys/:id/revoke', async (s, request) => {
    const { id } = KeyParams.parse(request.params);
    try {
      await s.api.apiKeys.revoke(id);
      return { redirect: '/dashboard/keys?done=revoked' };
    } catch (err) {
      return { page: await keysPage(s, notice('error', apiFailure(err))), status: 400 };
    }
  });
}
