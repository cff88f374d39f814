import { setMaxListeners } from 'node:events';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { databaseFault, describeFault } from '../db/faults.js';
import type { Database } from '../db/schema.js';
import { uuid } from '../ids/index.js';
import { claimJobs, countPending, releaseLeases, renewLeases, settleJobs } from './store.js';
import {
  defaultOnError,
  type Job,
  type JobContext,
  type JobKind,
  type JobOutcome,
  type Settled,
} from './types.js';

/** Where the engine reports what it cannot raise (a Fastify logger fits). */
export interface JobsLog {
  error(details: object, message: string): void;
  warn?(details: object, message: string): void;
}

/** Settings of a {@link JobsEngine}. */
export interface JobsEngineOptions {
  /**
   * This instance's lease owner id. Stable across restarts so that an instance frees the leases it held
   * itself when it starts again (the server passes `XSVC_INSTANCE_ID`; default `local` on SQLite, where one process
   * runs the engine, else a random id: a restarted Postgres instance's old leases then expire).
   */
  readonly owner?: string;
  readonly log?: JobsLog;
  /** On stop, runs in flight get this long to finish before their signal aborts (default 3 s). */
  readonly stopGraceMs?: number;
}

/** What one claim pass of a kind did. */
interface Pass {
  claimed: number;
  fed: number;
  full: boolean;
  done: Promise<void>;
}

const silent: JobsLog = { error: () => undefined };

/**
 * How long {@link JobsEngine.settle} waits for an outcome of this engine before it looks again, when the
 * work pending is held elsewhere (another engine's lease): a bound, not a poll of this engine's own work.
 */
const SETTLE_FALLBACK_MS = 10;

/** The first wait of a loop after the database failed it; doubled per failure up to {@link FAULT_BACKOFF_MAX_MS}. */
export const FAULT_BACKOFF_MS = 100;
/** The longest wait between two tries while the database is away (it is back within this of returning). */
export const FAULT_BACKOFF_MAX_MS = 1_000;
/**
 * How long outcomes that could not be written because the database was away are kept and tried again. Past
 * it they are dropped: their leases expire and the jobs run again (at least once, never lost).
 */
export const OUTCOME_RETRY_MS = 60_000;

/** The wait before try `failures + 1` while the database is away. */
function faultBackoff(failures: number): number {
  return Math.min(FAULT_BACKOFF_MAX_MS, FAULT_BACKOFF_MS * 2 ** Math.max(0, failures - 1));
}

/**
 * Tracks one loop's database outage so that it is logged twice (when it starts, with its cause, and when it
 * ends), not once per try.
 */
class Outage {
  failures = 0;
  constructor(
    private readonly log: () => JobsLog,
    private readonly what: string,
  ) {}

  /** A failed try: true when `err` is the database being away (the caller waits and tries again). */
  failed(err: unknown): boolean {
    const fault = databaseFault(err);
    if (!fault) return false;
    if (this.failures++ === 0)
      this.warn(
        { cause: describeFault(fault) },
        `jobs: ${this.what}: the database is unavailable; pausing and trying again`,
      );
    return true;
  }

  /** A try that worked: ends the outage, if any. */
  ok(): void {
    if (this.failures === 0) return;
    this.warn({ failures: this.failures }, `jobs: ${this.what}: the database is back; resumed`);
    this.failures = 0;
  }

  private warn(details: object, message: string): void {
    const log = this.log();
    if (log.warn) log.warn(details, message);
    else log.error(details, message);
  }
}

/** The default lease owner of an engine on `database` (see {@link JobsEngineOptions.owner}). */
export function defaultOwner(database: Db): string {
  return database.dialect === 'sqlite' ? 'local' : `instance_${uuid()}`;
}

/**
 * The one background-work engine of a server: kinds register, and the engine claims their due jobs from
 * the `jobs` table in batches with leases (renewed while a job runs; a dead instance's expired leases are
 * taken over by the others), runs them, and writes their outcomes in batches, each kind's own rows in the
 * same transaction. Time comes from the injected clock: `start()` polls on real timers; tests leave it
 * stopped and call `runDue()` after moving a manual clock.
 */
