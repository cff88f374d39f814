import { escapeHtml } from '../../../core/http/layout.js';
import { creditsSpentPerDay, monitorActivity } from '../activity.js';
import { allowance, code, count, facts, signedCount, table, when } from '../format.js';
import type { DashboardRoutes } from '../http.js';
import { recentLedger } from '../ledger.js';
import { creditsChart, monitorsTile, overviewCharts } from '../pictures.js';

/** Mounts the overview (plan, balance, monitors, endpoints needing attention) and the credits page. */
export function registerAccount(routes: DashboardRoutes): void {
  const db = routes.services.database.db;
  routes.page('/dashboard', async (s) => {
    const now = routes.services.clock.now();
    const [account, { webhooks }, { keys }, charts, accounts, searches, activity] = await Promise.all([
      s.api.account.get(),
      s.api.webhooks.list(),
      s.api.apiKeys.list(),
      overviewCharts(db, s.principal.accountId, now),
      s.api.monitors.list(),
      s.api.monitors.keywords.list(),
      monitorActivity(db, s.principal.accountId, now),
    ]);
    const monitors = [
      ...accounts.monitors.map((m) => ({ id: m.id, name: `@${m.username}`, isActive: m.isActive })),
      ...searches.monitors.map((m) => ({ id: m.id, name: m.query, isActive: m.isActive })),
    ];
    const attention = webhooks.filter((w) => w.deliveryStatus === 'needs_attention').length;
    return {
      title: 'Overview',
      main: `<h1>Overview</h1>
${facts([
  ['Signed in as', escapeHtml(s.email)],
  ['Plan', escapeHtml(account.plan)],
  ['Credit balance', `${escapeHtml(count(account.creditInfo?.balance ?? '0'))} credits`],
  ['Active monitors', `${count(account.monitorsUsed)} of ${allowance(account.monitorsAllowed)}`],
  ['Active API keys', count(keys.filter((k) => k.isActive).length)],
  ['Webhooks needing attention', attention ? `<a href="/dashboard/webhooks">${count(attention)}</a>` : '0'],
])}
<div class="charts">
${charts.credits}
${charts.events}
${charts.deliveries}
${monitorsTile(monitors, activity, now)}
</div>`,
    };
  });

  routes.page('/dashboard/credits', async (s) => {
    const [account, credits, ledger, days] = await Promise.all([
      s.api.account.get(),
      s.api.credits.get(),
      recentLedger(db, s.principal.accountId),
      creditsSpentPerDay(db, s.principal.accountId, routes.services.clock.now()),
    ]);
    const billing = account.monitorBilling;
    const rows = ledger.map((l) => [
      when(l.at),
      code(l.operation),
      count(l.units),
      escapeHtml(signedCount(l.delta)),
      escapeHtml(count(l.balanceAfter)),
    ]);
    return {
      title: 'Credits',
      main: `<h1>Credits and plan</h1>
${facts([
  ['Plan', escapeHtml(account.plan)],
  ['Balance', `${escapeHtml(count(credits.balance))} credits`],
  ['Used (lifetime)', `${escapeHtml(count(credits.lifetime_used))} credits`],
  ['Purchased (lifetime)', `${escapeHtml(count(credits.lifetime_purchased))} credits`],
  [
    'Auto top-up',
    credits.auto_topup_enabled
      ? escapeHtml(
          `on: $${count(credits.auto_topup_amount_dollars)} when the balance falls below ${count(credits.auto_topup_threshold)} credits`,
        )
      : 'off',
  ],
  ['Active monitors', `${count(account.monitorsUsed)} of ${allowance(account.monitorsAllowed)}`],
  [
    'Monitor cost',
    escapeHtml(
      `${count(billing.creditsPerActiveMonitorHour)} credits an hour per active monitor (${count(billing.activeHourlyBurn)} an hour now, about ${count(billing.activeDailyEstimate)} a day)`,
    ),
  ],
])}
${creditsChart(days)}
<h2>Ledger</h2>
${table('The 50 most recent charges and grants', ['When', 'Operation', 'Units', 'Credits', 'Balance after'], rows, 'No charges or grants yet.', [2, 3, 4])}`,
    };
  });
}
