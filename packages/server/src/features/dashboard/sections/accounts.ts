import { escapeHtml } from '../../../core/http/layout.js';
import { badge, table, when } from '../format.js';
import type { DashboardRoutes } from '../http.js';

/** Mounts the connected platform accounts page, with each account's health. */
export function registerAccounts(routes: DashboardRoutes): void {
  routes.page('/dashboard/accounts', async (s) => {
    const { accounts } = await s.api.xAccounts.list();
    const rows = accounts.map((a) => [
      escapeHtml(`@${a.xUsername}`),
      escapeHtml(a.status),
      badge(a.health),
      when(a.createdAt),
      when(a.cookiesObtainedAt),
    ]);
    return {
      title: 'Connected accounts',
      main: `<h1>Connected accounts</h1>
${table('Platform accounts this account acts as', ['Account', 'Connection', 'Health', 'Connected', 'Session obtained'], rows, 'No connected accounts: connect one with the API or the CLI (xsvc x-accounts connect).')}
<p class="muted">An account whose health is <code>needsReauth</code> must log in again (<code>xsvc x-accounts reauth</code>) before it can act.</p>`,
    };
  });
}
