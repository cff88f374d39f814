/**
 * The dashboard's pictures of the stored rows: credits spent per day, events per hour by type, webhook
 * delivery attempts per hour with their failure rate, and each monitor's last day (see `activity.ts` for the
 * queries and `charts.ts` for the drawing).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { escapeHtml } from '../../core/http/layout.js';
import {
  type AttemptCounts,
  type Bucket,
  CHART_DAYS,
  CHART_HOURS,
  type CountsByType,
  creditsSpentPerDay,
  deliveryAttemptsPerHour,
  eventsPerHour,
  HOUR_MS,
  type MonitorActivity,
} from './activity.js';
import { barChart, type ChartLink, PALETTE, sparkline } from './charts.js';
import { count, readableTime } from './format.js';

const HOUR = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const DAY = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const LONG_DAY = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

/** `17:00`. */
const hourLabel = (start: number) => HOUR.format(start);
/** `2 Dec, 17:00-18:00 UTC`. */
const hourTitle = (start: number) =>
  `${DAY.format(start)}, ${HOUR.format(start)}–${HOUR.format(start + HOUR_MS)} UTC`;
/** `2 Dec`. */
const dayLabel = (start: number) => DAY.format(start);
/** `Wed, 2 Dec 2026`. */
const dayTitle = (start: number) => LONG_DAY.format(start);

/** How a chart is placed: compact (half the column, on the overview), with a link to its page. */
export interface ChartPlace {
  readonly compact?: boolean;
  readonly more?: ChartLink;
}

/** `1 event`, `2 events`, `1,234 credits`. */
function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** The bucket with the most (the first of equals), or undefined when all are zero. */
function busiest<T>(buckets: readonly Bucket<T>[], total: (v: T) => number): Bucket<T> | undefined {
  let best: Bucket<T> | undefined;
  for (const b of buckets) if (total(b.value) > (best ? total(best.value) : 0)) best = b;
  return best;
}

/** The chart of credits spent per day over the last 30 days. */
export function creditsChart(days: readonly Bucket<number>[], place: ChartPlace = {}): string {
  const total = days.reduce((a, d) => a + d.value, 0);
  const top = busiest(days, (v) => v);
  const summary = top
    ? `${plural(total, 'credit')} spent in the last ${CHART_DAYS} days; the most on ${dayTitle(top.start)}: ${count(top.value)}.`
    : `No credits spent in the last ${CHART_DAYS} days.`;
  return barChart({
    id: 'chart-credits',
    title: `Credits spent per day, last ${CHART_DAYS} days`,
    summary,
    series: [{ label: 'Credits spent', color: PALETTE[0] }],
    buckets: days.map((d) => ({ start: d.start, value: [d.value] })),
    bucketLabel: dayLabel,
    bucketTitle: dayTitle,
    labelEvery: [5, 10],
    unit: 'credits',
    emptyText: 'No credits spent yet',
    ...place,
  });
}

/** How many event types the events chart shows by name; the rest are summed as "other types". */
const NAMED_TYPES = PALETTE.length - 1;

/** The chart of events stored per hour over the last 24 hours, stacked by event type. */
export function eventsChart(hours: readonly Bucket<CountsByType>[], place: ChartPlace = {}): string {
  const totals = new Map<string, number>();
  for (const h of hours) for (const [type, n] of h.value) totals.set(type, (totals.get(type) ?? 0) + n);
  const ranked = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const named = ranked.length > NAMED_TYPES + 1 ? ranked.slice(0, NAMED_TYPES) : ranked;
  const others = ranked.length > named.length;
  const series = [
    ...named.map(([type], i) => ({ label: type, color: PALETTE[i] ?? PALETTE[0] })),
    ...(others ? [{ label: 'other types', color: PALETTE[5] }] : []),
  ];
  const buckets = hours.map((h) => {
    const values = named.map(([type]) => h.value.get(type) ?? 0);
    if (others) {
      const all = [...h.value.values()].reduce((a, n) => a + n, 0);
      values.push(all - values.reduce((a, n) => a + n, 0));
    }
    return { start: h.start, value: values };
  });
  const total = ranked.reduce((a, [, n]) => a + n, 0);
  const top = busiest(buckets, (v) => v.reduce((a, n) => a + n, 0));
  const byType = ranked
    .slice(0, 3)
    .map(([type, n]) => `${count(n)} ${type}`)
    .join(', ');
  const summary = top
    ? `${plural(total, 'event')} in the last ${CHART_HOURS} hours (${byType}${ranked.length > 3 ? ', …' : ''}); the busiest hour began at ${hourLabel(top.start)} UTC with ${count(top.value.reduce((a, n) => a + n, 0))}.`
    : `No events in the last ${CHART_HOURS} hours.`;
  return barChart({
    id: 'chart-events',
    title: `Events per hour by type, last ${CHART_HOURS} hours`,
    summary,
    series: series.length ? series : [{ label: 'events', color: PALETTE[0] }],
    buckets: series.length ? buckets : hours.map((h) => ({ start: h.start, value: [0] })),
    bucketLabel: hourLabel,
    bucketTitle: hourTitle,
    labelEvery: [3, 6],
    unit: 'events',
    emptyText: 'No events in the last 24 hours',
    legend: series.length > 0,
    ...place,
  });
}

