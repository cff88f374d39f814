/**
 * Webhook deliveries on Postgres, one server instance against two (issue #20: "on Postgres with two
 * instances, the pair delivering at least 1.6x one instance"). Each instance is the real server
 * (`createServer`, listening, so its engines start as `xsvc-server`'s do) in a process of its own with its own
 * `instanceId` (lease owner), on one scratch database; the receiver runs in a worker thread of this process
 * and verifies every signature with @xsvc/webhook-verifier.
 *
 * - Warm-up: both instances deliver a small burst (JIT, pools, connections).
 * - Phase A: instance 2's delivery engine is stopped; a burst of `XSVC_BENCH_EVENTS` (default 10,000) events
 *   is stored with their outbox rows in transactions of 500, as the monitors feature stores them, and the
 *   clock runs from the first insert until the receiver has verified the last event → rate 1.
 * - Phase B: instance 2's engine is started again; a fresh burst of the same size → rate 2.
 * - `XSVC_BENCH_ROUNDS` rounds (default 2) in the order A B, B A, A B, …; the rates are summed over rounds.
 *
 * Printed: deliveries/s and their ratio, which instance delivered how many, that no event arrived twice, and
 * the CPU of every party (each instance's process, Postgres's processes, this process: storing + receiver,
 * the rest of the machine) from which the "limited by" line is computed.
 *
 * `XSVC_BENCH_PG_URL` names the Postgres server (default the local test server); `XSVC_BENCH_PROFILE=<dir>`
 * writes a V8 CPU profile of instance 1 during phase A to that folder and samples Postgres's active
 * statements meanwhile (both cost CPU: figures of such a run are not comparable).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { bootstrapOwner, createServer, type Db, parseConfig, type XsvcServer } from '@xsvc/server';
import { storeEvents } from './src/events.js';
import { createScratchDatabase, type ScratchDatabase } from './src/pg-admin.js';
import { cpuBetween, machineCpu, processesCpu } from './src/proc-cpu.js';
import { type Receiver, startReceiver, wallNow } from './src/receiver.js';
import { goal, table } from './src/stats.js';

const EVENTS = Number(process.env.XSVC_BENCH_EVENTS ?? 10_000);
const WARMUP_EVENTS = Math.min(2_000, EVENTS);
const STORE_BATCH = 500;
const ROUNDS = Math.max(1, Number(process.env.XSVC_BENCH_ROUNDS ?? 2));
const PHASE_TIMEOUT_MS = 60_000;
const PROFILE_DIR = process.env.XSVC_BENCH_PROFILE;
const GOAL_RATIO = 1.6;

type Elu = ReturnType<typeof performance.eventLoopUtilization>;

interface InstanceStats {
  readonly delivered: number;
  readonly attempts: number;
  readonly cpu: NodeJS.CpuUsage;
  readonly elu: Elu;
}

/** A server instance in a child process (`src/pg-instance.mjs`), driven over IPC. */
class Instance {
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    child.on('message', (m: { id?: number; error?: string }) => {
      if (m.id === undefined) return;
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error) w?.reject(new Error(`${name}: ${m.error}`));
      else w?.resolve(m);
    });
    child.on('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`${name} exited (${code})`));
      this.waiting.clear();
    });
  }

  static async start(name: string, databaseUrl: string): Promise<Instance> {
    const script = fileURLToPath(new URL('./src/pg-instance.mjs', import.meta.url));
    // Plain JavaScript on the built packages: none of this process's flags (the TypeScript loader).
    const child = fork(script, [databaseUrl, name], {
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready`)));
      child.once('message', () => resolve());
    });
    child.removeAllListeners('exit');
    return new Instance(name, child);
  }

  call<T = Record<string, never>>(type: string, extra: object = {}): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, type, ...extra });
    });
  }

  stats(): Promise<InstanceStats> {
    return this.call<InstanceStats>('stats');
  }

  /** Closes the server (its engine releases what it holds) and waits for the process to end. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.call('close').catch(() => this.child.kill('SIGKILL'));
    await exited;
    clearTimeout(killer);
  }
}

/** Every party's counters at one moment. */
interface Snapshot {
  readonly at: number;
  readonly instances: InstanceStats[];
  readonly bench: NodeJS.CpuUsage;
  readonly benchElu: Elu;
  readonly receiverElu: Elu;
  readonly pgPids: number[];
  readonly pgCpu: Map<number, number>;
  readonly machine: { busy: number; total: number } | undefined;
}

/** Event-loop time, ms: busy and in all. */
interface Loop {
  readonly active: number;
  readonly total: number;
}

/** What one phase (or the sum of several) measured. */
interface Measured {
  readonly label: string;
  readonly events: number;
  /** First insert to the last event verified at the receiver, s. */
  readonly seconds: number;
  /** Of which storing the events, s. */
  readonly storeSeconds: number;
  /** The window the CPU figures cover, s. */
  readonly span: number;
  readonly delivered: number[];
  /** CPU seconds over the span: each instance's process, Postgres's processes, this process, the machine. */
  readonly cpu: { instances: number[]; postgres: number; bench: number; machine: number | undefined };
  readonly loops: { instances: Loop[]; receiver: Loop; bench: Loop };
  readonly load1: number;
}

const CORES = availableParallelism();
const sum = (xs: readonly number[]) => xs.reduce((x, y) => x + y, 0);
const rate = (m: Measured) => m.events / m.seconds;
const cores = (m: Measured, cpuSeconds: number) => cpuSeconds / m.span;
const busy = (l: Loop) => (l.total > 0 ? l.active / l.total : 0);
/** CPU seconds the processes not part of this benchmark used over the span (undefined without /proc). */
const otherCpu = (m: Measured) =>
  m.cpu.machine === undefined
    ? undefined
    : Math.max(0, m.cpu.machine - sum(m.cpu.instances) - m.cpu.postgres - m.cpu.bench);
/** The benchmark's CPU per delivery, ms: instances, Postgres, receiver and storing. */
const costPerDelivery = (m: Measured) =>
  ((sum(m.cpu.instances) + m.cpu.postgres + m.cpu.bench) * 1000) / m.events;

async function main(): Promise<void> {
  const scratch = await createScratchDatabase('deliveries');
  const cleanup: (() => Promise<void>)[] = [() => scratch.drop()];
  const onSignal = () => {
    void runAll(cleanup).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await run(scratch, cleanup);
  } finally {
    await runAll(cleanup);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Runs the cleanups, last registered first; one failing does not stop the others. */
async function runAll(cleanup: (() => Promise<void>)[]): Promise<void> {
  while (cleanup.length > 0) {
    const step = cleanup.pop()!;
    await step().catch((err: unknown) => console.error('cleanup failed:', err));
  }
}

async function run(scratch: ScratchDatabase, cleanup: (() => Promise<void>)[]): Promise<void> {
  // The real server migrates and seeds the scratch database, bootstraps the owner and creates the webhook;
  // it stays in this process, not listening, its engines off, to store events through its pool.
  const key = `svc_${randomBytes(32).toString('hex')}`;
  const config = parseConfig({
    databaseUrl: scratch.url,
    instanceId: 'bench-admin',
    seedSize: 'tiny',
    logLevel: 'silent',
    keyFile: '',
    bootstrapApiKey: key,
    allowLoopbackWebhooks: true,
  });
  const admin = await createServer(config, {
    webhooks: { autoStart: false },
    monitors: { autoStart: false },
    extractions: { autoStart: false },
  });
  cleanup.push(() => admin.close());
  const { accountId } = await bootstrapOwner(admin.services.database, config, Date.now());
  const created = await inject(admin, key, 'POST', '/api/v1/webhooks', {
    url: 'http://127.0.0.1:9/placeholder',
    eventTypes: ['tweet.new'],
  });
  const receiver = await startReceiver(created.secret as string);
  cleanup.push(() => receiver.close());
  await inject(admin, key, 'PATCH', `/api/v1/webhooks/${created.id}`, {
    url: `http://127.0.0.1:${receiver.port}/hook`,
  });

  const instances: Instance[] = [];
  for (const name of ['pg-1', 'pg-2']) {
    const instance = await Instance.start(name, scratch.url);
    instances.push(instance);
    cleanup.push(() => instance.close());
  }
  const [one, two] = instances as [Instance, Instance];
  const database = admin.services.database;
  const allIds: string[] = [];
  let twoRunning = true;
  let profileFile: string | undefined;

  const measure = async (label: string, active: 1 | 2, n: number): Promise<Measured> => {
    if (active === 1 && twoRunning) await two.call('pause');
    if (active === 2 && !twoRunning) await two.call('resume');
    twoRunning = active === 2;
    const profile = PROFILE_DIR && active === 1 && !profileFile;
    if (profile) {
      mkdirSync(PROFILE_DIR, { recursive: true });
      profileFile = join(PROFILE_DIR, `pg-1-phase-a-${Date.now()}.cpuprofile`);
      await one.call('profile-start');
    }
    const sampler = profile ? samplePostgres(scratch) : undefined;
    const before = await snapshot(instances, receiver, scratch);
    const started = wallNow();
    const ids: string[] = [];
    for (let stored = 0; stored < n; stored += STORE_BATCH)
      ids.push(...(await storeEvents(database, accountId, Math.min(STORE_BATCH, n - stored))));
    const storeSeconds = (wallNow() - started) / 1000;
    await receiver.waitFor(ids, PHASE_TIMEOUT_MS);
    const last = Math.max(...ids.map((id) => receiver.arrivals.get(id)!));
    const after = await snapshot(instances, receiver, scratch, before);
    if (profile) {
      await one.call('profile-stop', { file: profileFile });
      printSamples(await sampler!.stop());
    }
    await drained(database);
    allIds.push(...ids);
    return measured(label, n, (last - started) / 1000, storeSeconds, before, after);
  };

  await measure('warm-up', 2, WARMUP_EVENTS);
  // Rounds in the order A B, B A, A B, …: a drift over the run (the tables grow, the machine's other load
  // changes) weighs on both the same.
  const phases: Measured[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const order: (1 | 2)[] = round % 2 === 1 ? [1, 2] : [2, 1];
    for (const active of order)
      phases.push(
        await measure(
          `${active === 1 ? 'A' : 'B'}${round}: ${active} instance${active === 1 ? '' : 's'}`,
          active,
          EVENTS,
        ),
      );
  }
  const a = merge(
    'A: one instance',
    phases.filter((p) => p.label.startsWith('A')),
  );
  const b = merge(
    'B: two instances',
    phases.filter((p) => p.label.startsWith('B')),
  );

  const duplicates = allIds.filter((id) => (receiver.counts.get(id) ?? 0) > 1).length;
  const rejected = await receiver.rejected();
  report(phases, a, b, duplicates, rejected);
  if (profileFile) console.log(`CPU profile of pg-1 during phase A1: ${profileFile}`);
  if (duplicates > 0 || rejected > 0) process.exitCode = 1;
}

