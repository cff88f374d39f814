/**
 * The monitors benchmark's scenario, shared by `monitors.bench.ts` (10,000 monitors) and
 * `monitors-100k.bench.ts` (100,000): N active account monitors on one server process (SQLite in WAL mode,
 * the simulated platform), checked every second by the check engine while tweets are posted through the
 * control endpoint (`POST /sim/tweets`).
 *
 * Printed: monitors checked per second, check lag (from the second a check was due to the moment it
 * finished) and event latency (from a tweet being posted to its events being stored) at p50/p99, where a
 * check's time goes (what limits the figure), memory after warm-up (RSS, and the heap after a full GC when
 * `--expose-gc` is on, as `pnpm bench` runs it), the capacity (monitors per second of checking, at the mean
 * check duration) and the floor it is compared with: the same checks made one monitor at a time with the
 * platform's single-account reads (a profile lookup and a timeline page each).
 */
import { accountMonitorRow, blankSimUserRow, type CheckReport, monitorEngineOf } from '@xsvc/server';
import { startBenchServer } from '../lib/server.js';
import { goal, percentile, table } from './stats.js';

/** What a run of the scenario measures against. */
export interface MonitorsScenario {
  /** Active account monitors (env `MONITORS` overrides). */
  monitors: number;
  /** Seconds of steady state (env `SECONDS` overrides). */
  seconds: number;
  /** The goal: p99 check lag below this (ms). */
  lagGoalMs: number;
}

