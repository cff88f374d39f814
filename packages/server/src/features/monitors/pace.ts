import type { Kysely } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { HttpError } from '../../core/http/errors.js';
import type { MonitorLoad, MonitorPace, Platform } from '../../core/platform/platform.js';
import type { Services } from '../../core/services.js';
import { DEFAULT_TIMING } from './engine/timing.js';

/** What the pace of the monitors is computed from. */
export type PaceServices = Pick<Services, 'database' | 'platform' | 'clock'>;

/** How long a computed pace is reused (ms): the load and the budget move slowly next to it. */
const PACE_TTL_MS = 1_000;

const cache = new WeakMap<Platform, { at: number; pace: MonitorPace | undefined }>();

/**
 * What every active monitor on the database asks of the platform at one check: distinct watched accounts,
 * distinct keyword queries (monitors with the same account or query share their requests), and the live
 * check engines (each reads its own shards' accounts). `extra` counts one more monitor, when it watches an
 * account or a query no active monitor watches yet.
 */
export async function monitorLoad(
  db: Kysely<Database>,
  now: number,
  extra: { xUserId?: string; query?: string } = {},
): Promise<MonitorLoad> {
  const accounts = await db
    .selectFrom('monitors')
    .select((eb) => eb.fn.count<number>('x_user_id').distinct().as('n'))
    .where('is_active', '=', 1)
    .executeTakeFirst();
  const queries = await db
    .selectFrom('keyword_monitors')
    .select((eb) => eb.fn.count<number>('query').distinct().as('n'))
    .where('is_active', '=', 1)
    .executeTakeFirst();
  const engines = await db
    .selectFrom('monitor_engines')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('seen_at', '>=', now - DEFAULT_TIMING.leaseMs)
    .executeTakeFirst();
  const load = {
    accounts: num(accounts?.n),
    queries: num(queries?.n),
    instances: Math.max(1, num(engines?.n)),
  };
  if (extra.xUserId !== undefined) {
    const watched = await db
      .selectFrom('monitors')
      .select('id')
      .where('is_active', '=', 1)
      .where('x_user_id', '=', extra.xUserId)
      .limit(1)
      .executeTakeFirst();
    if (!watched) load.accounts += 1;
  }
  if (extra.query !== undefined) {
    const watched = await db
      .selectFrom('keyword_monitors')
      .select('id')
      .where('is_active', '=', 1)
      .where('query', '=', extra.query)
      .limit(1)
      .executeTakeFirst();
    if (!watched) load.queries += 1;
  }
  return load;
}

/**
 * The pace of the monitors' checks for the current load: the effective interval the platform's request
 * budget allows (at least the nominal second), or undefined on a platform whose checks cost no
 * rate-limited requests (the simulated one). Reused for a second.
 */
export async function currentPace(services: PaceServices): Promise<MonitorPace | undefined> {
  const { platform } = services;
  if (!platform.monitorPace) return undefined;
  const now = services.clock.now();
  const hit = cache.get(platform);
  if (hit && now - hit.at < PACE_TTL_MS && now >= hit.at) return hit.pace;
  const load = await monitorLoad(services.database.db, now);
  const pace = await platform.monitorPace(load, DEFAULT_TIMING.intervalMs);
  cache.set(platform, { at: now, pace });
  return pace;
}

/** Forgets the cached pace (a monitor was created, resumed, paused or deleted). */
export function forgetPace(platform: Platform): void {
  cache.delete(platform);
}

/** The effective check interval of the monitors now, in whole seconds (the nominal 1 on the simulated platform). */
export async function checkIntervalSeconds(services: PaceServices): Promise<number> {
  const pace = await currentPace(services);
  const ms = pace ? pace.intervalMs : DEFAULT_TIMING.intervalMs;
  return Number.isFinite(ms) ? Math.ceil(ms / 1000) : Number.MAX_SAFE_INTEGER;
}

/**
 * Refuses a monitor that would make the effective check interval longer than the server accepts (the
 * platform's request budget cannot serve it): 503 `x_api_rate_limited`, naming the limit, what the checks
 * would need and the budget. Nothing on a platform without a budget, or when the monitor shares an account
 * or a query already watched (it costs no request more).
 */
export async function admitMonitor(
  services: PaceServices,
  adds: { xUserId?: string; query?: string },
): Promise<void> {
  const { platform } = services;
  if (!platform.monitorPace) return;
  const now = services.clock.now();
  const load = await monitorLoad(services.database.db, now, adds);
  const pace = await platform.monitorPace(load, DEFAULT_TIMING.intervalMs);
  if (pace.intervalMs <= pace.maxIntervalMs) return;
  const worst = pace.needs
    .filter((n) => n.perCheck > 0)
    .sort((a, b) => b.perCheck / Math.max(1, b.budget) - a.perCheck / Math.max(1, a.budget))[0];
  const maxSeconds = Math.floor(pace.maxIntervalMs / 1000);
  const needSeconds = Number.isFinite(pace.intervalMs) ? Math.ceil(pace.intervalMs / 1000) : undefined;
  const what = worst
    ? `${worst.endpoint} allows the app ${worst.limit} requests per ${worst.windowMs / 60_000} minutes, ` +
      `of which the monitors may use ${worst.budget}; checking ${load.accounts} accounts and ` +
      `${load.queries} keyword queries needs ${worst.perCheck} requests a check`
    : 'the request budget cannot serve the checks';
  throw new HttpError(
    'x_api_rate_limited',
    `this monitor would exceed the X API request budget: ${what}, so a check every ` +
      `${needSeconds ?? 'never'} s, longer than the ${maxSeconds} s accepted (X_API_MONITOR_MAX_INTERVAL). ` +
      'Pause or delete monitors, or raise the app tier and X_API_RATE_LIMITS',
    {
      ...(worst && {
        endpoint: worst.endpoint,
        rateLimit: worst.limit,
        budget: worst.budget,
        requestsPerCheck: worst.perCheck,
        windowSeconds: worst.windowMs / 1000,
      }),
      ...(needSeconds !== undefined && { checkIntervalSeconds: needSeconds }),
      maxCheckIntervalSeconds: maxSeconds,
    },
    503,
  );
}
