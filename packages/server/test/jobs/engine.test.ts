import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { type Db, num, openDatabase } from '../../src/core/db/database.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import {
  claimJobs,
  enqueue,
  type Job,
  type JobKind,
  type JobOutcome,
  JobsEngine,
  jobId,
} from '../../src/core/jobs/index.js';
import { ENGINES, type Engine, PG_URL } from '../helpers/server.js';

/** One database and a second connection to it (two instances on Postgres; the same handle on SQLite). */
async function storage(engine: Engine): Promise<{ a: Db; b: Db; close(): Promise<void> }> {
  if (engine === 'sqlite') {
    const a = await openDatabase(':memory:');
    await migrateToLatest(a);
    return { a, b: a, close: () => a.close() };
  }
  const schema = `jobs_${randomBytes(6).toString('hex')}`;
  const a = await openDatabase(PG_URL, { pgSchema: schema, poolSize: 4 });
  await migrateToLatest(a);
  const b = await openDatabase(PG_URL, { pgSchema: schema, poolSize: 4 });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      const admin = await openDatabase(PG_URL, { poolSize: 1 });
      await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(admin.db);
      await admin.close();
    },
  };
}

/** A kind that records every run and answers with `decide` (default: done). */
function recordingKind(
  name: string,
  runs: string[],
  decide: (job: Job, now: number) => JobOutcome = () => ({ type: 'done' }),
  extra: Partial<JobKind> = {},
): JobKind {
  return {
    name,
    batchSize: 16,
    concurrency: 64,
    leaseMs: 10_000,
    ...extra,
    async run(jobs, ctx) {
      // Let the other instance's claims interleave with this one's.
      await new Promise((r) => setImmediate(r));
      return jobs.map((job) => {
        runs.push(job.key ?? job.id);
        return decide(job, ctx.clock.now());
      });
    },
  };
}

async function rows(db: Db, kind: string) {
  return db.db.selectFrom('jobs').selectAll().where('kind', '=', kind).orderBy('key').execute();
}

