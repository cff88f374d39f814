import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/app/server.js';
import { ManualClock } from '../../src/core/clock.js';
import { parseConfig } from '../../src/core/config.js';
import { type Db, num, openDatabase } from '../../src/core/db/database.js';
import { claimJobs } from '../../src/core/jobs/index.js';
import { extractionRunner } from '../../src/features/extractions/runtime.js';
import type { MonitorEngine } from '../../src/features/monitors/engine/engine.js';
import { monitorEngineOf } from '../../src/features/monitors/feature.js';
import { asTestServer, PG_URL, type TestServer } from '../helpers/server.js';
import { type Receiver, startReceiver } from '../webhooks/helpers.js';

const START = Date.UTC(2026, 3, 29, 12);
const HOUR = 3_600_000;

interface Instance extends TestServer {
  db: Db;
  monitors: MonitorEngine;
}

/** A full server on the shared schema, with a manual clock and nothing started: the test drives it. */
async function instance(schema: string, owner: string): Promise<Instance> {
  const db = await openDatabase(PG_URL, { pgSchema: schema, poolSize: 4 });
  const clock = new ManualClock(START);
  const cfg = parseConfig({ logLevel: 'silent', seedSize: 'tiny', keyFile: '', allowLoopbackWebhooks: true });
  const server = await createServer(cfg, {
    database: db,
    clock,
    monitors: { autoStart: false },
    extractions: { autoStart: false },
    jobs: { owner },
  });
  const monitors = monitorEngineOf(server.app);
  if (!monitors) throw new Error('monitors not mounted');
  const t = await asTestServer(server, cfg, clock, async () => db.close());
  return { ...t, db, monitors };
}