/** Every party's counters now; Postgres's processes of `previous` are read again too (one may have ended). */
async function snapshot(
  instances: Instance[],
  receiver: Receiver,
  scratch: ScratchDatabase,
  previous?: Snapshot,
): Promise<Snapshot> {
  const [stats, receiverElu, pg] = await Promise.all([
    Promise.all(instances.map((i) => i.stats())),
    receiver.elu(),
    // Postgres's share: the backends of the scratch database and the server's own processes (WAL writer,
    // checkpointer, ...), not other databases' sessions (they count with the rest of the machine).
    scratch.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = $1 or backend_type <> 'client backend'",
      [scratch.name],
    ),
  ]);
  const pgPids = pg.map((r) => r.pid);
  return {
    at: wallNow(),
    instances: stats,
    bench: process.cpuUsage(),
    benchElu: performance.eventLoopUtilization(),
    receiverElu,
    pgPids,
    pgCpu: processesCpu(new Set([...pgPids, ...(previous?.pgPids ?? [])])),
    machine: machineCpu(),
  };
}

function measured(
  label: string,
  events: number,
  seconds: number,
  storeSeconds: number,
  before: Snapshot,
  after: Snapshot,
): Measured {
  const cpuSeconds = (b: NodeJS.CpuUsage, a: NodeJS.CpuUsage) =>
    (a.user - b.user + a.system - b.system) / 1e6;
  const loop = (b: Elu, a: Elu): Loop => {
    const d = performance.eventLoopUtilization(a, b);
    return { active: d.active, total: d.active + d.idle };
  };
  const span = (after.at - before.at) / 1000;
  return {
    label,
    events,
    seconds,
    storeSeconds,
    span,
    delivered: after.instances.map((s, i) => s.delivered - before.instances[i]!.delivered),
    cpu: {
      instances: after.instances.map((s, i) => cpuSeconds(before.instances[i]!.cpu, s.cpu)),
      postgres: cpuBetween(before.pgCpu, after.pgCpu),
      bench: cpuSeconds(before.bench, after.bench),
      // The machine's busy share of the span, as CPU seconds on all its cores.
      machine:
        before.machine && after.machine
          ? ((after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)) *
            CORES *
            span
          : undefined,
    },
    loops: {
      instances: after.instances.map((s, i) => loop(before.instances[i]!.elu, s.elu)),
      receiver: loop(before.receiverElu, after.receiverElu),
      bench: loop(before.benchElu, after.benchElu),
    },
    load1: loadavg()[0] ?? 0,
  };
}