export class JobsEngine {
  readonly owner: string;
  private readonly runners = new Map<string, KindRunner>();
  private recovered: Promise<void> | undefined;
  /** Set by {@link kill}: nothing is written any more. */
  dead = false;

  constructor(
    readonly database: Db,
    readonly clock: Clock,
    readonly options: JobsEngineOptions = {},
  ) {
    this.owner = options.owner ?? defaultOwner(database);
  }

  get log(): JobsLog {
    return this.options.log ?? silent;
  }

  /** Adds a kind; its jobs run once the engine (or the kind) is started, or on `runDue()`. */
  register<P>(kind: JobKind<P>): void {
    if (this.runners.has(kind.name)) throw new Error(`job kind ${kind.name} is registered already`);
    this.runners.set(kind.name, new KindRunner(this, kind as JobKind<unknown>));
  }

  /** The names of the registered kinds. */
  kinds(): string[] {
    return [...this.runners.keys()];
  }

  /** Whether a kind is registered. */
  has(kind: string): boolean {
    return this.runners.has(kind);
  }

  /** Whether a kind's background loop runs. */
  running(kind: string): boolean {
    return this.runner(kind).running;
  }

  /**
   * Starts the background loops of `kinds` (default: every kind). The first start frees the leases this
   * owner held (a previous run of this instance died holding them), so that work goes on at once.
   */
  async start(kinds?: readonly string[]): Promise<void> {
    await this.recover();
    for (const runner of this.select(kinds)) runner.start();
  }

  /** Looks for due work of `kind` (default: every kind) now instead of at the next poll. */
  wake(kind?: string): void {
    for (const runner of this.select(kind === undefined ? undefined : [kind])) runner.wake();
  }

  /**
   * Runs everything of `kinds` (default every kind) due at the clock's current time until nothing is
   * left, and waits for the outcomes to be written. Returns how many jobs ran (plus rows fed).
   */
  async runDue(kinds?: readonly string[]): Promise<number> {
    let total = 0;
    for (;;) {
      let round = 0;
      let progress = 0;
      for (const runner of this.select(kinds)) {
        const released = runner.released;
        const n = await runner.runDue();
        round += n;
        progress += n - (runner.released - released);
      }
      total += round;
      // Jobs given back (released) are due again at once: stop rather than claim them forever.
      if (progress <= 0) return total;
    }
  }

  /**
   * One pass of a kind now: claims up to its limit (with `force`, jobs not due yet too), runs them and
   * waits for their outcomes to be written. Returns the jobs claimed.
   */
  async runOnce(kind: string, options: { force?: boolean; keys?: readonly string[] } = {}): Promise<number> {
    return this.runner(kind).runOnce(options.force ?? false, options.keys);
  }

  /**
   * Runs `kind`'s due jobs until none is due now and none is in flight in this engine: what a job rescheduled
   * for now (the next page of an extraction) runs too, as does work the kind's own loop took meanwhile.
   * Rejects when the work does not settle within `maxRounds` passes (a job due again forever).
   */
  async settle(kind: string, maxRounds = 1_000): Promise<void> {
    const runner = this.runner(kind);
    for (let round = 0; round < maxRounds; round++) {
      await this.runDue([kind]);
      await this.idle(kind);
      // Counted before the look: an outcome written from here on ends the wait below at once.
      const written = runner.written;
      if ((await countPending(this.database.db, kind, this.owner, this.clock.now())) === 0) return;
      // Pending, yet nothing was left to claim here: the kind's own loop took it meanwhile (its outcome is
      // written here), or another engine holds it (whose writes are not seen here: look again after a while).
      await runner.nextWrite(written, SETTLE_FALLBACK_MS);
    }
    throw new Error(`jobs: ${kind} did not settle in ${maxRounds} passes`);
  }

  /** Resolves once nothing of `kind` is in flight in this engine and its outcomes are written. */
  async idle(kind: string): Promise<void> {
    await this.runner(kind).drain();
  }

