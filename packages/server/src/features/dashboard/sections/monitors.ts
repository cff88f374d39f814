import { z } from 'zod';
import { csrfField, escapeHtml, notice, type PageInput } from '../../../core/http/layout.js';
import { eventsPerHour, monitorActivity } from '../activity.js';
import { eventRows, newerEvents } from '../events-feed.js';
import { badge, code, count, scrollable, table, when } from '../format.js';
import { type ActionResult, apiFailure, type DashboardRoutes, doneNotice, messagePage } from '../http.js';
import { activityCell, eventsChart } from '../pictures.js';
import { type DashboardSession, dashboardSession } from '../session.js';

const FeedQuery = z.object({
  after: z
    .string()
    .regex(/^\d{1,25}$/)
    .optional(),
});

/** A monitor in a dashboard URL: its kind (account or keyword monitor) and id. */
const MonitorParams = z.object({
  kind: z.enum(['account', 'keyword']),
  id: z.string().min(1).max(100),
});
type MonitorKind = z.infer<typeof MonitorParams>['kind'];

/** How often the page's script asks for new events (ms). */
const POLL_MS = 2_000;

/** Why the service paused a monitor itself, in words. */
const PAUSED_REASONS: Record<string, string> = {
  insufficient_credits: 'out of credits',
  x_user_not_found: 'the account no longer exists',
};

/** What the redirects after an action say (fixed texts: nothing from the URL is shown). */
const DONE: Record<string, string> = {
  paused: 'The monitor is paused: no checks, events or billing until it is resumed.',
  resumed: 'The monitor is active again: it checks every second and is billed by the hour.',
  deleted: 'The monitor was deleted.',
};

/** One monitor as the page lists it, whatever its kind. */
interface Watched {
  readonly kind: MonitorKind;
  readonly id: string;
  /** What it watches, as plain text (`@jack`, or the search query). */
  readonly name: string;
  readonly eventTypes: readonly string[];
  readonly isActive: boolean;
  readonly pausedReason?: string | undefined;
  readonly createdAt: string;
}

/** The account's monitors, account monitors first. */
async function watched(s: DashboardSession): Promise<Watched[]> {
  const [accounts, keywords] = await Promise.all([s.api.monitors.list(), s.api.monitors.keywords.list()]);
  return [
    ...accounts.monitors.map((m) => ({
      kind: 'account' as const,
      id: m.id,
      name: `@${m.username}`,
      eventTypes: m.eventTypes,
      isActive: m.isActive,
      pausedReason: m.pausedReason,
      createdAt: m.createdAt,
    })),
    ...keywords.monitors.map((m) => ({
      kind: 'keyword' as const,
      id: m.id,
      name: m.query,
      eventTypes: m.eventTypes,
      isActive: m.isActive,
      createdAt: m.createdAt,
    })),
  ];
}

/** The dashboard path of a monitor (`/dashboard/monitors/account/mon_1`), with an action after it. */
function monitorPath(m: { kind: MonitorKind; id: string }, action: string): string {
  return `/dashboard/monitors/${m.kind}/${encodeURIComponent(m.id)}/${action}`;
}

/** How a monitor is named to a screen reader in its buttons: `@jack`, or `the search "query"`. */
function spoken(m: Watched): string {
  return m.kind === 'account' ? m.name : `the search "${m.name}"`;
}

/** The pause or resume button, and the link to the delete confirmation, of a monitor. */
function actions(s: DashboardSession, m: Watched): string {
  const toggle = m.isActive ? 'pause' : 'resume';
  const label = m.isActive ? 'Pause' : 'Resume';
  return `<div class="actions"><form class="inline" method="post" action="${monitorPath(m, toggle)}">${csrfField(s.csrf)}<button type="submit" class="secondary" aria-label="${escapeHtml(`${label} ${spoken(m)}`)}">${label}</button></form><a class="button danger" href="${monitorPath(m, 'delete')}" aria-label="${escapeHtml(`Delete ${spoken(m)}`)}">Delete</a></div>`;
}

