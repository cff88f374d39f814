import { escapeHtml } from '../../../core/http/layout.js';
import { code, facts, table, when } from '../format.js';
import type { DashboardRoutes } from '../http.js';
import { recentLedger } from '../ledger.js';

/** Mounts the overview (plan, balance, monitors, endpoints needing attention) and the credits page. */
export function registerAccount(routes: DashboardRoutes): void {
  routes.page('/dashboard', async (s) => {
    const [account, { webhooks }, { keys }] = await Promise.all([
      s.api.account.get(),
      s.api.webhooks.list(),
      s.api.apiKeys.list(),
    ]);
    const attention = webhooks.filter((w) => w.deliveryStatus === 'needs_attention').length;
    return {
      title: 'Overview',
      main: `<h1>Overview</h1>
${facts([
  ['Signed in as', escapeHtml(s.email)],
  ['Plan', escapeHtml(account.plan)],
  ['Credit balance', escapeHtml(account.creditInfo?.balance ?? '0')],
  ['Active monitors', String(account.monitorsUsed)],
  ['Active API keys', String(keys.filter((k) => k.isActive).length)],
  ['Webhooks needing attention', attention ? `<a href="/dashboard/webhooks">${attention}</a>` : '0'],
])}`,
    };
  });

  routes.page('/dashboard/credits', async (s) => {
    const [account, credits, ledger] = await Promise.all([
      s.api.account.get(),
      s.api.credits.get(),
      recentLedger(routes.services.database.db, s.principal.accountId),
    ]);
    const billing = account.monitorBilling;
    const rows = ledger.map((l) => [
      when(l.at),
      code(l.operation),
      escapeHtml(l.units),
      escapeHtml(l.delta.startsWith('-') ? l.delta : `+${l.delta}`),
      escapeHtml(l.balanceAfter),
    ]);
    return {
      title: 'Credits',
      main: `<h1>Credits and plan</h1>
${facts([
  ['Plan', escapeHtml(account.plan)],
  ['Balance', escapeHtml(credits.balance)],
  ['Used (lifetime)', escapeHtml(credits.lifetime_used)],
  ['Purchased (lifetime)', escapeHtml(credits.lifetime_purchased)],
  [
    'Auto top-up',
    credits.auto_topup_enabled
      ? escapeHtml(`on: $${credits.auto_topup_amount_dollars} below ${credits.auto_topup_threshold} credits`)
      : 'off',
  ],
  ['Active monitors', String(account.monitorsUsed)],
  ['Monitor cost', escapeHtml(`${billing.creditsPerActiveMonitorHour} credits an hour per active monitor`)],
])}
<h2>Ledger</h2>
${table('The 50 most recent charges and grants', ['When', 'Operation', 'Units', 'Credits', 'Balance after'], rows, 'No charges or grants yet.')}`,
    };
  });
}
