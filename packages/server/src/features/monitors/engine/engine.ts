import { TimeIds, uuid } from '../../../core/ids/index.js';
import type { Services } from '../../../core/services.js';
import { HourlyBilling } from '../billing.js';
import { type AccountCheckReport, AccountChecks } from './account-checks.js';
import { type KeywordCheckReport, KeywordChecks } from './keyword-checks.js';
import { ShardLeases } from './leases.js';
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
 * The monitors' check engine of one server instance: every second it renews its shard leases, checks the
 * active account and keyword monitors of its shards against the platform, stores the matched events and
 * bills the hours that fell due. Time comes from the injected clock; `start()` schedules checks on real
 * timers, `checkOnce()` runs one now (tests step a manual clock and call it). Errors are logged, never
 * thrown out of the schedule.
 */
export class MonitorEngine {
  /** This instance's name in the shard leases. */
  readonly id = uuid();
  private readonly timing: EngineTiming;
  private readonly leases: ShardLeases;
  private readonly accounts: AccountChecks;
  private readonly keywords: KeywordChecks;
  private readonly billing: HourlyBilling;
  private current: Promise<CheckReport> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private active = false;
  /** Leftover leases of a dead process were looked for (before the first check). */
  private recovered = false;

  constructor(
    private readonly services: Pick<Services, 'database' | 'platform' | 'clock' | 'credits' | 'ports'>,
    private readonly log: EngineLog,
    private readonly options: MonitorEngineOptions = {},
  ) {
    this.timing = { ...DEFAULT_TIMING, ...options.timing };
    const { db } = services.database;
    const ids = new TimeIds();
    this.leases = new ShardLeases(db, this.id, this.timing);
    const deps = { db, platform: services.platform, ids, leases: this.leases, timing: this.timing };
    this.accounts = new AccountChecks(deps, services.clock);
    this.keywords = new KeywordChecks(deps, (err, msg) => this.log.error({ err }, msg));
    this.billing = new HourlyBilling(db, services.credits);
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
   * Runs one check now (after the one in progress, if any) and returns its report; a failed stage makes it
   * reject with that failure once every stage has run.
   */
  async checkOnce(): Promise<CheckReport> {
    const report = await this.enqueue(this.services.clock.now());
    if (report.errors.length) {
      throw report.errors.length === 1 ? report.errors[0] : new AggregateError(report.errors, 'check failed');
    }
    return report;
  }

  /** Schedules a check every `intervalMs` (fixed rate: a slow check delays the next, never doubles it). */
  start(): void {
    if (this.active) return;
    this.active = true;
    let next = this.services.clock.now();
    const tick = async () => {
      if (!this.active) return;
      const scheduledAt = next;
      const report = await this.enqueue(scheduledAt);
      for (const err of report.errors) this.log.error({ err }, 'monitor check failed');
      this.options.onCheck?.(report);
      const now = this.services.clock.now();
      next = Math.max(scheduledAt + this.timing.intervalMs, now);
      if (this.active) this.timer = setTimeout(tick, next - now).unref();
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  /** Stops the schedule, waits for the check in progress and hands the shards back to other instances. */
  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.current?.catch(() => undefined);
    try {
      await this.leases.release();
    } catch (err) {
      this.log.error({ err }, 'releasing the monitor shards failed');
    }
  }

  private enqueue(scheduledAt: number): Promise<CheckReport> {
    const previous = this.current;
    const run = (async () => {
      await previous?.catch(() => undefined);
      return this.check(scheduledAt);
    })();
    this.current = run;
    return run;
  }

  private async check(scheduledAt: number): Promise<CheckReport> {
    if (!this.recovered) {
      this.recovered = true;
      if (this.services.database.dialect === 'sqlite') {
        try {
          const n = await this.leases.releaseLeftovers();
          if (n > 0)
            this.log.warn?.({ shards: n }, 'monitors: released shard leases left by a previous process');
        } catch (err) {
          this.log.error({ err }, 'monitors: releasing the leases of a previous process failed');
        }
      }
    }
    const now = this.services.clock.now();
    const report: CheckReport = {
      scheduledAt: Math.min(scheduledAt, now),
      startedAt: now,
      finishedAt: now,
      shards: 0,
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
    try {
      report.shards = (await this.leases.refresh(now)).length;
    } catch (err) {
      report.errors.push(err);
      report.finishedAt = this.services.clock.now();
      return report;
    }
    const stage = async (run: () => Promise<void>) => {
      try {
        await run();
      } catch (err) {
        report.errors.push(err);
      }
    };
    await stage(async () => {
      report.accounts = await this.accounts.run(now);
    });
    await stage(async () => {
      report.keywords = await this.keywords.run(now);
    });
    // Deliveries of what was just stored go out now rather than at the webhooks engine's next poll.
    if (report.accounts.events + report.keywords.events > 0) this.services.ports.eventsStored();
    await stage(async () => {
      report.billing = await this.billing.run(now, this.leases.shards);
    });
    report.finishedAt = this.services.clock.now();
    return report;
  }
}