/** The sum of several phases' measurements. */
function merge(label: string, ms: readonly Measured[]): Measured {
  const total = (f: (m: Measured) => number) => sum(ms.map(f));
  const perInstance = (f: (m: Measured) => readonly number[]) =>
    f(ms[0]!).map((_, i) => total((m) => f(m)[i]!));
  const loops = (f: (m: Measured) => Loop) => ({
    active: total((m) => f(m).active),
    total: total((m) => f(m).total),
  });
  return {
    label,
    events: total((m) => m.events),
    seconds: total((m) => m.seconds),
    storeSeconds: total((m) => m.storeSeconds),
    span: total((m) => m.span),
    delivered: perInstance((m) => m.delivered),
    cpu: {
      instances: perInstance((m) => m.cpu.instances),
      postgres: total((m) => m.cpu.postgres),
      bench: total((m) => m.cpu.bench),
      machine: ms.every((m) => m.cpu.machine !== undefined) ? total((m) => m.cpu.machine!) : undefined,
    },
    loops: {
      instances: ms[0]!.loops.instances.map((_, i) => loops((m) => m.loops.instances[i]!)),
      receiver: loops((m) => m.loops.receiver),
      bench: loops((m) => m.loops.bench),
    },
    load1: Math.max(...ms.map((m) => m.load1)),
  };
}