  /**
   * Stops the loops of `kinds` (default every kind): runs in flight get `stopGraceMs`, then their signal
   * aborts; their outcomes are written and what did not end is released for the other instances.
   */
  async stop(kinds?: readonly string[]): Promise<void> {
    const runners = this.select(kinds);
    const all = kinds === undefined;
    for (const r of runners) r.halt();
    const graceMs = Math.max(0, ...runners.map((r) => r.stopGraceMs ?? this.options.stopGraceMs ?? 3_000));
    const grace = setTimeout(() => {
      for (const r of runners) r.abort();
    }, graceMs);
    grace.unref();
    await Promise.all(runners.map((r) => r.drain()));
    clearTimeout(grace);
    if (this.dead) return;
    for (const r of runners) {
      await r
        .releaseHeld()
        .catch((err: unknown) => this.log.error({ err }, `jobs: releasing ${r.name} failed`));
    }
    if (all) {
      await releaseLeases(this.database.db, this.owner, this.clock.now()).catch((err: unknown) =>
        this.log.error({ err }, 'jobs: releasing leases failed'),
      );
    }
  }

  /**
   * Stops like a process that died: no loop, no write, no lease released. The leases expire and other
   * instances take the work over (tests simulate a crash with it).
   */
  kill(): void {
    this.dead = true;
    for (const r of this.runners.values()) {
      r.halt();
      r.abort();
    }
  }

  /** Frees, once, the leases this owner held before (a previous run died holding them). */
  releaseOwn(): Promise<void> {
    return this.recover();
  }

  private recover(): Promise<void> {
    this.recovered ??= (async () => {
      try {
        const n = await releaseLeases(this.database.db, this.owner, this.clock.now());
        if (n > 0)
          this.log.warn?.({ jobs: n, owner: this.owner }, 'jobs: released leases this instance held before');
      } catch (err) {
        this.log.error({ err }, 'jobs: releasing the leases of a previous run failed');
      }
    })();
    return this.recovered;
  }

  private runner(kind: string): KindRunner {
    const r = this.runners.get(kind);
    if (!r) throw new Error(`job kind ${kind} is not registered`);
    return r;
  }

  private select(kinds: readonly string[] | undefined): KindRunner[] {
    return kinds === undefined ? [...this.runners.values()] : kinds.map((k) => this.runner(k));
  }
}

/** One kind's loop, jobs in flight and batched outcome writes. */
class KindRunner {
  private readonly inFlight = new Map<string, Job>();
  private readonly batches = new Set<Promise<void>>();
  private readonly pending: Settled[] = [];
  private readonly ctx: JobContext;
  private writes: Promise<void> = Promise.resolve();
  private writeScheduled = false;
  /** Ends the current gathering wait early (set while outcomes are being gathered). */
  private gathering: (() => void) | undefined;
  private serialTail: Promise<void> = Promise.resolve();
  private claimLock: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private active = false;
  private halted = false;
  private backlog = false;
  /** The earliest time this instance rescheduled a job to (the loop wakes then rather than at the poll). */
  private nextHint = Number.POSITIVE_INFINITY;
  /** Jobs settled `release` so far (not progress: {@link JobsEngine.runDue} stops on them). */
  released = 0;
  /** Outcome batches written (or given up on) so far: {@link nextWrite} waits for the next. */
  written = 0;
  private readonly writeWaiters = new Set<() => void>();
  private controller = abortController();
  private readonly claims: Outage;
  private readonly writesOutage: Outage;
  private readonly renewals: Outage;

  constructor(
    private readonly engine: JobsEngine,
    private readonly kind: JobKind<unknown>,
  ) {
    const log = () => engine.log;
    this.claims = new Outage(log, `${kind.name}: claiming`);
    this.writesOutage = new Outage(log, `${kind.name}: writing outcomes`);
    this.renewals = new Outage(log, `${kind.name}: renewing leases`);
    const runner = this;
    this.ctx = {
      database: engine.database,
      clock: engine.clock,
      owner: engine.owner,
      get signal() {
        return runner.controller.signal;
      },
      stopping: () => this.halted,
      settle: (job, outcome, data) => this.settle(job, outcome, data),
      holds: (trx, job) => this.holds(trx, job),
    };
  }