describe.each(ENGINES)('jobs engine on %s', (engine) => {
  let store: Awaited<ReturnType<typeof storage>>;
  const clock = new ManualClock();
  beforeAll(async () => {
    store = await storage(engine);
  });
  afterAll(async () => store?.close());

  it('two engines claiming at once run each job exactly once', async () => {
    const runs: string[] = [];
    const a = new JobsEngine(store.a, clock, { owner: 'a' });
    const b = new JobsEngine(store.b, clock, { owner: 'b' });
    a.register(recordingKind('t.exclusive', runs));
    b.register(recordingKind('t.exclusive', runs));
    const keys = Array.from({ length: 300 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    await enqueue(
      store.a.db,
      keys.map((key) => ({ kind: 't.exclusive', key })),
      clock.now(),
    );
    const [na, nb] = await Promise.all([a.runDue(), b.runDue()]);
    expect(na + nb).toBe(300);
    expect(runs.sort()).toEqual(keys);
    expect(await rows(store.a, 't.exclusive')).toEqual([]);
  });

  it('takes over the jobs of a dead instance once their lease expires, and not before', async () => {
    const runs: string[] = [];
    await enqueue(store.a.db, [{ kind: 't.takeover', key: 'x' }], clock.now());
    // A process that claimed the job and died (never settled, never released).
    const dead = await claimJobs(store.a.db, store.a.dialect, {
      kind: 't.takeover',
      owner: 'dead',
      now: clock.now(),
      leaseMs: 5_000,
      limit: 10,
    });
    expect(dead).toHaveLength(1);
    const b = new JobsEngine(store.b, clock, { owner: 'b' });
    b.register(recordingKind('t.takeover', runs));
    expect(await b.runDue()).toBe(0);
    clock.advance(4_999);
    expect(await b.runDue()).toBe(0);
    clock.advance(1);
    expect(await b.runDue()).toBe(1);
    expect(runs).toEqual(['x']);
    expect(await rows(store.a, 't.takeover')).toEqual([]);
  });

  it('a dead instance that comes back late commits nothing for a job taken over', async () => {
    await enqueue(store.a.db, [{ kind: 't.late', key: 'y' }], clock.now());
    const a = new JobsEngine(store.a, clock, { owner: 'a' });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const effects: string[] = [];
    const slow: JobKind = {
      name: 't.late',
      batchSize: 1,
      concurrency: 1,
      leaseMs: 1_000,
      async run(jobs) {
        await gate;
        return jobs.map(() => ({ type: 'done' }) as const);
      },
      async settle(_trx, settled) {
        for (const s of settled) effects.push(`a:${s.job.key}`);
      },
    };
    a.register(slow);
    const pending = a.runOnce('t.late');
    await new Promise((r) => setTimeout(r, 50));
    clock.advance(1_000);
    const b = new JobsEngine(store.b, clock, { owner: 'b' });
    b.register({
      ...recordingKind('t.late', []),
      settle: async (_t, s) => void effects.push(`b:${s[0]?.job.key}`),
    });
    expect(await b.runDue()).toBe(1);
    release();
    await pending;
    expect(effects).toEqual(['b:y']);
  });

  it('frees the leases its own owner id held at start, and only those', async () => {
    await enqueue(
      store.a.db,
      [
        { kind: 't.own', key: 'mine' },
        { kind: 't.own', key: 'theirs' },
      ],
      clock.now(),
    );
    const claimedByOld = await claimJobs(store.a.db, store.a.dialect, {
      kind: 't.own',
      owner: 'stable-owner',
      now: clock.now(),
      leaseMs: 60_000,
      limit: 1,
    });
    await claimJobs(store.a.db, store.a.dialect, {
      kind: 't.own',
      owner: 'other-owner',
      now: clock.now(),
      leaseMs: 60_000,
      limit: 1,
    });
    const runs: string[] = [];
    const restarted = new JobsEngine(store.a, clock, { owner: 'stable-owner' });
    restarted.register(recordingKind('t.own', runs, undefined, { pollMs: 60_000 }));
    await restarted.start();
    await restarted.stop();
    expect(await restarted.runDue()).toBe(1);
    expect(runs).toEqual([claimedByOld[0]?.key]);
    const left = await rows(store.a, 't.own');
    expect(left.map((r) => r.lease_owner)).toEqual(['other-owner']);
  });

  it('retries with the kind’s backoff and ends failed, terminally', async () => {
    const runs: string[] = [];
    const a = new JobsEngine(store.a, clock, { owner: 'a' });
    a.register(
      recordingKind('t.retry', runs, (job, now) =>
        job.attempts < 2
          ? { type: 'retry', at: now + 1_000 * 2 ** job.attempts, error: 'boom' }
          : { type: 'fail', error: 'gave up' },
      ),
    );
    await enqueue(store.a.db, [{ kind: 't.retry', key: 'r' }], clock.now());
    expect(await a.runDue()).toBe(1);
    let [row] = await rows(store.a, 't.retry');
    expect({ attempts: num(row?.attempts), error: row?.last_error, owner: row?.lease_owner }).toEqual({
      attempts: 1,
      error: 'boom',
      owner: null,
    });
    expect(num(row?.run_at)).toBe(clock.now() + 1_000);
    clock.advance(999);
    expect(await a.runDue()).toBe(0);
    clock.advance(1);
    expect(await a.runDue()).toBe(1);
    clock.advance(1_999);
    expect(await a.runDue()).toBe(0);
    clock.advance(1);
    expect(await a.runDue()).toBe(1);
    [row] = await rows(store.a, 't.retry');
    expect({ state: row?.state, attempts: num(row?.attempts), error: row?.last_error }).toEqual({
      state: 'failed',
      attempts: 3,
      error: 'gave up',
    });
    clock.advance(3_600_000);
    expect(await a.runDue()).toBe(0);
    expect(runs).toEqual(['r', 'r', 'r']);
  });

  it('a run that throws is retried with the default backoff', async () => {
    const a = new JobsEngine(store.a, clock, { owner: 'a' });
    let calls = 0;
    a.register({
      name: 't.throws',
      batchSize: 4,
      concurrency: 4,
      leaseMs: 1_000,
      async run() {
        calls++;
        if (calls === 1) throw new Error('flaky');
        return [{ type: 'done' }];
      },
    });
    await enqueue(store.a.db, [{ kind: 't.throws' }], clock.now());
    expect(await a.runDue()).toBe(1);
    const [row] = await rows(store.a, 't.throws');
    expect({ attempts: num(row?.attempts), error: row?.last_error }).toEqual({ attempts: 1, error: 'flaky' });
    clock.advance(1_000);
    expect(await a.runDue()).toBe(1);
    expect(await rows(store.a, 't.throws')).toEqual([]);
  });

  it('reschedules recurring jobs, with their new payload', async () => {
    const seen: unknown[] = [];
    const a = new JobsEngine(store.a, clock, { owner: 'a' });
    a.register({
      name: 't.recurring',
      batchSize: 8,
      concurrency: 8,
      leaseMs: 5_000,
      serial: true,
      async run(jobs) {
        return jobs.map((job) => {
          seen.push(job.payload);
          const n = (job.payload as { n: number }).n;
          return { type: 'reschedule', at: job.dueAt + 1_000, payload: { n: n + 1 } };
        });
      },
    });
    const start = clock.now();
    await enqueue(store.a.db, [{ kind: 't.recurring', key: 'tick', payload: { n: 0 } }], start);
    expect(await a.runDue()).toBe(1);
    expect(await a.runDue()).toBe(0);
    clock.advance(1_000);
    expect(await a.runDue()).toBe(1);
    const [row] = await rows(store.a, 't.recurring');
    expect(num(row?.run_at)).toBe(start + 2_000);
    expect(row?.lease_owner).toBeNull();
    expect(seen).toEqual([{ n: 0 }, { n: 1 }]);
    // A manual run (forced) takes a job before it is due.
    expect(await a.runOnce('t.recurring', { force: true })).toBe(1);
    expect(seen).toHaveLength(3);
  });

  it('enqueue in a transaction commits or rolls back with it', async () => {
    await expect(
      store.a.db.transaction().execute(async (trx) => {
        await enqueue(trx, [{ kind: 't.trx', key: 'rolled-back' }], clock.now());
        throw new Error('the caller failed');
      }),
    ).rejects.toThrow('the caller failed');
    expect(await rows(store.a, 't.trx')).toEqual([]);
    await store.a.db.transaction().execute(async (trx) => {
      await enqueue(trx, [{ kind: 't.trx', key: 'committed' }], clock.now());
    });
    expect((await rows(store.a, 't.trx')).map((r) => r.key)).toEqual(['committed']);
    // The same key again is kept, not doubled.
    await enqueue(store.a.db, [{ kind: 't.trx', key: 'committed' }], clock.now());
    expect(await rows(store.a, 't.trx')).toHaveLength(1);
  });

  it('runs the jobs a feed created held at once, with no claim, within the room it was given', async () => {
    const kind = 't.held';
    const runs: string[] = [];
    const rooms: number[] = [];
    const waiting = ['h1', 'h2', 'h3', 'h4', 'h5'];
    const engine = new JobsEngine(store.a, clock, { owner: 'holder' });
    // A job due now that only a claim would take.
    await enqueue(store.a.db, [{ kind, key: 'q1' }], clock.now());
    engine.register({
      ...recordingKind(kind, runs, undefined, { batchSize: 16, concurrency: 3 }),
      async feed({ database, now, owner, leaseMs, hold }) {
        rooms.push(hold);
        const keys = waiting.splice(0, hold);
        if (keys.length === 0) return 0;
        // What a feed does in its transaction: create the jobs leased to this engine.
        await enqueue(
          database.db,
          keys.map((key) => ({ kind, key })),
          now,
        );
        const ids = keys.map((key) => jobId(kind, key));
        await database.db
          .updateTable('jobs')
          .set({ lease_owner: owner, lease_until: now + leaseMs })
          .where('id', 'in', ids)
          .execute();
        const held: Job[] = keys.map((key, i) => ({
          id: ids[i] as string,
          kind,
          key,
          payload: {},
          attempts: 0,
          dueAt: now,
        }));
        return { fed: keys.length, held, more: waiting.length > 0 };
      },
    });
    // One pass: the three held jobs fill the room, so nothing is claimed (q1 waits).
    expect(await engine.runOnce(kind)).toBe(3);
    expect(runs).toEqual(['h1', 'h2', 'h3']);
    expect(rooms).toEqual([3]);
    expect((await rows(store.a, kind)).map((r) => r.key)).toEqual(['q1']);
    expect(waiting).toEqual(['h4', 'h5']);
    // The rest: two more held, then the claim takes q1 in the room left.
    await engine.runDue([kind]);
    expect(runs.sort()).toEqual(['h1', 'h2', 'h3', 'h4', 'h5', 'q1']);
    expect(await rows(store.a, kind)).toEqual([]);
  });

  it('gathers outcomes for settleDelayMs while jobs are in flight, and writes them once none is', async () => {
    const batches = (settleDelayMs: number) => {
      const kind = `t.gather${settleDelayMs}`;
      const written: number[] = [];
      const engine = new JobsEngine(store.a, clock, { owner: `gather${settleDelayMs}` });
      engine.register({
        name: kind,
        batchSize: 16,
        concurrency: 16,
        leaseMs: 10_000,
        settleDelayMs,
        // Each job ends in a turn of its own, a millisecond apart; without a settle delay, only once the
        // outcome before it is written (so a slow write under load cannot merge two outcomes into one).
        async run(jobs, ctx) {
          let ended = 0;
          for (const job of jobs) {
            await new Promise((r) => setTimeout(r, 1));
            while (settleDelayMs === 0 && written.length < ended) await new Promise((r) => setTimeout(r, 1));
            ctx.settle(job, { type: 'done' });
            ended++;
          }
          return undefined;
        },
        async settle(_trx, settled) {
          written.push(settled.length);
        },
      });
      return { kind, engine, written };
    };
    // A minute: were the wait not cut short when the last job ends, runDue would outlast the test's timeout.
    for (const delay of [0, 60_000]) {
      const { kind, engine, written } = batches(delay);
      await enqueue(
        store.a.db,
        Array.from({ length: 8 }, (_, i) => ({ kind, key: `g${i}` })),
        clock.now(),
      );
      await engine.runDue([kind]);
      expect(written.reduce((a, b) => a + b, 0)).toBe(8);
      if (delay === 0) expect(written).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
      // Gathered while the others ran, and written as soon as nothing was in flight any more.
      else expect(written).toEqual([8]);
      expect(await rows(store.a, kind)).toEqual([]);
    }
  });

  it('runs in the background once started, woken without waiting for the poll', async () => {
    const runs: string[] = [];
    const a = new JobsEngine(store.a, clock, { owner: 'bg' });
    a.register(recordingKind('t.background', runs, undefined, { pollMs: 60_000 }));
    await a.start();
    await enqueue(store.a.db, [{ kind: 't.background', key: 'woken' }], clock.now());
    a.wake('t.background');
    const deadline = Date.now() + 20_000;
    while (runs.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await a.stop();
    expect(runs).toEqual(['woken']);
    expect(a.running('t.background')).toBe(false);
  });

  it('settle waits for what its own loop holds and for what another engine holds, within maxRounds', async () => {
    const runs: string[] = [];
    let started: () => void = () => undefined;
    let open: () => void = () => undefined;
    const running = new Promise<void>((r) => {
      started = r;
    });
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const gated = (name: string): JobKind => ({
      ...recordingKind(name, runs),
      async run(jobs) {
        started();
        await gate;
        for (const job of jobs) runs.push(job.key ?? job.id);
        return jobs.map(() => ({ type: 'done' }));
      },
    });
    const a = new JobsEngine(store.a, clock, { owner: 'settle-a' });
    const b = new JobsEngine(store.b, clock, { owner: 'settle-b' });
    a.register(recordingKind('t.settle', runs));
    b.register(gated('t.settle'));
    await enqueue(store.a.db, [{ kind: 't.settle', key: 'elsewhere' }], clock.now());
    // Another engine holds the job: a cannot claim it, and settles only once b's outcome is written.
    const held = b.runDue();
    await running;
    await expect(a.settle('t.settle', 3)).rejects.toThrow('t.settle did not settle in 3 passes');
    const settled = a.settle('t.settle');
    open();
    expect(await held).toBe(1);
    await settled;
    expect(runs).toEqual(['elsewhere']);
    expect(await rows(store.a, 't.settle')).toEqual([]);

    // The engine's own loop holds the job: settle resolves once its outcome is written.
    const loopRuns: string[] = [];
    const c = new JobsEngine(store.a, clock, { owner: 'settle-c' });
    let loopStarted: () => void = () => undefined;
    let loopOpen: () => void = () => undefined;
    const loopRunning = new Promise<void>((r) => {
      loopStarted = r;
    });
    const loopGate = new Promise<void>((r) => {
      loopOpen = r;
    });
    c.register({
      ...recordingKind('t.settle-loop', loopRuns, undefined, { pollMs: 60_000 }),
      async run(jobs) {
        loopStarted();
        await loopGate;
        for (const job of jobs) loopRuns.push(job.key ?? job.id);
        return jobs.map(() => ({ type: 'done' }));
      },
    });
    await c.start();
    await enqueue(store.a.db, [{ kind: 't.settle-loop', key: 'own' }], clock.now());
    c.wake('t.settle-loop');
    await loopRunning;
    let done = false;
    const settling = c.settle('t.settle-loop').then(() => {
      done = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    loopOpen();
    await settling;
    expect(loopRuns).toEqual(['own']);
    expect(await rows(store.a, 't.settle-loop')).toEqual([]);
    await c.stop();
  });
});
