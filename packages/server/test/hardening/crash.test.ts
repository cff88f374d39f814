import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/core/db/database.js';
import { type Child, call, childSetup, killHard, startChild } from './child-server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every `everyMs` until it is truthy or `ms` passed; returns its last value. */
async function waitFor<T>(probe: () => Promise<T>, ms: number, everyMs = 20): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v || Date.now() >= until) return v;
    await sleep(everyMs);
  }
}

async function scalar(db: Db, query: ReturnType<typeof sql<{ n: unknown }>>): Promise<number> {
  const r = await query.execute(db.db);
  return Number(r.rows[0]?.n ?? 0);
}

describe('kill -9 of the server process, restarted on the same SQLite file', () => {
  it('mid-extraction: every credit charged is a result stored, across several kills', async () => {
    const setup = childSetup();
    // The small network: its searches run long enough (tens of thousands of results) that the kills land
    // mid-run on a fast, quiet machine too.
    setup.env.XSVC_SEED_SIZE = 'small';
    let server: Child | undefined;
    let db: Db | undefined;
    try {
      server = await startChild(setup.env);
      db = await openDatabase(setup.env.DATABASE_URL as string);
      // Enough work (10 searches of the small network, many pages each) that every kill lands while pages
      // are read, charged and stored.
      const words = ['the', 'a', 'to', 'of', 'and', 'in', 'is', 'it', 'for', 'on'];
      const base = server.url;
      const answers = await Promise.all(
        words.map((q) =>
          call(base, setup.key, 'POST', '/api/v1/extractions', {
            toolType: 'tweet_search_extractor',
            searchQuery: q,
          }),
        ),
      );
      for (const r of answers) expect(r.status, JSON.stringify(r.body)).toBe(202);
      const jobs = answers.map((r) => r.body.id as string);
      const stored = () => scalar(db as Db, sql`select count(*) as n from extraction_results`);
      const charged = () =>
        scalar(
          db as Db,
          sql`select coalesce(-sum(delta), 0) as n from credit_ledger where operation like 'createExtraction%'`,
        );
      const running = () =>
        scalar(db as Db, sql`select count(*) as n from extraction_jobs where status = 'running'`);
      const ended = () =>
        scalar(db as Db, sql`select count(*) as n from extraction_jobs where status <> 'running'`);
      // Kill while pages are being read, charged and stored (once another 60-250 results have landed since
      // the (re)start, so the kills land mid-run however fast or loaded the machine is), restart on the
      // same file (the jobs resume at once), kill again: at least 4 kills with work still running.
      const steps = [150, 250, 60, 200];
      let kills = 0;
      for (let attempt = 0; attempt < 8 && kills < steps.length; attempt++) {
        const from = await stored();
        const progress = steps[attempt % steps.length] as number;
        await waitFor(
          async () => (await stored()) >= from + progress || (await ended()) === jobs.length,
          15_000,
          5,
        );
        await killHard(server);
        if ((await ended()) === jobs.length) break; // every job had ended
        if ((await running()) > 0) kills++;
        expect(await charged()).toBe(await stored());
        server = await startChild(setup.env);
      }
      server =
        server.child.exitCode === null && server.child.signalCode === null
          ? server
          : await startChild(setup.env);
      expect(kills).toBeGreaterThanOrEqual(3);
      expect(await waitFor(async () => (await running()) === 0, 40_000, 50)).toBe(true);

      const results = await stored();
      expect(results).toBeGreaterThan(0);
      expect(await charged()).toBe(results);
      // No refunds were needed to get there, and every job's answer counts what it stored, once each.
      const refunds = await scalar(
        db,
        sql`select count(*) as n from credit_ledger where operation like '%refund%'`,
      );
      expect(refunds).toBe(0);
      let total = 0;
      for (const id of jobs) {
        const got = await call(server.url, setup.key, 'GET', `/api/v1/extractions/${id}`);
        expect(got.status).toBe(200);
        expect(got.body.job.status).toBe('completed');
        total += got.body.job.totalResults;
      }
      expect(total).toBe(results);
      const dupes = await scalar(
        db,
        sql`select count(*) as n from (select job_id, item_key from extraction_results group by job_id, item_key having count(*) > 1) d`,
      );
      expect(dupes).toBe(0);
    } finally {
      if (server) await killHard(server);
      await db?.close();
      setup.remove();
    }
  }, 90_000);

  it('mid-monitor-burst: no event lost or repeated, one hour charged, new events seen within a second after restart', async () => {
    const setup = childSetup();
    let server: Child | undefined;
    let db: Db | undefined;
    try {
      server = await startChild(setup.env);
      db = await openDatabase(setup.env.DATABASE_URL as string);
      expect(
        (await call(server.url, setup.key, 'POST', '/sim/users', { username: 'crash_watch' })).status,
      ).toBe(201);
      const created = await call(server.url, setup.key, 'POST', '/api/v1/monitors', {
        username: 'crash_watch',
        eventTypes: ['tweet.new'],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const monitorId = created.body.id as string;
      const events = () =>
        scalar(db as Db, sql`select count(*) as n from events where monitor_id = ${monitorId}`);
      const post = async (base: string, text: string) => {
        const r = await call(base, setup.key, 'POST', '/sim/tweets', { author: 'crash_watch', text });
        expect(r.status).toBe(201);
        return r.body.id as string;
      };

      // A burst; the process is killed while it goes on and its events are being detected.
      const posted: string[] = [];
      for (let i = 0; i < 40; i++) {
        posted.push(await post(server.url, `burst ${i}`));
        if (i === 25) expect(await waitFor(async () => (await events()) > 0, 3_000)).toBeTruthy();
      }
      await killHard(server);

      server = await startChild(setup.env);
      const started = Date.now();
      const after = await post(server.url, 'after the restart');
      const seen = await waitFor(async () => (await events()) >= posted.length + 1, 5_000, 10);
      const latency = Date.now() - started;
      expect(seen, `events: ${await events()} of ${posted.length + 1}`).toBeTruthy();
      // Checks run every second: an event is seen within about one interval (not after a lease expires).
      expect(latency).toBeLessThan(1_500);

      const rows = await db.db
        .selectFrom('events')
        .select(['payload', 'dedupe_key'])
        .where('monitor_id', '=', monitorId)
        .execute();
      const ids = rows.map((r) => JSON.parse(r.payload).data.id as string);
      expect(new Set(ids)).toEqual(new Set([...posted, after]));
      expect(ids).toHaveLength(posted.length + 1);
      const hours = await scalar(
        db,
        sql`select count(*) as n from credit_ledger where operation = 'monitor:hourly' and request_id = ${`monitor:${monitorId}`}`,
      );
      expect(hours).toBe(1);
      const held = await scalar(
        db,
        sql`select count(distinct lease_owner) as n from jobs where kind = 'monitor.shard' and lease_owner is not null`,
      );
      // Shard leases are held while a check runs, by this one instance only.
      expect(held).toBeLessThanOrEqual(1);
    } finally {
      if (server) await killHard(server);
      await db?.close();
      setup.remove();
    }
  }, 30_000);
});
