import { databaseFault, describeFault } from '../../../core/db/faults.js';
import { TimeIds, uuid } from '../../../core/ids/index.js';
import { type Job, type JobKind, type JobOutcome, JobsEngine } from '../../../core/jobs/index.js';
import type { Services } from '../../../core/services.js';
import { HourlyBilling } from '../billing.js';
import { currentPace } from '../pace.js';
import { type AccountCheckReport, AccountChecks } from './account-checks.js';
import { isRateLimited, type KeywordCheckReport, KeywordChecks } from './keyword-checks.js';
import { BILLING_JOB_KIND, SHARD_JOB_KIND, ShardLeases } from './leases.js';
import { DEFAULT_TIMING, type EngineTiming } from './timing.js';

/** Where engine errors go (a Fastify logger fits). */
export interface EngineLog {
  error(details: object, message: string): void;
  warn?(details: object, message: string): void;
}

/** What one check did, for logs, tests and benchmarks. */
export interface CheckReport {
  /** When the check was due (its slot of the 1 s schedule); equals `startedAt` for a manual check. */
  scheduledAt: number;
  startedAt: number;
  finishedAt: number;
  /** Shards this instance held. */
  shards: number;
  accounts: AccountCheckReport;
  keywords: KeywordCheckReport;
  billing: { charged: number; paused: number };
  /** Failures of this check's stages (each stage runs even when another failed). */
  errors: unknown[];
  /**
   * On a platform with a request budget (xapi): the effective interval of the checks (ms), and why this
   * one did not read the platform (or, with the filtered stream, the profiles), if it did not (`interval`:
   * the last read was under an interval ago; `hold`: a rate-limit window is spent until `holdUntil`).
   */
  pace?: { intervalMs: number; skipped?: 'interval' | 'hold'; holdUntil?: number };
}

/** Options of the check engine. */
export interface MonitorEngineOptions {
  /**
   * Start checking when the server is ready and stop when it closes. Default: on when the server runs on
   * the system clock; off with an injected clock, whose owner steps the engine with `checkOnce()`.
   */
  autoStart?: boolean;
  /** Timing and batch sizes (default: {@link DEFAULT_TIMING}). */
  timing?: Partial<EngineTiming>;
  /** Called after every scheduled check. */
  onCheck?: (report: CheckReport) => void;
}

/**
 * The monitors' check engine of one server instance, as two recurring job kinds on the jobs engine: each
 * of the 64 shards has a `monitor.shard` job (due every second; the instance holding its lease checks its
 * active account and keyword monitors against the platform and stores the matched events) and a
 * `monitor.billing` job (bills the hours that fell due in the shard). An instance claims its fair share of
 * the due shards and checks them in one pass. Time comes from the injected clock: `start()` runs the kinds
 * on real timers, `checkOnce()` runs one check now (tests step a manual clock and call it). Errors are
 * logged, never thrown out of the schedule.
 */
export class MonitorEngine {
  /** This instance's name in the shard leases (its jobs engine's owner). */
  readonly id: string;
  private readonly timing: EngineTiming;
  private readonly leases: ShardLeases;
  private readonly accounts: AccountChecks;
  private readonly keywords: KeywordChecks;
  private readonly billing: HourlyBilling;
  private readonly jobs: JobsEngine;
  private current: Promise<unknown> | undefined;
  private active = false;
  private starting: Promise<void> | undefined;
  /** A manual check is collecting its report (`checkOnce`), rather than the schedule. */
  private manual: { report?: CheckReport; billing: { charged: number; paused: number } } | undefined;
  /** Leftover leases of a dead process were looked for (before the first check). */
  private recovered: Promise<void> | undefined;
  /** When this instance last read its monitors from a platform with a request budget (epoch ms). */
  private lastRead = Number.NEGATIVE_INFINITY;
  /** The end of the hold last logged, so a hold is logged once. */
  private loggedHold = 0;

