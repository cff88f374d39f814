import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';

/** `jobs.state` values. Done jobs are deleted; a job being run stays `queued` and holds a lease. */
export const JOB_STATE = {
  /** Waiting for `run_at` (or running, when `lease_owner` is set). */
  queued: 'queued',
  /** Off the schedule until a feature puts it back (for example a webhook that needs attention). */
  parked: 'parked',
  /** Terminal: the kind gave up on it (`last_error` says why). */
  failed: 'failed',
} as const;

/** A job this engine holds the lease of. */
export interface Job<P = unknown> {
  readonly id: string;
  readonly kind: string;
  /** The job's key (unique per kind) or null. */
  readonly key: string | null;
  readonly payload: P;
  /** Failed attempts so far (retries); reset when a recurring job is rescheduled. */
  readonly attempts: number;
  /** When the job was due (its `run_at`). */
  readonly dueAt: number;
}

/** How a job ended, as the kind reports it. */
export type JobOutcome =
  /** Finished: the row is deleted. */
  | { readonly type: 'done' }
  /** Failed, try again at `at` (counted in `attempts`). */
  | { readonly type: 'retry'; readonly at: number; readonly error?: string }
  /** Recurring: run again at `at` (attempts reset), with a new payload when given. */
  | { readonly type: 'reschedule'; readonly at: number; readonly payload?: unknown }
  /** Terminal failure: the row stays, `failed`, with the error. */
  | { readonly type: 'fail'; readonly error: string }
  /** Not run (the engine is stopping, or the kind gave it back): due again at once, for any instance. */
  | { readonly type: 'release' };

/** A job and how it ended, as the kind's {@link JobKind.settle} sees them (only jobs still held). */
export interface Settled<P = unknown> {
  readonly job: Job<P>;
  readonly outcome: JobOutcome;
  /** What the kind passed to `ctx.settle` beside the outcome (its result, for its `settle` to write). */
  readonly data?: unknown;
}

/** What a kind's `run` gets beside its jobs. */
export interface JobContext<P = unknown> {
  readonly database: Db;
  readonly clock: Clock;
  /** This engine's lease owner id. */
  readonly owner: string;
  /** Aborted when the engine stops and the grace is over (work in progress is cut off and released). */
  readonly signal: AbortSignal;
  /** True once the kind's loop was stopped: long work should end its step and give the job back. */
  stopping(): boolean;
  /**
   * Reports one job's outcome now, before `run` resolves (a long batch whose jobs end one by one): the
   * outcomes of jobs ending in the same turn are written together. Later reports of one job are ignored.
   */
  settle(job: Job<P>, outcome: JobOutcome, data?: unknown): void;
  /**
   * In a caller's transaction: true when this engine still holds the job's lease, which it renews. A
   * kind checks it in the transaction that commits a job's effect, so an instance whose lease expired
   * (another took the job over) commits nothing.
   */
  holds(trx: Kysely<Database>, job: Job<P>): Promise<boolean>;
}

/** What a kind's {@link JobKind.feed} gets. */
export interface FeedContext {
  readonly database: Db;
  readonly now: number;
  /** Rows to take at most (the kind's batch size). */
  readonly limit: number;
  /** This engine's lease owner id: the owner of jobs the feed creates held. */
  readonly owner: string;
  /** The kind's lease: a job created held is this engine's until `now + leaseMs` (renewed while it runs). */
  readonly leaseMs: number;
  /**
   * How many of the jobs it creates the feed may create held by this engine (its free capacity): they are
   * run at once, with no claim and no read of what the feed already has in hand. The rest wait to be claimed.
   */
  readonly hold: number;
}

/** What a feed did. */
export interface Fed {
  /** Rows it took. */
  readonly fed: number;
  /** The jobs it created held by this engine (committed with their lease), to run now. */
  readonly held?: readonly Job[];
  /** It stopped at a limit of its own with more waiting (the loop then comes back as soon as there is room). */
  readonly more?: boolean;
}

/** A kind of background work: how it is claimed, run and settled. */
export interface JobKind<P = unknown> {
  /** The `jobs.kind` value. */
  readonly name: string;
  /** Jobs claimed per claim query at most. */
  readonly batchSize: number;
  /** Jobs of this kind in flight at once in one engine. */
  readonly concurrency: number;
  /** How long a claimed job stays this engine's without renewal; renewed every third of it while it runs. */
  readonly leaseMs: number;
  /** How often the background loop looks for due work when nothing woke it (default 1 s). */
  readonly pollMs?: number;
  /**
   * While other jobs of the kind are in flight, outcomes wait this long to be written together (default 0:
   * those that ended in the same turn). A busy kind writes fewer, bigger batches; the last outcomes of a
   * burst are written at once.
   */
  readonly settleDelayMs?: number;
  /** On stop, runs in flight get this long before their signal aborts (default: the engine's). */
  readonly stopGraceMs?: number;
  /**
   * Runs claimed jobs. Returns an outcome per job (by index; `undefined` for jobs already reported with
   * `ctx.settle`). Jobs with no outcome are released. A throw is a `retry` per {@link onError}.
   */
  run(jobs: readonly Job<P>[], ctx: JobContext<P>): Promise<readonly (JobOutcome | undefined)[] | undefined>;
  /**
   * Writes the kind's own rows for settled jobs in the transaction that settles them (only jobs whose lease
   * this engine still held), so a job's effect and its end commit together.
   */
  settle?(trx: Kysely<Database>, settled: readonly Settled<P>[], ctx: { now: number }): Promise<void>;
  /** The outcome when `run` throws (default: retry with {@link defaultBackoffMs}, failed after 10 tries). */
  onError?(job: Job<P>, error: unknown, now: number): JobOutcome;
  /**
   * Work that becomes jobs before each claim (an outbox turned into jobs); returns how many rows it took,
   * and the jobs it created already held by this engine (up to `ctx.hold`), which run at once with no claim.
   */
  feed?(ctx: FeedContext): Promise<number | Fed>;
  /** Jobs this engine may claim now (default `batchSize`); e.g. a fair share of shards between instances. */
  claimLimit?(ctx: { database: Db; owner: string; now: number }): Promise<number>;
  /**
   * Run claimed jobs one batch at a time (default false): a batch waits for the one before it to end, as
   * recurring work that covers every held job in one pass wants.
   */
  readonly serial?: boolean;
}

/** Retries after `attempts` failures: 1 s, 2 s, 4 s, ... up to 5 min. */
export function defaultBackoffMs(attempts: number): number {
  return Math.min(300_000, 1000 * 2 ** Math.max(0, attempts - 1));
}

/** Attempts before {@link defaultOnError} gives up. */
export const DEFAULT_MAX_ATTEMPTS = 10;

/** Retry with {@link defaultBackoffMs}, then fail after {@link DEFAULT_MAX_ATTEMPTS}. */
export function defaultOnError(job: Job, error: unknown, now: number): JobOutcome {
  const message = error instanceof Error ? error.message : String(error);
  const attempts = job.attempts + 1;
  if (attempts >= DEFAULT_MAX_ATTEMPTS) return { type: 'fail', error: message };
  return { type: 'retry', at: now + defaultBackoffMs(attempts), error: message };
}