function report(phases: Measured[], a: Measured, b: Measured, duplicates: number, rejected: number): void {
  const f = (x: number, d = 2) => x.toFixed(d);
  const pct = (l: Loop) => `${(busy(l) * 100).toFixed(0)}%`;
  const ratio = rate(b) / rate(a);
  console.log(
    `\nWebhook deliveries on Postgres, ${EVENTS} events per phase, ${ROUNDS} round(s), each instance in its own ` +
      `process, receiver verifying signatures in a worker thread (${CORES} cores)`,
  );
  table([
    ['phase', 'deliveries/s', 'ratio to A', 'seconds', 'of which storing', 'delivered by pg-1 / pg-2'],
    ...[...phases, a, b].map((p) => [
      p.label,
      f(rate(p), 0),
      f(rate(p) / rate(a)),
      f(p.seconds),
      f(p.storeSeconds),
      p.delivered.join(' / '),
    ]),
  ]);
  console.log('\nCPU in cores (event loop busy in parentheses):');
  table([
    [
      'phase',
      'pg-1',
      'pg-2',
      'postgres',
      'bench: storing + receiver',
      'other processes',
      'machine',
      'load 1m',
    ],
    ...[...phases, a, b].map((p) => {
      const other = otherCpu(p);
      return [
        p.label,
        `${f(cores(p, p.cpu.instances[0]!))} (${pct(p.loops.instances[0]!)})`,
        `${f(cores(p, p.cpu.instances[1]!))} (${pct(p.loops.instances[1]!)})`,
        f(cores(p, p.cpu.postgres)),
        `${f(cores(p, p.cpu.bench))} (receiver ${pct(p.loops.receiver)}, main ${pct(p.loops.bench)})`,
        other === undefined ? '?' : f(cores(p, other)),
        p.cpu.machine === undefined ? '?' : `${f(cores(p, p.cpu.machine))} of ${CORES}`,
        f(p.load1, 1),
      ];
    }),
  ]);
  console.log('\nCPU ms per delivery:');
  table([
    ['phase', 'instances', 'postgres', 'bench', 'total (this benchmark)'],
    ...[a, b].map((p) => {
      const per = (cpuSeconds: number) => f((cpuSeconds * 1000) / p.events, 3);
      return [
        p.label,
        per(sum(p.cpu.instances)),
        per(p.cpu.postgres),
        per(p.cpu.bench),
        f(costPerDelivery(p), 3),
      ];
    }),
  ]);
  const shared = phases.filter((p) => p.label.startsWith('B')).every((p) => p.delivered.every((d) => d > 0));
  console.log(
    `\nchecks: ${duplicates === 0 ? 'no event delivered twice' : `CHECK FAIL: ${duplicates} events delivered more than once`}; ` +
      `${rejected === 0 ? 'every signature verified' : `CHECK FAIL: ${rejected} signatures rejected`}; ` +
      `phase B: ${shared ? 'both instances delivered a share in every round' : 'CHECK FAIL: an instance delivered nothing'}`,
  );
  const otherCores = Math.max(...[a, b].map((p) => cores(p, otherCpu(p) ?? 0)));
  if (otherCores > 0.25)
    console.log(
      `note: processes outside this benchmark kept ${f(otherCores)} of the ${CORES} cores busy: the rates are lower and noisier than on a quiet machine`,
    );
  console.log(`one instance limited by: ${limitOne(a)}`);
  console.log(`limited by: ${limitTwo(a, b)}`);
  goal(
    `two instances >= ${GOAL_RATIO}x one`,
    ratio >= GOAL_RATIO,
    `${f(ratio)}x: ${f(rate(b), 0)}/s against ${f(rate(a), 0)}/s`,
  );
}

