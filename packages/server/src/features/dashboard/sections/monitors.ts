import { z } from 'zod';
import { escapeHtml } from '../../../core/http/layout.js';
import { eventRows, newerEvents } from '../events-feed.js';
import { badge, code, table, when } from '../format.js';
import type { DashboardRoutes } from '../http.js';
import { dashboardSession } from '../session.js';

const FeedQuery = z.object({
  after: z
    .string()
    .regex(/^\d{1,25}$/)
    .optional(),
});

/** How often the page's script asks for new events (ms). */
const POLL_MS = 2_000;

/**
 * Mounts the monitors page (account and keyword monitors, and their recent events, which keep arriving while
 * the page is open) and the JSON feed its script polls.
 */
export function registerMonitors(routes: DashboardRoutes): void {
  const db = routes.services.database.db;
  routes.page('/dashboard/monitors', async (s) => {
    const [accounts, keywords, events] = await Promise.all([
      s.api.monitors.list(),
      s.api.monitors.keywords.list(),
      newerEvents(db, s.principal.accountId, undefined),
    ]);
    const monitorRows = [
      ...accounts.monitors.map((m) => [
        escapeHtml(`@${m.username}`),
        escapeHtml(m.eventTypes.join(', ')),
        badge(m.isActive ? 'active' : 'paused'),
        when(m.createdAt),
      ]),
      ...keywords.monitors.map((m) => [
        code(m.query),
        escapeHtml(m.eventTypes?.join(', ') ?? 'keyword.match'),
        badge(m.isActive ? 'active' : 'paused'),
        when(m.createdAt),
      ]),
    ];
    const newest = events[0]?.id ?? '';
    const rows = events.length
      ? eventRows(events)
      : '<tr data-empty><td colspan="4" class="muted">No events yet: they appear here as monitors find them.</td></tr>';
    return {
      title: 'Monitors',
      script: true,
      main: `<h1>Monitors</h1>
${table('Accounts and searches watched', ['Watching', 'Event types', 'Status', 'Created'], monitorRows, 'No monitors yet: create one with the API or the CLI (xsvc monitors create).')}
<h2 id="events-title">Recent events</h2>
<p class="muted">New events appear here live while the page is open (without JavaScript, <a href="/dashboard/monitors">reload</a>). <span id="feed-status" role="status" aria-live="polite"></span></p>
<table aria-labelledby="events-title"><thead><tr><th scope="col">Detected</th><th scope="col">Type</th><th scope="col">Monitor</th><th scope="col">What</th></tr></thead>
<tbody id="events" data-feed="/dashboard/monitors/feed" data-after="${escapeHtml(newest)}" data-status="feed-status" data-interval="${POLL_MS}">
${rows}
</tbody></table>`,
    };
  });

  routes.app.get('/dashboard/monitors/feed', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const s = await dashboardSession(routes.app, routes.services, request);
    if (!s)
      return reply.status(401).send({ error: 'unauthenticated', message: 'sign in to the dashboard again' });
    const q = FeedQuery.safeParse(request.query);
    if (!q.success) return reply.status(400).send({ error: 'invalid_input', message: 'after: an event id' });
    const events = await newerEvents(db, s.principal.accountId, q.data.after);
    return reply.send({
      count: events.length,
      newest: events[0]?.id ?? q.data.after ?? '',
      rows: eventRows(events),
    });
  });
}