/** The chart of webhook delivery attempts per hour over the last 24 hours, with the share that failed. */
export function deliveriesChart(hours: readonly Bucket<AttemptCounts>[], place: ChartPlace = {}): string {
  const delivered = hours.reduce((a, h) => a + h.value.delivered, 0);
  const failed = hours.reduce((a, h) => a + h.value.failed, 0);
  const all = delivered + failed;
  const summary = all
    ? `${plural(all, 'delivery attempt')} in the last ${CHART_HOURS} hours: ${count(delivered)} delivered, ${count(failed)} failed (${Math.round((failed / all) * 100)}% failure rate).`
    : `No webhook deliveries in the last ${CHART_HOURS} hours.`;
  return barChart({
    id: 'chart-deliveries',
    title: `Webhook deliveries per hour, last ${CHART_HOURS} hours`,
    summary,
    series: [
      { label: 'Delivered', color: PALETTE[2] },
      { label: 'Failed', color: PALETTE[4] },
    ],
    buckets: hours.map((h) => ({ start: h.start, value: [h.value.delivered, h.value.failed] })),
    bucketLabel: hourLabel,
    bucketTitle: hourTitle,
    labelEvery: [3, 6],
    unit: 'attempts',
    emptyText: 'No deliveries in the last 24 hours',
    ...place,
    rate: {
      label: 'Failure rate',
      values: hours.map((h) => {
        const n = h.value.delivered + h.value.failed;
        return n ? h.value.failed / n : null;
      }),
    },
  });
}

/**
 * A monitor's recent activity for its row: a sparkline of its last 24 hours, how many events they held and
 * when it last found one (the text says what the picture shows).
 */
export function activityCell(activity: MonitorActivity | undefined, now: number): string {
  if (!activity) return '<span class="muted">No events yet</span>';
  const total = activity.hourly.reduce((a, b) => a + b.value, 0);
  const text = `${plural(total, 'event')} in ${CHART_HOURS} h`;
  const last = activity.lastEventAt;
  const ago = last === undefined ? '' : `last event ${sinceText(now - last)}`;
  const label = `${text}${ago ? `, ${ago}` : ''}: events per hour, last ${CHART_HOURS} hours`;
  return `<span class="activity">${sparkline(activity.hourly, label)}<span><span>${text}</span>${last === undefined ? '' : `<br><span class="muted" title="${readableTime(last)}">${ago}</span>`}</span></span>`;
}

/** How long ago, in words: `just now`, `5 min ago`, `3 h ago`, `2 days ago`. */
export function sinceText(ms: number): string {
  if (ms < 60_000) return 'just now';
  if (ms < HOUR_MS) return `${Math.floor(ms / 60_000)} min ago`;
  if (ms < 48 * HOUR_MS) return `${Math.floor(ms / HOUR_MS)} h ago`;
  return `${Math.floor(ms / (24 * HOUR_MS))} days ago`;
}

/** The three charts of the overview, read from the stored rows of the account. */
export async function overviewCharts(
  db: Kysely<Database>,
  accountId: string,
  now: number,
): Promise<{ credits: string; events: string; deliveries: string }> {
  const [days, events, deliveries] = await Promise.all([
    creditsSpentPerDay(db, accountId, now),
    eventsPerHour(db, accountId, now),
    deliveryAttemptsPerHour(db, accountId, now),
  ]);
  return {
    credits: creditsChart(days, {
      compact: true,
      more: { href: '/dashboard/credits', label: 'The ledger of charges and grants' },
    }),
    events: eventsChart(events, {
      compact: true,
      more: { href: '/dashboard/monitors', label: 'Each monitor and its events' },
    }),
    deliveries: deliveriesChart(deliveries, {
      compact: true,
      more: { href: '/dashboard/webhooks', label: 'Each endpoint and its delivery log' },
    }),
  };
}

/** A monitor as the overview's activity list names it. */
export interface NamedMonitor {
  readonly id: string;
  /** `@jack`, or the search query. */
  readonly name: string;
  readonly isActive: boolean;
}

/** How many monitors the overview lists (the busiest first). */
const OVERVIEW_MONITORS = 6;

/**
 * The overview's tile of monitors: the busiest of the last 24 hours, each with its sparkline and counts,
 * as a list (the text carries what the pictures show), and a link to all of them.
 */
export function monitorsTile(
  monitors: readonly NamedMonitor[],
  activity: ReadonlyMap<string, MonitorActivity>,
  now: number,
): string {
  const total = (m: NamedMonitor) => activity.get(m.id)?.hourly.reduce((a, b) => a + b.value, 0) ?? 0;
  const ranked = [...monitors].sort((a, b) => total(b) - total(a) || a.name.localeCompare(b.name));
  const shown = ranked.slice(0, OVERVIEW_MONITORS);
  const items = shown
    .map(
      (m) =>
        `<li><span class="name">${escapeHtml(m.name)}${m.isActive ? '' : ' <span class="muted">(paused)</span>'}</span>${activityCell(activity.get(m.id), now)}</li>`,
    )
    .join('');
  const rest = ranked.length - shown.length;
  const summary = monitors.length
    ? `${plural(monitors.length, 'monitor')}; the busiest of the last ${CHART_HOURS} hours first.`
    : 'No monitors yet: create one with the API or the CLI (xsvc monitors create).';
  return `<section class="chart" aria-labelledby="tile-monitors-title">
<h2 class="chart-title" id="tile-monitors-title">Monitors, last ${CHART_HOURS} hours</h2>
<p class="chart-summary">${escapeHtml(summary)}</p>
${items ? `<ul class="monitor-list">${items}</ul>` : ''}
<p class="chart-more"><a href="/dashboard/monitors">${rest > 0 ? `All ${count(monitors.length)} monitors` : 'Pause, resume or delete a monitor'}</a></p>
</section>`;
}