/** The parties' CPU of a phase, in cores. */
function shares(p: Measured): string {
  const c = (x: number) => cores(p, x).toFixed(2);
  const other = otherCpu(p);
  return (
    `machine ${p.cpu.machine === undefined ? '?' : c(p.cpu.machine)} of ${CORES} cores busy = ` +
    `pg-1 ${c(p.cpu.instances[0]!)} (loop ${(busy(p.loops.instances[0]!) * 100).toFixed(0)}% busy) + ` +
    `pg-2 ${c(p.cpu.instances[1]!)} (loop ${(busy(p.loops.instances[1]!) * 100).toFixed(0)}% busy) + ` +
    `postgres ${c(p.cpu.postgres)} + bench ${c(p.cpu.bench)} + other processes ${other === undefined ? '?' : c(other)}`
  );
}

/** What bounded phase A, from its measurements. */
function limitOne(a: Measured): string {
  const loop = busy(a.loops.instances[0]!);
  const machine = a.cpu.machine === undefined ? undefined : cores(a, a.cpu.machine);
  if (machine !== undefined && machine >= 0.9 * CORES) return `the machine's CPU (${shares(a)})`;
  if (loop >= 0.85) return `the instance's one JS thread (${shares(a)})`;
  return `waiting, not CPU: neither the instance's thread nor the machine was saturated, so round trips to Postgres and the receiver set the pace (${shares(a)})`;
}

