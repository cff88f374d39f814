import type { Kysely } from 'kysely';
import { accountAsUser } from '../../core/accounts/as-user.js';
import type { Database } from '../../core/db/schema.js';
import { HttpError } from '../../core/http/errors.js';
import {
  enqueue,
  type Job,
  type JobContext,
  type JobOutcome,
  type JobsEngine,
} from '../../core/jobs/index.js';
import { PlatformUnavailableError } from '../../core/platform/platform.js';
import type { Services } from '../../core/services.js';
import { isSimulatedPlatformError } from '../../platform/simulated/index.js';
import { type JobParams, type Progress, readProgress, writeProgress } from './progress.js';
import { existingResults, insertResults, type JobRow, loadJob, updateResultData } from './repository.js';
import type { Collected, StoredResult } from './results.js';
import { dedupeModeOf, specFor, specTargets } from './targets.js';
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

type RunnerServices = Pick<Services, 'database' | 'platform' | 'clock' | 'credits' | 'jobs' | 'secrets'>;

/** The job kind of an extraction: one job per `running` extraction, keyed by its id. */
export const EXTRACTION_JOB_KIND = 'extraction.job';

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
 * Runs extraction jobs (spec 3.2) as `extraction.job` jobs on the server's jobs engine: each `running`
 * extraction has a job (enqueued with it), which an engine claims with a lease and reads page by page (each
 * page's charge of 1 credit per new result, its results and the cursor to continue from stored in one
 * transaction that also checks and renews the lease, so that no crash charges a page twice), ending the job
 * `completed` or `failed`. A runner that stops hands its jobs back (lease released, cursor kept), and a
 * starting engine frees the leases it held before, so jobs survive restarts; several instances on one
 * Postgres share the jobs without running one twice.
 */
export class ExtractionRunner {
  private readonly pageSize: number;
  private readonly jobs: JobsEngine;
  /** Pages `step()` lets one job read before it is handed back. */
  private budget: { jobId: string; pages: number } | undefined;

  constructor(
    private readonly services: RunnerServices,
    private readonly log: RunnerLog,
    readonly options: ExtractionRunnerOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 100;
    this.jobs = services.jobs;
    const concurrency = options.concurrency ?? 4;
    this.jobs.register({
      name: EXTRACTION_JOB_KIND,
      batchSize: concurrency,
      concurrency,
      leaseMs: options.leaseMs ?? 60_000,
      pollMs: options.pollIntervalMs ?? 5_000,
      run: (jobs, ctx) => Promise.all(jobs.map((job) => this.work(job, ctx))),
    });
  }

  /** This runner's name in the job leases (the jobs engine's owner). */
  get owner(): string {
    return this.jobs.owner;
  }

  /** Whether jobs run in the background. */
  get running(): boolean {
    return this.jobs.running(EXTRACTION_JOB_KIND);
  }

  /**
   * Starts running jobs in the background: the engine frees the leases this instance held before a
   * restart, then every claimable `running` job is picked up, and the runner keeps looking for jobs whose
   * runner died.
   */
  async start(): Promise<void> {
    await this.jobs.start([EXTRACTION_JOB_KIND]);
  }

  /** A job was just created: it starts now when the runner runs in the background. */
  launch(_jobId: string): void {
    this.jobs.wake(EXTRACTION_JOB_KIND);
  }

  /** Runs every `running` job no other runner holds, to its end; resolves when all are done. */
  async runPending(): Promise<void> {
    await this.jobs.runDue([EXTRACTION_JOB_KIND]);
  }

  /** Resolves once no job is in progress or due in this runner (its own loop may have taken some: waited for). */
  async idle(): Promise<void> {
    await this.jobs.settle(EXTRACTION_JOB_KIND);
  }

  /**
   * Runs at most `pages` pages of one job and hands it back (lease released, cursor kept) unless it ended:
   * lets a test interrupt a job part way.
   */
  async step(jobId: string, pages: number): Promise<void> {
    this.budget = { jobId, pages };
    try {
      await this.jobs.runOnce(EXTRACTION_JOB_KIND, { force: true, keys: [jobId] });
    } finally {
      this.budget = undefined;
    }
  }

  /** Stops: no new pages are read; jobs in progress finish their page and are handed back. */
  async stop(): Promise<void> {
    await this.jobs.stop([EXTRACTION_JOB_KIND]);
  }