describe('two instances on one Postgres running every job kind', () => {
  const schema = `jobs_${randomBytes(6).toString('hex')}`;
  let a: Instance;
  let b: Instance;
  let receiver: Receiver;
  let monitorId: string;

  /** Both clocks move on together. */
  const advance = (ms: number) => {
    a.clock.advance(ms);
    b.clock.advance(ms);
  };
  const deliveries = () =>
    Promise.all([a, b].map((t) => t.server.services.jobs.runDue(['webhook.delivery'])));
  const ledger = async (operation: string) =>
    (
      await a.db.db
        .selectFrom('credit_ledger')
        .select(['delta', 'request_id'])
        .where('operation', '=', operation)
        .execute()
    ).map((r) => ({ amount: num(r.delta), requestId: r.request_id }));
  const events = () =>
    a.db.db
      .selectFrom('events')
      .select(['id', 'dedupe_key', 'payload'])
      .where('monitor_id', '=', monitorId)
      .execute();

  beforeAll(async () => {
    a = await instance(schema, 'instance-a');
    b = await instance(schema, 'instance-b');
    receiver = await startReceiver(() => a.clock.now());
    expect((await a.request('POST', '/sim/users', { body: { username: 'jobs_user' } })).status).toBe(201);
    const m = await a.request('POST', '/api/v1/monitors', {
      body: { username: 'jobs_user', eventTypes: ['tweet.new'] },
    });
    expect(m.status, JSON.stringify(m.body)).toBe(201);
    monitorId = m.body.id;
    const w = await b.request('POST', '/api/v1/webhooks', {
      body: { url: receiver.url, eventTypes: ['tweet.new'] },
    });
    expect(w.status, JSON.stringify(w.body)).toBe(201);
    receiver.secret = w.body.secret;
  });
  afterAll(async () => {
    await receiver?.close();
    await b?.close();
    await a?.close();
    const admin = await openDatabase(PG_URL, { poolSize: 1 });
    await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(admin.db);
    await admin.close();
  });

  it('runs each job exactly once while both instances work at once', async () => {
    // Monitor shards: both check at once; each shard is checked by one of them.
    const tweets: string[] = [];
    for (let i = 0; i < 3; i++) {
      const via = i % 2 ? a : b;
      const posted = await via.request('POST', '/sim/tweets', {
        body: { author: 'jobs_user', text: `tweet ${i}` },
      });
      tweets.push(posted.body.id);
      advance(1_000);
      const [ra, rb] = await Promise.all([a.monitors.checkOnce(), b.monitors.checkOnce()]);
      expect(ra.shards + rb.shards).toBe(64);
      expect(a.monitors.shards.filter((s) => b.monitors.shards.includes(s))).toEqual([]);
    }
    const stored = await events();
    expect(stored.map((e) => JSON.parse(e.payload).data.id).sort()).toEqual([...tweets].sort());
    expect(new Set(stored.map((e) => e.dedupe_key)).size).toBe(stored.length);

    // Webhook deliveries: both instances fan out and deliver; each event arrives once.
    await deliveries();
    await receiver.waitFor(3, 10_000);
    await deliveries();
    expect(receiver.received.every((r) => r.verifyError === undefined)).toBe(true);
    const delivered = receiver.received.map((r) => (r.event as { streamEventId: string }).streamEventId);
    expect(delivered.sort()).toEqual(stored.map((e) => e.id).sort());

    // An extraction: both runners run the pending jobs at once; its pages are read and charged once.
    const x = await a.request('POST', '/api/v1/extractions', {
      body: { toolType: 'follower_explorer', targetUsername: 'jack' },
    });
    expect(x.status, JSON.stringify(x.body)).toBe(202);
    await Promise.all([extractionRunner(a.db).runPending(), extractionRunner(b.db).runPending()]);
    const job = (await a.request('GET', `/api/v1/extractions/${x.body.id}?limit=1000`)).body;
    expect(job.job.status).toBe('completed');
    const ids = job.results.map((r: { xUserId: string }) => r.xUserId);
    expect(new Set(ids).size).toBe(ids.length);
    const charged = (await ledger('createExtraction')).reduce((s, r) => s - r.amount, 0);
    expect(charged).toBe(job.job.totalResults);

    // Hourly billing: an hour later both check at once; the hour is charged once.
    advance(HOUR);
    await Promise.all([a.monitors.checkOnce(), b.monitors.checkOnce()]);
    await Promise.all([a.monitors.checkOnce(), b.monitors.checkOnce()]);
    const hours = (await ledger('monitor:hourly')).filter((r) => r.requestId === `monitor:${monitorId}`);
    expect(hours).toHaveLength(2); // the first hour at creation, the second now

    // A coverage walk: the same cursor resumed on both instances at once is served by one at a time.
    const first = await a.request('GET', '/api/v1/x/users/jack/followers?mode=coverage&limit=3');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const cursor = encodeURIComponent(first.body.next_cursor);
    const both = await Promise.all(
      [a, b].map((t) =>
        t.request('GET', `/api/v1/x/users/jack/followers?mode=coverage&limit=3&cursor=${cursor}`),
      ),
    );
    expect(both.map((r) => r.status)).toContain(200);
    for (const r of both) expect([200, 409]).toContain(r.status);
    const walkJobs = await a.db.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'coverage.walk')
      .execute();
    expect(walkJobs).toHaveLength(1);
    expect(walkJobs[0]?.lease_owner).toBeNull();
  });

  it('takes over the work a dead instance held once its leases expire', async () => {
    // Work for every kind: a tweet (shards), an extraction, and the delivery of the tweet's event.
    const posted = await b.request('POST', '/sim/tweets', {
      body: { author: 'jobs_user', text: 'while a dies' },
    });
    const x = await b.request('POST', '/api/v1/extractions', {
      body: { toolType: 'follower_explorer', targetUsername: 'jack' },
    });
    expect(x.status).toBe(202);
    advance(1_000);
    const now = a.clock.now();
    // `a` claims everything due (as its loops would) and dies holding the leases: no release, no write.
    const held: Record<string, number> = {};
    for (const [kind, leaseMs] of [
      ['monitor.shard', 3_000],
      ['monitor.billing', 3_000],
      ['extraction.job', 60_000],
    ] as const) {
      const claimed = await claimJobs(a.db.db, 'postgres', {
        kind,
        owner: a.server.services.jobs.owner,
        now,
        leaseMs,
        limit: 1_000,
        force: true,
      });
      held[kind] = claimed.length;
    }
    expect(held['monitor.shard']).toBe(64);
    expect(held['extraction.job']).toBe(1);
    a.server.services.jobs.kill();

    // Before the leases expire, b does nothing of a's work.
    const before = await b.monitors.checkOnce();
    expect(before.shards).toBe(0);
    await extractionRunner(b.db).runPending();
    expect((await b.request('GET', `/api/v1/extractions/${x.body.id}`)).body.job.status).toBe('running');

    // After they expire, b takes every shard (a's heartbeat is gone too) and the extraction over.
    advance(3_000);
    let report = await b.monitors.checkOnce();
    for (let i = 0; i < 5 && report.shards < 64; i++) {
      advance(1_000);
      report = await b.monitors.checkOnce();
    }
    expect(report.shards).toBe(64);
    const stored = await events();
    expect(stored.filter((e) => JSON.parse(e.payload).data.id === posted.body.id)).toHaveLength(1);
    expect(new Set(stored.map((e) => e.dedupe_key)).size).toBe(stored.length);
    await b.server.services.jobs.runDue(['webhook.delivery']);
    await receiver.waitFor(stored.length, 10_000);
    const delivered = receiver.received.map((r) => (r.event as { streamEventId: string }).streamEventId);
    expect(delivered.sort()).toEqual(stored.map((e) => e.id).sort());

    advance(60_000);
    await extractionRunner(b.db).runPending();
    const done = (await b.request('GET', `/api/v1/extractions/${x.body.id}?limit=1000`)).body;
    expect(done.job.status).toBe('completed');
    const hours = (await ledger('monitor:hourly')).filter((r) => r.requestId === `monitor:${monitorId}`);
    expect(hours).toHaveLength(2);
    const left = await b.db.db
      .selectFrom('jobs')
      .select('id')
      .where('lease_owner', '=', 'instance-a')
      .execute();
    expect(left).toEqual([]);
  });
});