  get name(): string {
    return this.kind.name;
  }

  get running(): boolean {
    return this.active;
  }

  get stopGraceMs(): number | undefined {
    return this.kind.stopGraceMs;
  }

  start(): void {
    if (this.active || this.engine.dead) return;
    this.active = true;
    this.halted = false;
    if (this.controller.signal.aborted) this.controller = abortController();
    this.schedule(0);
  }

  wake(): void {
    if (this.active) this.schedule(0);
  }

  halt(): void {
    this.active = false;
    this.halted = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Aborts the signal of the runs in flight (the stop's grace is over). */
  abort(): void {
    this.controller.abort();
  }

  async runDue(): Promise<number> {
    const pass = await this.exclusive(() => this.pass(false));
    await pass.done;
    await this.drain();
    return pass.claimed + pass.fed;
  }

  async runOnce(force: boolean, keys?: readonly string[]): Promise<number> {
    const pass = await this.exclusive(() => this.pass(force, keys));
    await pass.done;
    await this.drain();
    return pass.claimed;
  }

  /** Waits for every batch in flight and for the outcomes to be written. */
  async drain(): Promise<void> {
    while (this.batches.size > 0) await Promise.allSettled([...this.batches]);
    await this.claimLock;
    await this.writes;
  }

  /**
   * Resolves once this runner has written an outcome batch after the `since`-th ({@link written} read
   * earlier: at once when one was written meanwhile), or after `timeoutMs` at the latest.
   */
  nextWrite(since: number, timeoutMs: number): Promise<void> {
    if (this.written > since) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.writeWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.writeWaiters.add(done);
    });
  }

  /** Releases the jobs this runner still holds (a stop). */
  async releaseHeld(): Promise<void> {
    const ids = [...this.inFlight.keys()];
    this.inFlight.clear();
    await releaseLeases(this.engine.database.db, this.engine.owner, this.engine.clock.now(), ids);
  }