  constructor(
    private readonly services: Pick<
      Services,
      'database' | 'platform' | 'clock' | 'credits' | 'jobs' | 'ports'
    >,
    private readonly log: EngineLog,
    private readonly options: MonitorEngineOptions = {},
  ) {
    this.timing = { ...DEFAULT_TIMING, ...options.timing };
    const { db } = services.database;
    // The server's engine runs the server's monitors; another one on the same server (tests build extra
    // instances) gets a jobs engine of its own, with its own owner id.
    this.jobs = services.jobs.has(SHARD_JOB_KIND)
      ? new JobsEngine(services.database, services.clock, { owner: `monitors_${uuid()}`, log })
      : services.jobs;
    this.id = this.jobs.owner;
    const ids = new TimeIds();
    this.leases = new ShardLeases(db, this.id, this.timing);
    const deps = { db, platform: services.platform, ids, leases: this.leases, timing: this.timing };
    this.accounts = new AccountChecks(deps, services.clock);
    this.keywords = new KeywordChecks(deps, (err, msg) => this.log.error({ err }, msg));
    this.billing = new HourlyBilling(db, services.credits);
    this.jobs.register(this.shardKind());
    this.jobs.register(this.billingKind());
  }

  /** Whether checks are scheduled. */
  get running(): boolean {
    return this.active;
  }

  /** The shards this instance held at its last check. */
  get shards(): readonly number[] {
    return this.leases.shards;
  }

  /**
   * Runs one check now (after the one in progress, if any) of every shard this instance may hold, due or
   * not, then the billing of the hours due; returns the report. A failed stage makes it reject with that
   * failure once every stage has run.
   */
  async checkOnce(): Promise<CheckReport> {
    const report = await this.serially(async () => {
      await this.recover();
      const now = this.services.clock.now();
      this.manual = { billing: { charged: 0, paused: 0 } };
      try {
        await this.jobs.runOnce(SHARD_JOB_KIND, { force: true });
        // Nothing to claim (another instance holds every shard): an empty check, which still beats.
        const r = this.manual.report ?? (await this.check(now, []));
        await this.jobs.runOnce(BILLING_JOB_KIND, { force: true });
        r.billing = this.manual.billing;
        r.finishedAt = this.services.clock.now();
        return r;
      } finally {
        this.manual = undefined;
      }
    });
    if (report.errors.length) {
      throw report.errors.length === 1 ? report.errors[0] : new AggregateError(report.errors, 'check failed');
    }
    return report;
  }

  /** Checks every second (fixed rate: a slow check delays the next, never doubles it) until `stop()`. */
  start(): void {
    if (this.active) return;
    this.active = true;
    this.starting = (async () => {
      await this.recover();
      if (this.active) await this.jobs.start([SHARD_JOB_KIND, BILLING_JOB_KIND]);
    })();
  }

  /** Stops the schedule, waits for the check in progress and hands the shards back to other instances. */
  async stop(): Promise<void> {
    this.active = false;
    await this.starting?.catch(() => undefined);
    await this.current?.catch(() => undefined);
    try {
      await this.jobs.stop([SHARD_JOB_KIND, BILLING_JOB_KIND]);
      await this.leases.release();
    } catch (err) {
      this.log.error({ err }, 'releasing the monitor shards failed');
    }
  }

