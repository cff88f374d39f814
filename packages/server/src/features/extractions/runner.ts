import { HttpError } from '../../core/http/errors.js';
import { uuid } from '../../core/ids/index.js';
import type { Services } from '../../core/services.js';
import { PlatformUnavailableError } from '../../platform/platform.js';
import { isSimulatedPlatformError } from '../../platform/simulated/index.js';
import { jobTarget } from './mappers.js';
import { existingKeys, insertResults, type JobRow, loadJob } from './repository.js';
import type { Collected } from './results.js';
import { toolReader } from './tools.js';

/** Results a job collects at most when the request sets no `resultsLimit`. */
export const DEFAULT_MAX_RESULTS = 100_000;
/** Pages in a row that bring nothing new while promising more: the read has stalled (spec 3.2). */
export const STALL_PAGES = 3;

/** Settings of an {@link ExtractionRunner}. */
export interface ExtractionRunnerOptions {
  /**
   * Run jobs in the background (default true): when the server is ready, the `running` jobs left in the
   * database are picked up, and each new job starts as soon as it is created. Off: nothing runs until
   * `runPending()` or `step()` is called (tests).
   */
  autoStart?: boolean;
  /** Items read per platform page (default 100). */
  pageSize?: number;
  /** How long a job stays with this runner without progress before another may take it (default 60 s). */
  leaseMs?: number;
  /** How often a started runner looks for jobs whose runner died (default 5 s, real time). */
  pollIntervalMs?: number;
  /** Jobs run at once (default 4). */
  concurrency?: number;
}

/** Where the runner reports what it cannot raise (a Fastify logger fits). */
export interface RunnerLog {
  error(details: object, message: string): void;
}

type RunnerServices = Pick<Services, 'database' | 'platform' | 'clock' | 'credits'>;

/** The job's lease was taken by another runner (this one was too slow): it stops working on it. */
class LostLease extends Error {}

/** The balance no longer covers a page's results (spent elsewhere since it was read): the page is undone. */
class NotCovered extends Error {}

/** `code: message` of a failure of the platform, for a failed job's `errorMessage`. */
function describeFailure(err: unknown): string {
  if (err instanceof PlatformUnavailableError || isSimulatedPlatformError(err) || err instanceof HttpError) {
    return `${err.code}: ${err.message}`;
  }
  return 'internal_error: the platform read failed';
}

/**
 * Runs extraction jobs in-process (spec 3.2). The jobs table is the queue: a runner claims a `running`
 * job by taking its lease, reads it page by page (each page's charge of 1 credit per new result, its results
 * and the cursor to continue from stored in one transaction, so that no crash charges a page twice), renews the lease with every page, and ends the job
 * `completed` or `failed`. A runner that stops hands its jobs back (lease released, cursor kept), and a
 * starting runner picks every unleased `running` job up again, so jobs survive restarts; several
 * instances on one Postgres share the jobs without running one twice.
 */
