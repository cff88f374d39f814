import { limits } from '@xsvc/sdk/contract';
import { z } from 'zod';
import { num } from '../../../core/db/database.js';
import { csrfField, escapeHtml, notice, type PageInput } from '../../../core/http/layout.js';
import type { DeliveryAttempt, Ports } from '../../../core/ports.js';
import { deliveryAttemptsPerHour } from '../activity.js';
import { badge, code, count, table, when } from '../format.js';
import { type ActionResult, apiFailure, type DashboardRoutes, doneNotice } from '../http.js';
import { deliveriesChart } from '../pictures.js';
import type { DashboardSession } from '../session.js';

const HookParams = z.object({ id: z.string().min(1).max(100) });

/** The webhooks page: each endpoint's health, with the signed test and the test-then-resume actions. */
async function webhooksPage(s: DashboardSession, routes: DashboardRoutes, top = ''): Promise<PageInput> {
  const [{ webhooks }, hours] = await Promise.all([
    s.api.webhooks.list(),
    deliveryAttemptsPerHour(routes.services.database.db, s.principal.accountId, routes.services.clock.now()),
  ]);
  const button = (id: string, action: 'test' | 'resume', label: string, url: string) =>
    `<form class="inline" method="post" action="/dashboard/webhooks/${encodeURIComponent(id)}/${action}">${csrfField(s.csrf)}<button type="submit" class="${action === 'resume' ? '' : 'secondary'}" aria-label="${escapeHtml(`${label}: ${url}`)}">${escapeHtml(label)}</button></form>`;
  const rows = webhooks.map((w) => [
    `<a href="/dashboard/webhooks/${encodeURIComponent(w.id)}">${escapeHtml(w.url)}</a>`,
    escapeHtml(w.eventTypes.join(', ')),
    `${badge(w.isActive ? w.deliveryStatus : 'inactive')}${w.deliveryStatus === 'needs_attention' ? ' <span class="muted">deliveries are parked until it is resumed</span>' : ''}`,
    escapeHtml(`${count(w.consecutiveFailures)} of ${count(w.failureHardCap)}`),
    w.isActive
      ? w.deliveryStatus === 'active'
        ? button(w.id, 'test', 'Send a signed test', w.url)
        : button(w.id, 'resume', 'Send a signed test and resume', w.url)
      : '<span class="muted">switched off</span>',
  ]);
  return {
    title: 'Webhooks',
    main: `<h1>Webhooks</h1>${top}
${table('Endpoints and their health', ['Endpoint', 'Event types', 'Status', 'Failures in a row', 'Action'], rows, 'No webhooks yet: create one with the API or the CLI (xsvc webhooks create).')}
<p class="muted">An endpoint that keeps failing is set to <code>needs_attention</code>: fix it, then send a signed test; when the test succeeds, deliveries resume.</p>
${deliveriesChart(hours)}`,
  };
}

/** What became of a delivery: when it arrived, when it is retried, or why it waits. */
function outcome(
  d: { deliveredAt?: string | null | undefined; nextAttemptAt?: string | null | undefined; status: string },
  endpointStatus: string | undefined,
): string {
  if (d.deliveredAt) return `delivered ${when(d.deliveredAt)}`;
  if (d.nextAttemptAt) return `next attempt ${when(d.nextAttemptAt)}`;
  if (d.status === 'exhausted') return `gave up after ${limits.webhookAttempts} attempts`;
  if (endpointStatus === 'needs_attention') return 'parked until the endpoint is resumed';
  return '';
}

/** What an attempt came to, by the delivery status it led to. */
const ATTEMPT_OUTCOME: Record<string, string> = {
  delivered: 'delivered',
  failed: 'failed, to be retried',
  exhausted: 'failed, given up',
};

/** One attempt as a row of the attempts table. */
function attemptCells(a: DeliveryAttempt, eventType: string): string[] {
  return [
    code(a.delivery_id),
    escapeHtml(eventType),
    escapeHtml(`${num(a.attempt)} of ${limits.webhookAttempts}`),
    when(new Date(num(a.started_at)).toISOString()),
    a.status_code === null ? '<span class="muted">no answer</span>' : escapeHtml(String(a.status_code)),
    a.error === null ? '' : escapeHtml(a.error),
    escapeHtml(`${count(num(a.duration_ms))} ms`),
    escapeHtml(ATTEMPT_OUTCOME[a.outcome] ?? a.outcome),
  ];
}