/** Runs the scenario, prints its table and goal; returns whether the goal held. */
export async function runMonitorsScenario(scenario: MonitorsScenario): Promise<boolean> {
  const N = Number(process.env.MONITORS ?? scenario.monitors);
  const SECONDS = Number(process.env.SECONDS ?? scenario.seconds);
  const TWEETS_PER_SECOND = 100;
  const KEY = `svc_${'b0'.repeat(32)}`;

  const reports: CheckReport[] = [];
  const { server, accountId, ...bench } = await startBenchServer('monitors', {
    key: KEY,
    config: { bootstrapCredits: 1_000_000_000n },
    deps: {
      rateLimits: {
        read: { limit: 1_000_000_000, windowMs: 1_000, retryAfterSeconds: 1 },
        write: { limit: 1_000_000_000, windowMs: 60_000, retryAfterSeconds: 60 },
        delete: { limit: 60, windowMs: 60_000, retryAfterSeconds: 60 },
      },
      monitors: { autoStart: false, onCheck: (r) => reports.push(r) },
    },
  });
  const engine = monitorEngineOf(server.app);
  if (!engine) throw new Error('the monitors feature is not mounted');
  const { db } = server.services.database;

  // Seed N watched accounts and N active monitors straight into the tables (creating them through the API
  // would measure the API, not the checks).
  const now = Date.now();
  const usernames: string[] = [];
  const userIds: string[] = [];
  const t0 = performance.now();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < N; i += 500) {
      const users = [];
      const monitors = [];
      for (let j = i; j < Math.min(N, i + 500); j++) {
        const id = String(9_000_000_000_000_000_000n + BigInt(j));
        const username = `mon_${j}`;
        usernames.push(username);
        userIds.push(id);
        users.push(blankSimUserRow({ id, username, name: `Monitored ${j}`, createdAt: now - 86_400_000 }));
        monitors.push(
          accountMonitorRow({
            id: String(8_000_000_000_000_000_000n + BigInt(j)),
            accountId,
            user: { id, username, name: `Monitored ${j}` },
            eventTypes: ['tweet.new', 'tweet.reply', 'tweet.hashtag', 'profile.name.changed'],
            now,
          }),
        );
      }
      await trx.insertInto('sim_users').values(users).execute();
      await trx.insertInto('monitors').values(monitors).execute();
    }
  });
  const seedSeconds = (performance.now() - t0) / 1000;

  // The floor: the same work one monitor at a time with single-account reads, on a sample.
  const SAMPLE = 500;
  const f0 = performance.now();
  for (let i = 0; i < SAMPLE; i++) {
    await server.services.platform.getUser(usernames[i] as string);
    await server.services.platform.userTweets(
      userIds[i] as string,
      { includeReplies: true },
      { pageSize: 20 },
    );
  }
  const floorPerSecond = SAMPLE / ((performance.now() - f0) / 1000);

  // First check: loads every monitor and marks it joined (not part of the steady state measured below).
  const w0 = performance.now();
  const warm = await engine.checkOnce();
  const warmMs = performance.now() - w0;

  // Steady state: the engine on its 1 s schedule while tweets are posted through the control endpoint.
  const posted = new Map<string, number>();
  let postErrors = 0;
  async function post(i: number): Promise<void> {
    const author = usernames[(i * 7919) % N] as string;
    const text = i % 3 === 0 ? `update ${i} #bench` : `update ${i}`;
    const res = await server.app.inject({
      method: 'POST',
      url: '/sim/tweets',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      payload: JSON.stringify({ author, text }),
    });
    if (res.statusCode === 201) posted.set(JSON.parse(res.body).id, Date.now());
    else postErrors++;
  }
  reports.length = 0;
  engine.start();
  const started = Date.now();
  let sent = 0;
  while (Date.now() - started < SECONDS * 1000) {
    const due = Math.floor(((Date.now() - started) / 1000) * TWEETS_PER_SECOND);
    while (sent < due) await post(sent++);
    await new Promise((r) => setTimeout(r, 5));
  }
  // Memory after warm-up, the engine running (heap after a full GC when `--expose-gc` is on).
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const memory = process.memoryUsage();
  // Let the last tweets be picked up, then stop.
  const last = reports.length;
  while (reports.length < last + 2) await new Promise((r) => setTimeout(r, 50));
  await engine.stop();
  // Checks are due once a second: n checks cover n seconds of schedule.
  const elapsed =
    ((reports.at(-1)?.scheduledAt ?? started) + 1_000 - (reports[0]?.scheduledAt ?? started)) / 1000;

  const checked = reports.reduce((s, r) => s + r.accounts.monitors, 0);
  const lags = reports.map((r) => r.finishedAt - r.scheduledAt);
  const durations = reports.map((r) => r.finishedAt - r.startedAt);
  const byStart = new Map(reports.map((r) => [r.startedAt, r.finishedAt]));
  const events = await db
    .selectFrom('events')
    .select(['created_at', 'payload'])
    .where('event_type', '=', 'tweet.new')
    .execute();
  const latencies: number[] = [];
  for (const e of events) {
    const tweetId = JSON.parse(e.payload).data.id as string;
    const at = posted.get(tweetId);
    const storedAt = byStart.get(Number(e.created_at));
    if (at !== undefined && storedAt !== undefined) latencies.push(storedAt - at);
  }
  const avg = (k: keyof CheckReport['accounts']['timings']) =>
    reports.reduce((s, r) => s + r.accounts.timings[k], 0) / Math.max(1, reports.length);
  const split = (['sync', 'profiles', 'tweets', 'store'] as const).map((k) => [k, avg(k)] as const);
  const limit = [...split].sort((a, b) => b[1] - a[1])[0];
  const perSecond = checked / Math.max(elapsed, 1e-9);
  // How many monitors one second of checking covers, at the mean check duration (the headroom).
  const meanDuration = durations.reduce((s, d) => s + d, 0) / Math.max(1, durations.length);
  const capacity = N / Math.max(meanDuration / 1000, 1e-9);

  console.log(
    `\nMonitors: ${N} active account monitors, SQLite (WAL), simulated platform; seeded in ${seedSeconds.toFixed(1)} s;` +
      ` first check (loads every monitor) ${warmMs.toFixed(0)} ms with ${warm.accounts.monitors} monitors`,
  );
  table([
    ['figure', 'value'],
    ['checks run', reports.length],
    ['monitors checked per second', perSecond.toFixed(0)],
    ['check lag p50 / p99 (ms, due -> done)', `${percentile(lags, 50)} / ${percentile(lags, 99)}`],
    ['check duration p50 / p99 (ms)', `${percentile(durations, 50)} / ${percentile(durations, 99)}`],
    [
      'event latency p50 / p99 (ms, posted -> stored)',
      latencies.length ? `${percentile(latencies, 50)} / ${percentile(latencies, 99)}` : 'n/a',
    ],
    [
      'tweets posted / tweet.new events matched',
      `${posted.size} / ${latencies.length} (${postErrors} post errors)`,
    ],
    [
      `memory after warm-up: RSS / heap used${gc ? ' (after GC)' : ''} (MB)`,
      `${mb(memory.rss)} / ${mb(memory.heapUsed)} (heap total ${mb(memory.heapTotal)})`,
    ],
    ['capacity: monitors per second of checking', capacity.toFixed(0)],
    ['floor: one monitor at a time (monitors/s)', floorPerSecond.toFixed(0)],
    ['capacity vs floor', `${(capacity / floorPerSecond).toFixed(1)}x`],
  ]);
  console.log(
    `Where a check's time goes (mean ms): ${split.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}; ` +
      `limiting factor: ${limit?.[0]} (${limit?.[0] === 'profiles' ? 'the change stamps of every watched account, read each second' : limit?.[0] === 'sync' ? 'reloading the active monitor list' : limit?.[0] === 'tweets' ? 'reading and classifying new tweets' : 'writing events and progress'})`,
  );
  const p99 = percentile(lags, 99);
  const ok = goal(
    `${N} monitors checked every second with p99 check lag < ${scenario.lagGoalMs} ms`,
    perSecond >= N * 0.95 && p99 < scenario.lagGoalMs,
    `${perSecond.toFixed(0)} monitors/s, p99 lag ${p99} ms, RSS ${mb(memory.rss)} MB, heap ${mb(memory.heapUsed)} MB`,
  );
  await bench.close();
  return ok;
}

function mb(bytes: number): string {
  return (bytes / 1_048_576).toFixed(0);
}