export class ExtractionRunner {
  /** This runner's name in the job leases. */
  readonly owner = `extr_${uuid()}`;
  private readonly pageSize: number;
  private readonly leaseMs: number;
  private readonly pollIntervalMs: number;
  private readonly concurrency: number;
  private readonly queue: string[] = [];
  private readonly active = new Map<string, Promise<void>>();
  private started = false;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly services: RunnerServices,
    private readonly log: RunnerLog,
    readonly options: ExtractionRunnerOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 100;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 5_000;
    this.concurrency = options.concurrency ?? 4;
  }

  /** Whether jobs run in the background. */
  get running(): boolean {
    return this.started && !this.stopping;
  }

  /**
   * Starts running jobs in the background: on SQLite (one process, so leases found belong to a process that
   * died) every lease is released first; then every claimable `running` job is picked up, and the runner
   * keeps looking for jobs whose runner died.
   */
  async start(): Promise<void> {
    if (this.started || this.stopping) return;
    this.started = true;
    const { database } = this.services;
    if (database.dialect === 'sqlite') {
      await database.db
        .updateTable('extraction_jobs')
        .set({ lease_owner: null, lease_until: null })
        .where('status', '=', 'running')
        .where('lease_owner', 'is not', null)
        .execute();
    }
    await this.enqueueClaimable();
    this.schedulePoll();
  }

  /** A job was just created: it starts now when the runner runs in the background. */
  launch(jobId: string): void {
    if (this.running) this.enqueue(jobId);
  }

  /** Runs every `running` job no other runner holds, to its end; resolves when all are done. */
  async runPending(): Promise<void> {
    await this.enqueueClaimable(true);
    await this.idle();
  }

  /** Resolves once no job is in progress or waiting in this runner. */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.allSettled([...this.active.values()]);
  }

  /**
   * Runs at most `pages` pages of one job and hands it back (lease released, cursor kept) unless it ended:
   * lets a test interrupt a job part way.
   */
  async step(jobId: string, pages: number): Promise<void> {
    await this.work(jobId, pages);
  }

  /** Stops: no new pages are read; jobs in progress finish their page and are handed back. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
    await this.idle();
  }

  private schedulePoll(): void {
    if (!this.running) return;
    this.timer = setTimeout(async () => {
      try {
        await this.enqueueClaimable();
      } catch (err) {
        this.log.error({ err }, 'extractions: looking for jobs failed');
      }
      this.schedulePoll();
    }, this.pollIntervalMs);
    this.timer.unref();
  }

  /** Queues every `running` job whose lease is free or expired. */
  private async enqueueClaimable(force = false): Promise<void> {
    if (!force && !this.running) return;
    const now = this.services.clock.now();
    const rows = await this.services.database.db
      .selectFrom('extraction_jobs')
      .select('id')
      .where('status', '=', 'running')
      .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_until', '<=', now)]))
      .orderBy('created_at')
      .execute();
    for (const r of rows) this.enqueue(r.id);
  }

  private enqueue(jobId: string): void {
    if (this.stopping || this.active.has(jobId) || this.queue.includes(jobId)) return;
    this.queue.push(jobId);
    this.pump();
  }

  private pump(): void {
    while (this.active.size < this.concurrency && this.queue.length > 0 && !this.stopping) {
      const id = this.queue.shift() as string;
      const run = this.work(id, Number.POSITIVE_INFINITY).finally(() => {
        this.active.delete(id);
        this.pump();
      });
      this.active.set(id, run);
    }
  }

  /** Claims a job and runs up to `maxPages` pages of it; errors are logged, never thrown. */
  private async work(jobId: string, maxPages: number): Promise<void> {
    try {
      if (!(await this.claim(jobId))) return;
      for (let pages = 0; ; pages++) {
        if (this.stopping || pages >= maxPages) {
          await this.release(jobId);
          return;
        }
        if (!(await this.page(jobId))) return;
        // On SQLite a page can run on promises alone: let requests (and a stop) in between pages.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (err) {
      if (!(err instanceof LostLease)) {
        this.log.error({ err, jobId }, 'extractions: running a job failed; it is handed back');
        await this.release(jobId).catch(() => undefined);
      }
    }
  }

  /** Takes the lease of a running job that no one holds (or whose holder let it expire). */
  private async claim(jobId: string): Promise<boolean> {
    const now = this.services.clock.now();
    const r = await this.services.database.db
      .updateTable('extraction_jobs')
      .set({ lease_owner: this.owner, lease_until: now + this.leaseMs })
      .where('id', '=', jobId)
      .where('status', '=', 'running')
      .where((eb) =>
        eb.or([
          eb('lease_owner', 'is', null),
          eb('lease_until', '<=', now),
          eb('lease_owner', '=', this.owner),
        ]),
      )
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Hands a job back: still `running`, its cursor kept, free for any runner. */
  private async release(jobId: string): Promise<void> {
    await this.services.database.db
      .updateTable('extraction_jobs')
      .set({ lease_owner: null, lease_until: null })
      .where('id', '=', jobId)
      .where('lease_owner', '=', this.owner)
      .execute();
  }

  /** Ends a job: `completed` (with a note when it stopped early) or `failed`, and frees it. */
  private async finish(job: JobRow, status: 'completed' | 'failed', message?: string): Promise<void> {
    const now = this.services.clock.now();
    await this.services.database.db
      .updateTable('extraction_jobs')
      .set({
        status,
        error_message: message ?? null,
        completed_at: status === 'completed' ? now : null,
        updated_at: now,
        lease_owner: null,
        lease_until: null,
      })
      .where('id', '=', job.id)
      .where('lease_owner', '=', this.owner)
      .execute();
  }

  /**
   * Reads, charges and stores one page of a job; false when the job ended (or is no longer this runner's).
   * 1 credit per new result (spec 8.2): a page reads no more than the balance covers, and a job that runs
   * out of credits ends with what it has.
   */
  private async page(jobId: string): Promise<boolean> {
    const { database, platform, clock, credits } = this.services;
    const job = await loadJob(database.db, jobId);
    if (job?.status !== 'running' || job.lease_owner !== this.owner) return false;
    const total = Number(job.total_results);
    const limit = job.results_limit === null ? DEFAULT_MAX_RESULTS : Number(job.results_limit);
    if (total >= limit) {
      await this.finish(job, 'completed');
      return false;
    }
    const balance = await credits.balance(job.account_id);
    const room = Math.min(this.pageSize, limit - total);
    const want = balance < BigInt(room) ? Number(balance) : room;
    if (want <= 0) {
      if (total === 0)
        await this.finish(job, 'failed', 'insufficient_credits: no credits left to collect results');
      else {
        await this.finish(
          job,
          'completed',
          `insufficient_credits: stopped after ${total} results when the credits ran out; the results collected are kept`,
        );
      }
      return false;
    }

    let page: { items: Collected[]; nextCursor?: string | undefined };
    try {
      const read = toolReader(platform, jobTarget(job), clock.now());
      page = await read({ pageSize: want, ...(job.cursor !== null && { cursor: job.cursor }) });
    } catch (err) {
      await this.finish(job, 'failed', describeFailure(err));
      return false;
    }

    const unique = new Map<string, Collected>();
    for (const item of page.items) if (!unique.has(item.key)) unique.set(item.key, item);
    const seen = await existingKeys(database.db, job.id, [...unique.keys()]);
    const fresh = [...unique.values()].filter((c) => !seen.has(c.key)).slice(0, want);

    const next = page.nextCursor;
    const repeated = next !== undefined && next === job.cursor;
    const stalled =
      next === undefined
        ? 0
        : repeated
          ? STALL_PAGES
          : fresh.length === 0
            ? Number(job.stalled_pages) + 1
            : 0;
    const now = clock.now();
    // The page's charge, its results and the job's progress commit together (spec 8.2: 1 credit per result
    // stored): a crash anywhere before the commit leaves neither, and the page is read and charged again
    // once; after it, the cursor has moved on and the page is never charged twice.
    try {
      await database.db.transaction().execute(async (trx) => {
        const held = await trx
          .updateTable('extraction_jobs')
          .set({
            total_results: total + fresh.length,
            cursor: next ?? job.cursor,
            stalled_pages: stalled,
            updated_at: now,
            lease_until: now + this.leaseMs,
          })
          .where('id', '=', job.id)
          .where('lease_owner', '=', this.owner)
          .executeTakeFirst();
        if (Number(held.numUpdatedRows) !== 1) throw new LostLease();
        if (fresh.length > 0) {
          const after = await credits.chargeWithin(trx, job.account_id, 'createExtraction', fresh.length, 1);
          if (after === undefined) throw new NotCovered();
        }
        await insertResults(
          trx,
          fresh.map((c, i) => ({
            job_id: job.id,
            seq: total + i + 1,
            item_key: c.key,
            data: JSON.stringify(c.result),
            has_media: c.hasMedia ? 1 : 0,
            created_at: now,
          })),
        );
      });
    } catch (err) {
      // Spent elsewhere meanwhile: nothing was stored; the next page sees the balance that is left.
      if (err instanceof NotCovered) return true;
      throw err;
    }

    const collected = total + fresh.length;
    if (next === undefined || collected >= limit) {
      await this.finish({ ...job, total_results: collected }, 'completed');
      return false;
    }
    if (stalled >= STALL_PAGES) {
      await this.finish(
        job,
        'completed',
        `pagination_stalled: the platform stopped returning new results after ${collected}; the results collected are kept`,
      );
      return false;
    }
    return true;
  }
}