/** The monitors page: each monitor with its last day and its actions, the events chart and the live feed. */
async function monitorsPage(
  s: DashboardSession,
  routes: DashboardRoutes,
  top = '',
): Promise<PageInput & { script: true }> {
  const db = routes.services.database.db;
  const now = routes.services.clock.now();
  const accountId = s.principal.accountId;
  const [monitors, events, hours, activity] = await Promise.all([
    watched(s),
    newerEvents(db, accountId, undefined),
    eventsPerHour(db, accountId, now),
    monitorActivity(db, accountId, now),
  ]);
  const monitorRows = monitors.map((m) => [
    m.kind === 'account' ? escapeHtml(m.name) : code(m.name),
    m.kind === 'account' ? 'account' : 'search',
    escapeHtml(m.eventTypes.join(', ')),
    `${badge(m.isActive ? 'active' : 'paused')}${m.pausedReason ? ` <span class="muted">${escapeHtml(PAUSED_REASONS[m.pausedReason] ?? m.pausedReason)}</span>` : ''}`,
    activityCell(activity.get(m.id), now),
    when(m.createdAt),
    actions(s, m),
  ]);
  const active = monitors.filter((m) => m.isActive).length;
  const newest = events[0]?.id ?? '';
  const rows = events.length
    ? eventRows(events)
    : '<tr data-empty><td colspan="4" class="muted">No events yet: they appear here as monitors find them.</td></tr>';
  return {
    title: 'Monitors',
    script: true,
    main: `<h1>Monitors</h1>${top}
<p class="muted">${count(monitors.length)} ${monitors.length === 1 ? 'monitor' : 'monitors'}, ${count(active)} active. Paused monitors are not checked or billed.</p>
${table('Accounts and searches watched', ['Watching', 'Kind', 'Event types', 'Status', 'Last 24 hours', 'Created', 'Actions'], monitorRows, 'No monitors yet: create one with the API or the CLI (xsvc monitors create).')}
${eventsChart(hours)}
<h2 id="events-title">Recent events</h2>
<p class="muted">New events appear here live while the page is open (without JavaScript, <a href="/dashboard/monitors">reload</a>). <span id="feed-status" role="status" aria-live="polite"></span></p>
${scrollable(
  'Recent events',
  `<table aria-labelledby="events-title"><thead><tr><th scope="col">Detected</th><th scope="col">Type</th><th scope="col">Monitor</th><th scope="col">What</th></tr></thead>
<tbody id="events" data-feed="/dashboard/monitors/feed" data-after="${escapeHtml(newest)}" data-status="feed-status" data-interval="${POLL_MS}">
${rows}
</tbody></table>`,
)}`,
  };
}

/** The page that asks before a monitor is deleted (deleting cannot be undone). */
function confirmDeletePage(s: DashboardSession, m: Watched): PageInput {
  return {
    title: 'Delete the monitor?',
    main: `<h1>Delete the monitor of ${escapeHtml(m.kind === 'account' ? m.name : `"${m.name}"`)}?</h1>
<p>Deleting stops its checks, events, deliveries and billing for good; it cannot be undone. Its events stored so far stay listed. To stop it for a while instead, pause it.</p>
<form method="post" action="${monitorPath(m, 'delete')}">${csrfField(s.csrf)}
<button type="submit" class="danger">Delete ${escapeHtml(spoken(m))}</button>
<a class="button secondary" href="/dashboard/monitors">Cancel</a></form>`,
  };
}

/** The monitor a URL names, if this session's account has it. */
async function findMonitor(s: DashboardSession, params: unknown): Promise<Watched | undefined> {
  const parsed = MonitorParams.safeParse(params);
  if (!parsed.success) return undefined;
  const { kind, id } = parsed.data;
  return (await watched(s)).find((m) => m.kind === kind && m.id === id);
}

/**
 * Mounts the monitors page (account and keyword monitors with their recent activity and actions, the events
 * per hour, and the recent events, which keep arriving while the page is open), the JSON feed its script
 * polls, and the pause, resume and delete actions (delete after a confirmation page).
 */
export function registerMonitors(routes: DashboardRoutes): void {
  const db = routes.services.database.db;
  routes.page('/dashboard/monitors', async (s, request) => {
    const done = doneNotice(request, DONE);
    return monitorsPage(s, routes, done ? notice('ok', done) : '');
  });

  /** Runs an action on the monitor of the URL: unknown ones answer 404, refusals of the API a notice. */
  const act = (name: string, run: (s: DashboardSession, m: Watched) => Promise<ActionResult>) =>
    routes.action(`/dashboard/monitors/:kind/:id/${name}`, async (s, request) => {
      const m = await findMonitor(s, request.params);
      if (!m)
        return {
          page: await monitorsPage(s, routes, notice('error', 'There is no such monitor.')),
          status: 404,
        };
      try {
        return await run(s, m);
      } catch (err) {
        return { page: await monitorsPage(s, routes, notice('error', apiFailure(err))), status: 400 };
      }
    });
  const setActive = (s: DashboardSession, m: Watched, isActive: boolean) =>
    m.kind === 'account'
      ? s.api.monitors.update(m.id, { isActive })
      : s.api.monitors.keywords.update(m.id, { isActive });
  act('pause', async (s, m) => {
    await setActive(s, m, false);
    return { redirect: '/dashboard/monitors?done=paused' };
  });
  act('resume', async (s, m) => {
    await setActive(s, m, true);
    return { redirect: '/dashboard/monitors?done=resumed' };
  });
  act('delete', async (s, m) => {
    await (m.kind === 'account' ? s.api.monitors.delete(m.id) : s.api.monitors.keywords.delete(m.id));
    return { redirect: '/dashboard/monitors?done=deleted' };
  });
  routes.page('/dashboard/monitors/:kind/:id/delete', async (s, request) => {
    const m = await findMonitor(s, request.params);
    return m
      ? confirmDeletePage(s, m)
      : messagePage('No such monitor', 'This monitor does not exist or was already deleted.');
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