  private serially<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.current;
    const run = (async () => {
      await previous?.catch(() => undefined);
      return fn();
    })();
    this.current = run;
    return run;
  }

  /** Frees, once, the leases this instance (and on SQLite a dead process) left. */
  private recover(): Promise<void> {
    this.recovered ??= (async () => {
      await this.jobs.releaseOwn();
      if (this.services.database.dialect !== 'sqlite') return;
      try {
        const n = await this.leases.releaseLeftovers();
        if (n > 0)
          this.log.warn?.({ shards: n }, 'monitors: released shard leases left by a previous process');
      } catch (err) {
        this.log.error({ err }, 'monitors: releasing the leases of a previous process failed');
      }
    })();
    return this.recovered;
  }

  private shardKind(): JobKind {
    const { intervalMs, leaseMs } = this.timing;
    return {
      name: SHARD_JOB_KIND,
      batchSize: 1024,
      concurrency: 1024,
      leaseMs,
      pollMs: intervalMs,
      serial: true,
      claimLimit: ({ now }) => this.leases.share(now),
      run: async (jobs) => {
        const due = Math.min(...jobs.map((j) => j.dueAt));
        const report = await this.check(due, jobs.map(shardOf));
        if (this.manual) this.manual.report = report;
        else {
          for (const err of report.errors) this.checkFailed(err);
          this.options.onCheck?.(report);
        }
        const next = Math.max(due + intervalMs, this.services.clock.now());
        return jobs.map((): JobOutcome => ({ type: 'reschedule', at: next }));
      },
      onError: (_job, err, now) => {
        this.checkFailed(err);
        return { type: 'reschedule', at: now + intervalMs };
      },
    };
  }

  /**
   * Logs a failed check: a bug with its stack, the database being away (the next check runs once it is
   * back) as a warning with its cause.
   */
  private checkFailed(err: unknown): void {
    const fault = databaseFault(err);
    if (fault && this.log.warn)
      this.log.warn({ cause: describeFault(fault) }, 'monitor check failed: the database is unavailable');
    else this.log.error({ err }, 'monitor check failed');
  }

  private billingKind(): JobKind {
    const { intervalMs, leaseMs } = this.timing;
    return {
      name: BILLING_JOB_KIND,
      batchSize: 1024,
      concurrency: 1024,
      leaseMs,
      pollMs: intervalMs,
      serial: true,
      run: async (jobs) => {
        const now = this.services.clock.now();
        const r = await this.billing.run(now, jobs.map(shardOf));
        if (this.manual) {
          this.manual.billing.charged += r.charged;
          this.manual.billing.paused += r.paused;
        }
        return jobs.map((): JobOutcome => ({ type: 'reschedule', at: now + intervalMs }));
      },
      onError: (_job, err, now) => {
        this.log.error({ err }, 'monitors: billing failed');
        return { type: 'reschedule', at: now + intervalMs };
      },
    };
  }

  /**
   * What this check must leave alone, by the pace the platform's request budget sets (xapi): `all` when the
   * instance read its monitors less than an effective interval ago or a rate-limit window is spent, `profiles`
   * when only the profile reads cost requests (the filtered stream delivers the posts) and they are not due,
   * `none` otherwise. All monitors wait alike: none is ever checked at the expense of another. Always `none`
   * on a platform without a budget (simulated: every check reads everything).
   */
  private async paced(now: number, report: CheckReport): Promise<'all' | 'profiles' | 'none'> {
    const pace = await currentPace(this.services);
    if (!pace) return 'none';
    report.pace = { intervalMs: pace.intervalMs };
    const skip = pace.postsEveryCheck ? 'profiles' : 'all';
    if (pace.holdUntil !== undefined && now < pace.holdUntil) {
      report.pace.skipped = 'hold';
      report.pace.holdUntil = pace.holdUntil;
      if (this.loggedHold !== pace.holdUntil) {
        this.loggedHold = pace.holdUntil;
        this.log.warn?.(
          { until: new Date(pace.holdUntil).toISOString() },
          'monitors: the X API rate-limit window is spent; every monitor check waits for its reset',
        );
      }
      return skip;
    }
    if (now - this.lastRead < pace.intervalMs) {
      report.pace.skipped = 'interval';
      return skip;
    }
    this.lastRead = now;
    return 'none';
  }

  private async check(scheduledAt: number, shards: readonly number[]): Promise<CheckReport> {
    const now = this.services.clock.now();
    const report: CheckReport = {
      scheduledAt: Math.min(scheduledAt, now),
      startedAt: now,
      finishedAt: now,
      shards: shards.length,
      accounts: {
        monitors: 0,
        tweetsRead: 0,
        events: 0,
        paused: 0,
        timings: { sync: 0, profiles: 0, tweets: 0, store: 0 },
      },
      keywords: { monitors: 0, tweetsRead: 0, events: 0 },
      billing: { charged: 0, paused: 0 },
      errors: [],
    };
    this.leases.hold(shards);
    if (shards.length === 0) {
      try {
        await this.leases.share(now);
      } catch (err) {
        report.errors.push(err);
      }
    }
    const stage = async (run: () => Promise<void>) => {
      try {
        await run();
      } catch (err) {
        report.errors.push(err);
      }
    };
    let skip: 'all' | 'profiles' | 'none' = 'none';
    try {
      skip = await this.paced(now, report);
    } catch (err) {
      report.errors.push(err);
    }
    if (skip === 'all') {
      report.finishedAt = this.services.clock.now();
      return report;
    }
    await stage(async () => {
      report.accounts = await this.accounts.run(now, skip === 'none');
    });
    // A spent rate-limit window in the account stage (X's 429) holds the keyword stage too: its searches
    // count against the same endpoint's budget, and the next checks wait for the reset (see `paced`).
    if (!report.errors.some(isRateLimited)) {
      await stage(async () => {
        report.keywords = await this.keywords.run(now);
      });
    }
    // Deliveries of what was just stored go out now rather than at the webhooks engine's next poll.
    if (report.accounts.events + report.keywords.events > 0) this.services.ports.eventsStored();
    report.finishedAt = this.services.clock.now();
    return report;
  }
}

/** The shard number of a shard job. */
function shardOf(job: Job): number {
  return Number(job.key);
}