/** Why phase B reached the ratio it did, from the measurements of both phases. */
function limitTwo(a: Measured, b: Measured): string {
  const ratio = rate(b) / rate(a);
  const costA = costPerDelivery(a);
  const costB = costPerDelivery(b);
  const other = cores(b, otherCpu(b) ?? 0);
  const machine = b.cpu.machine === undefined ? undefined : cores(b, b.cpu.machine);
  const cost = `CPU per delivery ${costA.toFixed(3)} ms with one instance, ${costB.toFixed(3)} ms with two`;
  if (ratio >= GOAL_RATIO) return `(goal met) phase B: ${shares(b)}; ${cost}`;
  if (machine !== undefined && machine >= 0.9 * CORES) {
    // At phase A's CPU cost per delivery, the cores left to the benchmark allow at most this rate.
    const cap = ((CORES - other) * 1000) / costA;
    const dearer =
      costB > costA * 1.1
        ? `; two instances also spend ${((costB / costA - 1) * 100).toFixed(0)}% more CPU per delivery`
        : '';
    const instanceShare = ((sum(a.cpu.instances) * 1000) / a.events / costA) * 100;
    return (
      `the machine's CPU: phase B: ${shares(b)}. Each delivery costs ${costA.toFixed(3)} ms of CPU with one instance ` +
      `(${instanceShare.toFixed(0)}% of it in the instance, the rest Postgres, the receiver and storing) and ` +
      `${costB.toFixed(3)} ms with two; the ${(CORES - other).toFixed(2)} cores other processes left allow at most ` +
      `${cap.toFixed(0)}/s = ${(cap / rate(a)).toFixed(2)}x one instance's rate (all ${CORES} cores: ` +
      `${((CORES * 1000) / costA).toFixed(0)}/s)${dearer}`
    );
  }
  if (b.loops.instances.every((l) => busy(l) >= 0.85))
    return `both instances' JS threads, with CPU to spare on the machine (phase B: ${shares(b)}; ${cost})`;
  return `waiting, not CPU: the machine had idle CPU and the instances' loops were not saturated, so round trips or locks in Postgres set the pace (phase B: ${shares(b)}; ${cost})`;
}

/** Waits until the engines hold no delivery job and no outbox row is left (the last results are written). */
async function drained(database: Db): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const jobs = await database.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('kind', '=', 'webhook.delivery')
      .executeTakeFirstOrThrow();
    const outbox = await database.db
      .selectFrom('event_outbox')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(jobs.n) === 0 && Number(outbox.n) === 0) return;
    if (Date.now() > deadline) throw new Error(`not drained: ${jobs.n} jobs, ${outbox.n} outbox rows left`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Samples the scratch database's active statements every few ms until stopped (a poor man's profile). */
function samplePostgres(scratch: ScratchDatabase): { stop(): Promise<Map<string, number>> } {
  const tally = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const rows = await scratch.query<{ query: string; wait: string | null }>(
        `select query, wait_event_type || ':' || wait_event as wait from pg_stat_activity
         where datname = $1 and state = 'active' and pid <> pg_backend_pid()`,
        [scratch.name],
      );
      for (const r of rows) {
        const k = `${r.wait ?? 'CPU'}  ${r.query.replace(/\s+/g, ' ').slice(0, 110)}`;
        tally.set(k, (tally.get(k) ?? 0) + 1);
      }
      tally.set('(samples)', (tally.get('(samples)') ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return tally;
    },
  };
}

function printSamples(tally: Map<string, number>): void {
  const samples = tally.get('(samples)') ?? 1;
  tally.delete('(samples)');
  console.log(`\nPostgres, phase A: active statements over ${samples} samples (wait event or CPU):`);
  const rows = [...tally].sort((x, y) => y[1] - x[1]).slice(0, 15);
  for (const [k, n] of rows) console.log(`${((n / samples) * 100).toFixed(0).padStart(4)}%  ${k}`);
}

async function inject(server: XsvcServer, key: string, method: 'POST' | 'PATCH', url: string, body: object) {
  const r = await server.app.inject({
    method,
    url,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
  return r.json() as Record<string, unknown>;
}

await main();