  private schedule(delayMs: number): void {
    if (!this.active) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), Math.max(0, delayMs));
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (!this.active) return;
    let again = this.kind.pollMs ?? 1_000;
    try {
      const pass = await this.exclusive(() => this.pass(false));
      this.backlog = pass.full;
      if ((pass.full || pass.fed > 0) && this.inFlight.size < this.lowWatermark()) again = 0;
      if (this.kind.serial && pass.claimed > 0) {
        // Recurring work that covers everything it holds in one pass: look again once it has ended.
        await pass.done;
        again = Math.min(again, this.untilHint());
      }
      this.claims.ok();
    } catch (err) {
      // The database is away: pause (a short backoff, so that the loop is back soon after it), never stop.
      if (this.claims.failed(err)) again = faultBackoff(this.claims.failures);
      else this.engine.log.error({ err }, `jobs: ${this.kind.name}: cycle failed; retrying at the next poll`);
    }
    if (!this.timer) this.schedule(Math.min(again, this.untilHint()));
  }

  private untilHint(): number {
    if (this.nextHint === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
    const delay = this.nextHint - this.engine.clock.now();
    if (delay <= 0) this.nextHint = Number.POSITIVE_INFINITY;
    return Math.max(0, delay);
  }

  private lowWatermark(): number {
    return Math.max(1, Math.floor(this.kind.concurrency / 2));
  }

  /** Serializes claim passes (the loop, `runDue` and `runOnce` may overlap). */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.claimLock.then(fn, fn);
    this.claimLock = run.catch(() => undefined);
    return run;
  }

  /** Feeds, claims up to the free capacity, and launches the batch. */
  private async pass(force: boolean, keys?: readonly string[]): Promise<Pass> {
    const idle: Pass = { claimed: 0, fed: 0, full: false, done: Promise.resolve() };
    if (this.engine.dead) return idle;
    const { database, owner } = this.engine;
    const now = this.engine.clock.now();
    const { batchSize, concurrency, leaseMs } = this.kind;
    const hold = Math.max(0, Math.min(batchSize, concurrency - this.inFlight.size));
    const feeding = this.kind.feed
      ? await this.kind.feed({ database, now, limit: batchSize, owner, leaseMs, hold })
      : 0;
    const fed = typeof feeding === 'number' ? feeding : feeding.fed;
    // Jobs the feed created held by this engine run now, with no claim (they are leased already).
    const held = typeof feeding === 'number' ? [] : (feeding.held ?? []);
    const launchedHeld = held.length > 0 ? this.launch(held) : undefined;
    let limit = Math.min(batchSize, concurrency - this.inFlight.size);
    if (this.kind.claimLimit) limit = Math.min(limit, await this.kind.claimLimit({ database, owner, now }));
    const more = fed >= batchSize || (typeof feeding !== 'number' && feeding.more === true);
    const heldPass: Pass = {
      claimed: held.length,
      fed,
      full: more,
      done: launchedHeld ?? idle.done,
    };
    if (limit <= 0) return heldPass;
    // A hint that fell due is served by this claim: left in place, it would look due again after the pass
    // and wake the loop at once for nothing (a recurring job's next hint would then be lost, and the job
    // wait for the poll after it instead of its own time).
    if (this.nextHint <= now) this.nextHint = Number.POSITIVE_INFINITY;
    const jobs = await claimJobs(database.db, database.dialect, {
      kind: this.kind.name,
      owner,
      now,
      leaseMs: this.kind.leaseMs,
      limit,
      force,
      ...(keys && { keys }),
    });
    if (jobs.length === 0) return heldPass;
    const launched = this.launch(jobs);
    return {
      claimed: held.length + jobs.length,
      fed,
      full: jobs.length === limit || heldPass.full,
      done: launchedHeld ? Promise.all([launchedHeld, launched]).then(() => undefined) : launched,
    };
  }

  private launch(jobs: readonly Job[]): Promise<void> {
    for (const job of jobs) this.inFlight.set(job.id, job);
    this.startRenewals();
    const previous = this.serialTail;
    const batch = (async () => {
      if (this.kind.serial) await previous;
      let outcomes: readonly (JobOutcome | undefined)[] | undefined;
      try {
        outcomes = await this.kind.run(jobs, this.ctx);
      } catch (err) {
        const now = this.engine.clock.now();
        if (!this.controller.signal.aborted)
          this.engine.log.error({ err }, `jobs: ${this.kind.name}: a run failed`);
        const onError = this.kind.onError ?? defaultOnError;
        outcomes = jobs.map((job) => (this.controller.signal.aborted ? undefined : onError(job, err, now)));
      }
      jobs.forEach((job, i) => {
        this.settle(job, outcomes?.[i] ?? { type: 'release' });
      });
    })();
    const tracked = batch.finally(() => this.batches.delete(tracked));
    this.batches.add(tracked);
    if (this.kind.serial) this.serialTail = tracked.catch(() => undefined);
    return tracked;
  }

  private settle(job: Job, outcome: JobOutcome, data?: unknown): void {
    if (!this.inFlight.delete(job.id) || this.engine.dead) return;
    if (outcome.type === 'release') this.released++;
    if (outcome.type === 'reschedule' || outcome.type === 'retry')
      this.nextHint = Math.min(this.nextHint, outcome.at);
    this.pending.push(data === undefined ? { job, outcome } : { job, outcome, data });
    this.scheduleWrite();
    if (this.inFlight.size === 0) {
      // Nothing left in flight: what was gathered is written now, and no lease needs renewing.
      this.cutGathering();
      this.stopRenewals();
    }
    if (this.backlog && this.active && this.inFlight.size === this.lowWatermark() - 1) this.wake();
  }

  /** Ends the wait of the outcomes being gathered ({@link JobKind.settleDelayMs}), if any. */
  private cutGathering(): void {
    const end = this.gathering;
    this.gathering = undefined;
    end?.();
  }

  /**
   * Outcomes are written in batches: every job that ended in the same turn shares one transaction, or,
   * with `settleDelayMs`, every job that ended while the batch was gathering.
   */
  private scheduleWrite(): void {
    if (this.writeScheduled) return;
    this.writeScheduled = true;
    this.writes = this.writes.then(async () => {
      // While more jobs are in flight, outcomes gather for `settleDelayMs` (bigger batches: fewer commits,
      // each hot page written once); the last ones are written at once.
      const delay = this.inFlight.size > 0 ? (this.kind.settleDelayMs ?? 0) : 0;
      await new Promise<void>((resolve) => {
        if (delay <= 0) return setImmediate(resolve);
        const timer = setTimeout(() => this.cutGathering(), delay);
        this.gathering = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.writeScheduled = false;
      const settled = this.pending.splice(0);
      if (settled.length === 0 || this.engine.dead) return;
      await this.writeOutcomes(settled);
      this.written++;
      for (const wake of [...this.writeWaiters]) wake();
      if (this.nextHint !== Number.POSITIVE_INFINITY && this.active && !this.timer) {
        this.schedule(this.untilHint());
      }
    });
  }

  /**
   * Writes `settled` (their rows and the kind's own, in one transaction). While the database is away the
   * write is tried again, for up to {@link OUTCOME_RETRY_MS} (a stop gives up after a few tries): a write is
   * safe to repeat, since only jobs whose lease this engine still holds are settled, and the kind's rows are
   * written for those only. Given up, the leases expire and the jobs run again: at least once, never lost.
   */
  private async writeOutcomes(settled: Settled[]): Promise<void> {
    const { database, owner, clock } = this.engine;
    const started = Date.now();
    for (let tries = 1; ; tries++) {
      const now = clock.now();
      try {
        await database.db.transaction().execute(async (trx) => {
          const held = await settleJobs(
            trx,
            owner,
            now,
            settled.map((s) => ({ id: s.job.id, outcome: s.outcome })),
          );
          const mine = held.size === settled.length ? settled : settled.filter((s) => held.has(s.job.id));
          if (this.kind.settle && mine.length > 0) await this.kind.settle(trx, mine, { now });
        });
        this.writesOutage.ok();
        return;
      } catch (err) {
        const away = this.writesOutage.failed(err);
        const giveUp =
          !away ||
          this.engine.dead ||
          Date.now() - started >= OUTCOME_RETRY_MS ||
          (this.halted && tries >= 3);
        if (giveUp) {
          this.engine.log.error(
            { err, jobs: settled.length },
            `jobs: ${this.kind.name}: writing outcomes failed; the jobs run again once their leases expire`,
          );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, faultBackoff(tries)));
      }
    }
  }

  private async holds(trx: Kysely<Database>, job: Job): Promise<boolean> {
    const now = this.engine.clock.now();
    const held = await renewLeases(trx, this.engine.owner, [job.id], now, now + this.kind.leaseMs);
    return held.has(job.id);
  }

  private startRenewals(): void {
    if (this.renewTimer) return;
    const every = Math.max(10, Math.floor(this.kind.leaseMs / 3));
    this.renewTimer = setInterval(() => {
      if (this.inFlight.size === 0 || this.engine.dead) return this.stopRenewals();
      const now = this.engine.clock.now();
      // While the database is away a renewal fails; the next one (a third of a lease later) extends the
      // leases again if no other instance took them over meanwhile (the update is by lease owner).
      renewLeases(
        this.engine.database.db,
        this.engine.owner,
        [...this.inFlight.keys()],
        now,
        now + this.kind.leaseMs,
      )
        .then(() => this.renewals.ok())
        .catch((err: unknown) => {
          if (!this.renewals.failed(err))
            this.engine.log.error({ err }, `jobs: ${this.kind.name}: renewing leases failed`);
        });
    }, every);
    this.renewTimer.unref();
  }

  private stopRenewals(): void {
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = undefined;
  }
}

/** A stop signal: every run in flight may listen to it, so it may have many listeners. */
function abortController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
