import { type Kysely, sql } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';

/** An hour and a day in milliseconds: the buckets of the dashboard's charts (UTC). */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** How far back the charts look: the last 24 hours by the hour, the last 30 days by the day. */
export const CHART_HOURS = 24;
export const CHART_DAYS = 30;

/** One bucket of a chart: its start (epoch ms, UTC) and its values. */
export interface Bucket<T> {
  readonly start: number;
  readonly value: T;
}

/**
 * The `count` buckets of `size` ms ending with the one that holds `now` (the current, partial hour or day),
 * each filled by `fill` from the rows found for it (or `empty` when none).
 */
function buckets<T>(
  now: number,
  size: number,
  count: number,
  found: Map<number, T>,
  empty: () => T,
): Bucket<T>[] {
  const last = now - (now % size);
  return Array.from({ length: count }, (_, i) => {
    const start = last - (count - 1 - i) * size;
    return { start, value: found.get(start) ?? empty() };
  });
}

/** The first instant of the window of `count` buckets of `size` ms ending with the one holding `now`. */
export function windowStart(now: number, size: number, count: number): number {
  return now - (now % size) - (count - 1) * size;
}

/**
 * The bucket of an epoch-ms column, as SQL both engines run alike: integer arithmetic on the column
 * (`bigint` on Postgres, `INTEGER` on SQLite). The size is written into the SQL, not bound, so the same
 * expression can be selected and grouped by on Postgres.
 */
function bucketOf(column: string, size: typeof HOUR_MS | typeof DAY_MS) {
  return sql<number | string>`${sql.ref(column)} - (${sql.ref(column)} % ${sql.lit(size)})`;
}

/**
 * Credits spent per UTC day over the last {@link CHART_DAYS} days, oldest first: the sum of the account's
 * charges (negative ledger lines) of each day, read from the credit ledger.
 */
export async function creditsSpentPerDay(
  db: Kysely<Database>,
  accountId: string,
  now: number,
): Promise<Bucket<number>[]> {
  const day = bucketOf('created_at', DAY_MS);
  const rows = await db
    .selectFrom('credit_ledger')
    .select([day.as('bucket'), sql<number | string>`sum(0 - delta)`.as('spent')])
    .where('account_id', '=', accountId)
    .where('delta', '<', 0)
    .where('created_at', '>=', windowStart(now, DAY_MS, CHART_DAYS))
    .where('created_at', '<=', now)
    .groupBy(day)
    .execute();
  const found = new Map(rows.map((r) => [num(r.bucket), num(r.spent)]));
  return buckets(now, DAY_MS, CHART_DAYS, found, () => 0);
}

/** Events of one hour, by event type. */
export type CountsByType = ReadonlyMap<string, number>;

/**
 * The account's stored events per UTC hour over the last {@link CHART_HOURS} hours, by event type, oldest
 * first (by when each event was stored).
 */
export async function eventsPerHour(
  db: Kysely<Database>,
  accountId: string,
  now: number,
): Promise<Bucket<CountsByType>[]> {
  const hour = bucketOf('created_at', HOUR_MS);
  const rows = await db
    .selectFrom('events')
    .select([hour.as('bucket'), 'event_type', sql<number | string>`count(*)`.as('n')])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', windowStart(now, HOUR_MS, CHART_HOURS))
    .where('created_at', '<=', now)
    .groupBy([hour, 'event_type'])
    .execute();
  const found = new Map<number, Map<string, number>>();
  for (const r of rows) {
    const start = num(r.bucket);
    const byType = found.get(start) ?? new Map<string, number>();
    byType.set(r.event_type, num(r.n));
    found.set(start, byType);
  }
  return buckets<CountsByType>(now, HOUR_MS, CHART_HOURS, found, () => new Map());
}

/** The webhook delivery attempts of one hour: how many were made and how many of them failed. */
export interface AttemptCounts {
  readonly delivered: number;
  readonly failed: number;
}

/**
 * The account's webhook delivery attempts per UTC hour over the last {@link CHART_HOURS} hours, oldest
 * first: those that delivered and those that failed (to be retried, or given up), from the attempts the
 * delivery engine records (signed tests sent from the dashboard are not deliveries and are not counted):
 * the failed ones' history rows, and the delivering ones, each recorded on its delivery (migration 0025;
 * delivered before it, with a history row of its own and nothing on the delivery).
 */