/**
 * The delivery log of one endpoint: each delivery with its attempts, last answer and next retry, then every
 * attempt of those deliveries (time, HTTP status, error, duration). The API's delivery record only counts
 * attempts, so their history is read from the table the delivery engine writes.
 */
async function deliveriesPage(s: DashboardSession, id: string, ports: Ports): Promise<PageInput> {
  const [{ webhooks }, { deliveries }] = await Promise.all([
    s.api.webhooks.list(),
    s.api.webhooks.deliveries(id),
  ]);
  const hook = webhooks.find((w) => w.id === id);
  // Only deliveries the API just answered for this session's account: their ids scope the read.
  const attempts = await ports.deliveryAttempts(
    s.principal.accountId,
    id,
    deliveries.map((d) => d.deliveryId),
  );
  const byDelivery = new Map<string, DeliveryAttempt[]>();
  for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
  const attemptRows = deliveries.flatMap((d) =>
    (byDelivery.get(d.deliveryId) ?? []).map((a) => attemptCells(a, d.eventType)),
  );
  const rows = deliveries.map((d) => [
    when(d.createdAt),
    escapeHtml(d.eventType),
    badge(d.status),
    escapeHtml(`${d.attempts} of ${limits.webhookAttempts}`),
    d.lastStatusCode ? String(d.lastStatusCode) : '<span class="muted">—</span>',
    escapeHtml(d.lastError ?? ''),
    outcome(d, hook?.deliveryStatus),
    code(d.deliveryId),
  ]);
  return {
    title: 'Deliveries',
    main: `<h1>Deliveries</h1>
<p>Endpoint ${hook ? code(hook.url) : code(id)} · <a href="/dashboard/webhooks">All webhooks</a></p>
${table('Most recent deliveries, newest first', ['Queued', 'Event', 'Status', 'Attempts', 'Last HTTP status', 'Last error', 'Outcome', 'Delivery id'], rows, 'No deliveries yet.')}
<h2>Attempts</h2>
${table('Each attempt of these deliveries: newest delivery first, its attempts in order', ['Delivery id', 'Event', 'Attempt', 'Started', 'HTTP status', 'Error', 'Duration', 'Outcome'], attemptRows, 'No attempts yet.')}`,
  };
}

/** Runs a webhook action, answering the page with what happened. */
async function hookAction(
  s: DashboardSession,
  routes: DashboardRoutes,
  params: unknown,
  run: (id: string) => Promise<ActionResult>,
): Promise<ActionResult> {
  const parsed = HookParams.safeParse(params);
  if (!parsed.success)
    return { page: await webhooksPage(s, routes, notice('error', 'Unknown webhook.')), status: 404 };
  try {
    return await run(parsed.data.id);
  } catch (err) {
    return { page: await webhooksPage(s, routes, notice('error', apiFailure(err))), status: 400 };
  }
}

/** Mounts the webhooks page, each endpoint's delivery log, and the test and resume actions. */
export function registerWebhooks(routes: DashboardRoutes): void {
  routes.page('/dashboard/webhooks', async (s, request) => {
    const done = doneNotice(request, {
      resumed: 'The signed test succeeded: the endpoint is active again and its parked deliveries resume.',
    });
    return webhooksPage(s, routes, done ? notice('ok', done) : '');
  });
  routes.page('/dashboard/webhooks/:id', async (s, request) => {
    const parsed = HookParams.safeParse(request.params);
    if (!parsed.success) return webhooksPage(s, routes, notice('error', 'Unknown webhook.'));
    try {
      return await deliveriesPage(s, parsed.data.id, routes.services.ports);
    } catch (err) {
      return webhooksPage(s, routes, notice('error', apiFailure(err)));
    }
  });
  routes.action('/dashboard/webhooks/:id/test', (s, request) =>
    hookAction(s, routes, request.params, async (id) => {
      const r = await s.api.webhooks.test(id);
      const text = r.success
        ? `The signed test was delivered (HTTP ${r.statusCode}).`
        : `The signed test failed: ${r.error ?? `HTTP ${r.statusCode}`}.`;
      return { page: await webhooksPage(s, routes, notice(r.success ? 'ok' : 'error', text)) };
    }),
  );
  routes.action('/dashboard/webhooks/:id/resume', (s, request) =>
    hookAction(s, routes, request.params, async (id) => {
      await s.api.webhooks.resume(id);
      return { redirect: '/dashboard/webhooks?done=resumed' };
    }),
  );
}