  /** Runs a claimed job's pages until it ends (done) or the runner stops (released). */
  private async work(job: Job, ctx: JobContext): Promise<JobOutcome> {
    const jobId = job.key as string;
    const maxPages = this.budget?.jobId === jobId ? this.budget.pages : Number.POSITIVE_INFINITY;
    try {
      for (let pages = 0; ; pages++) {
        if (ctx.stopping() || pages >= maxPages) return { type: 'release' };
        if (!(await this.page(jobId, job, ctx))) return { type: 'done' };
        // On SQLite a page can run on promises alone: let requests (and a stop) in between pages.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (err) {
      if (err instanceof LostLease) return { type: 'release' };
      this.log.error({ err, jobId }, 'extractions: running a job failed; it is handed back');
      return { type: 'release' };
    }
  }

  /** Ends a job: `completed` (with a note when it stopped early) or `failed`, and frees it. */
  private async finish(
    job: JobRow,
    held: Job,
    ctx: JobContext,
    status: 'completed' | 'failed',
    message?: string,
  ): Promise<void> {
    const now = this.services.clock.now();
    await this.services.database.db.transaction().execute(async (trx) => {
      if (!(await ctx.holds(trx, held))) throw new LostLease();
      await trx
        .updateTable('extraction_jobs')
        .set({
          status,
          error_message: message ?? null,
          completed_at: status === 'completed' ? now : null,
          updated_at: now,
        })
        .where('id', '=', job.id)
        .execute();
    });
  }

  /**
   * Reads, charges and stores one page of a job; false when the job ended (or is no longer this runner's).
   * 1 credit per new result (spec 8.2): a page reads no more than the balance covers, and a job that runs
   * out of credits ends with what it has.
   */
  private async page(jobId: string, held: Job, ctx: JobContext): Promise<boolean> {
    const { database, platform, clock, credits } = this.services;
    const job = await loadJob(database.db, jobId);
    if (job?.status !== 'running') return false;
    const total = Number(job.total_results);
    const limit = job.results_limit === null ? DEFAULT_MAX_RESULTS : Number(job.results_limit);
    if (total >= limit) {
      await this.finish(job, held, ctx, 'completed');
      return false;
    }
    const balance = await credits.balance(job.account_id);
    const room = Math.min(this.pageSize, limit - total);
    const want = balance < BigInt(room) ? Number(balance) : room;
    if (want <= 0) {
      if (total === 0)
        await this.finish(
          job,
          held,
          ctx,
          'failed',
          'insufficient_credits: no credits left to collect results',
        );
      else {
        await this.finish(
          job,
          held,
          ctx,
          'completed',
          `insufficient_credits: stopped after ${total} results when the credits ran out; the results collected are kept`,
        );
      }
      return false;
    }

    const params = JSON.parse(job.params) as JobParams;
    const targets = specTargets(params);
    const multi = targets.length > 1;
    const at = readProgress(job.cursor, multi);
    const target = targets[at.target] ?? '';
    const mode = multi ? dedupeModeOf(params) : 'first';

    let page: { items: Collected[]; nextCursor?: string | undefined };
    try {
      const reading = {
        spec: multi ? specFor(params, target) : params,
        targetUserId: params.targetUserIds?.[at.target] ?? job.target_user_id ?? undefined,
      };
      const read = toolReader(platform, reading, clock.now(), accountAsUser(this.services, job.account_id));
      page = await read({ pageSize: want, ...(at.cursor !== undefined && { cursor: at.cursor }) });
    } catch (err) {
      await this.finish(job, held, ctx, 'failed', describeFailure(err));
      return false;
    }

    // A job on several targets tags each result with its target; `none` keeps an item once per target.
    const unique = new Map<string, Collected>();
    for (const item of page.items) {
      const key = mode === 'none' ? `${at.target}|${item.key}` : item.key;
      if (unique.has(key)) continue;
      const result = multi
        ? { ...item.result, target, ...(mode === 'merge' && { targets: [target] }) }
        : item.result;
      unique.set(key, { ...item, key, result });
    }
    const seen = await existingResults(database.db, job.id, [...unique.keys()]);
    const fresh = [...unique.values()].filter((c) => !seen.has(c.key)).slice(0, want);
    // `merge`: an item an earlier target found gets this target added to its `targets` (no new result).
    const merged =
      mode === 'merge'
        ? [...seen].flatMap(([key, data]) => {
            const stored = JSON.parse(data) as StoredResult;
            const all = stored.targets ?? (stored.target === undefined ? [] : [stored.target]);
            return all.includes(target)
              ? []
              : [{ key, data: JSON.stringify({ ...stored, targets: [...all, target] }) }];
          })
        : [];

    const pageNext = page.nextCursor;
    const repeated = pageNext !== undefined && pageNext === at.cursor;
    const stalled =
      pageNext === undefined
        ? 0
        : repeated
          ? STALL_PAGES
          : fresh.length === 0 && merged.length === 0
            ? Number(job.stalled_pages) + 1
            : 0;
    // The end of a target's listing moves the job on to the next target, from its first page.
    const moveOn = pageNext === undefined && at.target + 1 < targets.length;
    const next: Progress | undefined = moveOn
      ? { target: at.target + 1 }
      : pageNext === undefined
        ? undefined
        : { target: at.target, cursor: pageNext };
    const now = clock.now();
    // The page's charge, its results and the job's progress commit together (spec 8.2: 1 credit per result
    // stored): a crash anywhere before the commit leaves neither, and the page is read and charged again
    // once; after it, the cursor has moved on and the page is never charged twice.
    try {
      await database.db.transaction().execute(async (trx) => {
        if (!(await ctx.holds(trx, held))) throw new LostLease();
        await trx
          .updateTable('extraction_jobs')
          .set({
            total_results: total + fresh.length,
            cursor: next === undefined ? job.cursor : writeProgress(next, multi),
            stalled_pages: stalled,
            updated_at: now,
          })
          .where('id', '=', job.id)
          .execute();
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
        for (const m of merged) await updateResultData(trx, job.id, m.key, m.data);
      });
    } catch (err) {
      // Spent elsewhere meanwhile: nothing was stored; the next page sees the balance that is left.
      if (err instanceof NotCovered) return true;
      throw err;
    }

    const collected = total + fresh.length;
    if (next === undefined || collected >= limit) {
      await this.finish({ ...job, total_results: collected }, held, ctx, 'completed');
      return false;
    }
    if (moveOn) return true;
    if (stalled >= STALL_PAGES) {
      await this.finish(
        job,
        held,
        ctx,
        'completed',
        `pagination_stalled: the platform stopped returning new results after ${collected}; the results collected are kept`,
      );
      return false;
    }
    return true;
  }
}

/** Enqueues the job of a new extraction, in the transaction `trx` that stores it. */
export async function enqueueExtraction(trx: Kysely<Database>, jobId: string, now: number): Promise<void> {
  await enqueue(trx, [{ kind: EXTRACTION_JOB_KIND, key: jobId, runAt: now }], now);
}