export async function deliveryAttemptsPerHour(
  db: Kysely<Database>,
  accountId: string,
  now: number,
): Promise<Bucket<AttemptCounts>[]> {
  const from = windowStart(now, HOUR_MS, CHART_HOURS);
  const hour = bucketOf('started_at', HOUR_MS);
  const lastHour = bucketOf('last_started_at', HOUR_MS);
  const [rows, delivered] = await Promise.all([
    db
      .selectFrom('webhook_delivery_attempts')
      .select([
        hour.as('bucket'),
        sql<number | string>`count(*)`.as('total'),
        sql<number | string>`sum(case when outcome = 'delivered' then 1 else 0 end)`.as('delivered'),
      ])
      .where('account_id', '=', accountId)
      .where('started_at', '>=', from)
      .where('started_at', '<=', now)
      .groupBy(hour)
      .execute(),
    db
      .selectFrom('webhook_deliveries')
      .select([lastHour.as('bucket'), sql<number | string>`count(*)`.as('delivered')])
      .where('account_id', '=', accountId)
      .where('status', '=', 'delivered')
      .where('last_started_at', '>=', from)
      .where('last_started_at', '<=', now)
      .groupBy(lastHour)
      .execute(),
  ]);
  const found = new Map<number, AttemptCounts>();
  for (const r of rows) {
    const ok = num(r.delivered);
    found.set(num(r.bucket), { delivered: ok, failed: num(r.total) - ok });
  }
  for (const r of delivered) {
    const at = found.get(num(r.bucket)) ?? { delivered: 0, failed: 0 };
    found.set(num(r.bucket), { delivered: at.delivered + num(r.delivered), failed: at.failed });
  }
  return buckets<AttemptCounts>(now, HOUR_MS, CHART_HOURS, found, () => ({ delivered: 0, failed: 0 }));
}

/** One monitor's recent activity: its events per hour over the last day, and when it last found one. */
export interface MonitorActivity {
  /** Events per UTC hour, the last {@link CHART_HOURS} hours, oldest first. */
  readonly hourly: Bucket<number>[];
  /** When its newest stored event was stored (epoch ms), at any time; undefined when it has none. */
  readonly lastEventAt: number | undefined;
}

/**
 * The recent activity of each of the account's monitors (account and keyword monitors alike), by monitor
 * id. Monitors without any event have no entry.
 */
export async function monitorActivity(
  db: Kysely<Database>,
  accountId: string,
  now: number,
): Promise<Map<string, MonitorActivity>> {
  const hour = bucketOf('created_at', HOUR_MS);
  const monitor = sql<string>`coalesce(monitor_id, keyword_monitor_id)`;
  const [hourly, latest] = await Promise.all([
    db
      .selectFrom('events')
      .select([monitor.as('monitor'), hour.as('bucket'), sql<number | string>`count(*)`.as('n')])
      .where('account_id', '=', accountId)
      .where('created_at', '>=', windowStart(now, HOUR_MS, CHART_HOURS))
      .where('created_at', '<=', now)
      .groupBy([monitor, hour])
      .execute(),
    db
      .selectFrom('events')
      .select([monitor.as('monitor'), sql<number | string>`max(created_at)`.as('last')])
      .where('account_id', '=', accountId)
      .where(monitor, 'is not', null)
      .groupBy(monitor)
      .execute(),
  ]);
  const counts = new Map<string, Map<number, number>>();
  for (const r of hourly) {
    if (r.monitor === null) continue;
    const byHour = counts.get(r.monitor) ?? new Map<number, number>();
    byHour.set(num(r.bucket), num(r.n));
    counts.set(r.monitor, byHour);
  }
  const result = new Map<string, MonitorActivity>();
  for (const r of latest) {
    result.set(r.monitor, {
      hourly: buckets(now, HOUR_MS, CHART_HOURS, counts.get(r.monitor) ?? new Map(), () => 0),
      lastEventAt: num(r.last),
    });
  }
  return result;
}
