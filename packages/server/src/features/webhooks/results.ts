import { CompiledQuery, type Kysely } from 'kysely';
import type { Db } from '../../core/db/database.js';
import { num } from '../../core/db/database.js';
import {
  isPostgres,
  jsonRowsText,
  jsonRowsValue,
  type ListCell,
  numbered,
  perEngine,
} from '../../core/db/lists.js';
import type { Database } from '../../core/db/schema.js';
import { type JobOutcome, jobId, settleJobs } from '../../core/jobs/index.js';
import { retryDelayMs } from './backoff.js';
import { DELIVERY_JOB_KIND, DELIVERY_STATUS, parkDeliveries } from './deliveries-repository.js';
import type { SendOutcome } from './transport.js';
import { HEALTH, isDeliverable } from './webhooks-repository.js';

/** A delivery this engine holds the job lease of, to attempt now. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly webhookId: string;
  readonly accountId: string;
  readonly eventId: string;
  readonly eventType: string;
  /** Attempts made before this one. */
  readonly attempts: number;
}

/** How one attempt ended. */
export interface AttemptResult {
  readonly delivery: ClaimedDelivery;
  readonly outcome: SendOutcome;
  /** Clock time when the attempt ended. */
  readonly at: number;
  /** Clock time when the attempt started. */
  readonly startedAt: number;
  /** How long the attempt took, measured (not clock time), in ms. */
  readonly durationMs: number;
  /**
   * The delivery can never be sent (its stored event is gone or damaged): it is exhausted at once, and the
   * endpoint is not blamed for it.
   */
  readonly undeliverable?: boolean;
  /**
   * The wait before the next attempt after a failure (with its jitter), or undefined when the delivery is
   * exhausted; decided once when the attempt ends ({@link decideRetry}), so the job and the delivery agree.
   */
  readonly retryInMs?: number | undefined;
}

/** How retries are spaced. */
export interface RetryPolicy {
  readonly random: () => number;
  readonly jitterRatio: number;
}

/** Endpoints a batch took out of service (for the log): at their failure cap, or answered 410. */
export interface RecordSummary {
  readonly needsAttention: readonly string[];
}

/** Longest `error` kept on an attempt row, in UTF-16 code units. */
export const MAX_ATTEMPT_ERROR_LENGTH = 500;

/** `error` cut to {@link MAX_ATTEMPT_ERROR_LENGTH}, never splitting a surrogate pair. */
export function boundError(error: string): string {
  if (error.length <= MAX_ATTEMPT_ERROR_LENGTH) return error;
  const cut = error.slice(0, MAX_ATTEMPT_ERROR_LENGTH - 1);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/** The columns of an attempt's history row, as {@link jsonRowsText} reads them. */
const ATTEMPT_COLUMNS = {
  id: 'text',
  delivery_id: 'text',
  webhook_id: 'text',
  account_id: 'text',
  attempt: 'integer',
  started_at: 'bigint',
  duration_ms: 'integer',
  status_code: 'integer',
  error: 'text',
  outcome: 'text',
} as const;

/**
 * The history row of an attempt, its cells in the order of {@link ATTEMPT_COLUMNS}; its id is the delivery's
 * id and the attempt number (one row each).
 */
function attemptRow(r: AttemptResult, outcome: string): ListCell[] {
  const attempt = r.delivery.attempts + 1;
  return [
    `${r.delivery.id}_${attempt}`,
    r.delivery.id,
    r.delivery.webhookId,
    r.delivery.accountId,
    attempt,
    r.startedAt,
    Math.max(0, r.durationMs),
    r.outcome.statusCode,
    r.outcome.ok ? null : boundError(r.outcome.error ?? 'failed'),
    outcome,
  ];
}

/** The receiver's "stop" answer (spec 6.4): it exhausts the delivery and takes the endpoint out of service. */
const GONE = 410;

/** The wait before the next attempt after `r` (undefined: exhausted, or delivered), per spec 6.5. */
export function decideRetry(r: AttemptResult, retry: RetryPolicy): number | undefined {
  if (r.outcome.ok || r.outcome.statusCode === GONE || r.undeliverable) return undefined;
  return retryDelayMs(r.delivery.attempts + 1, retry.random, retry.jitterRatio);
}

/** The outcome of every job done (shared: outcomes are read, never changed). */
const DONE: JobOutcome = Object.freeze({ type: 'done' });

/** The job outcome of an attempt: done once delivered or exhausted, else retried at the delivery's time. */
export function jobOutcome(r: AttemptResult): JobOutcome {
  if (r.outcome.ok || r.retryInMs === undefined) return DONE;
  return { type: 'retry', at: r.at + r.retryInMs, error: boundError(r.outcome.error ?? 'failed') };
}

/** The columns a delivery's state after an attempt sets, as {@link jsonRowsText} reads them. */
const STATE_COLUMNS = {
  id: 'text',
  attempts: 'integer',
  last_status_code: 'integer',
  last_error: 'text',
  status: 'text',
  delivered_at: 'bigint',
  next_attempt_at: 'bigint',
  last_started_at: 'bigint',
  last_duration_ms: 'integer',
} as const;

/** A delivery's status after an attempt (spec 3.3). */
function statusAfter(r: AttemptResult): string {
  if (r.outcome.ok) return DELIVERY_STATUS.delivered;
  return r.retryInMs === undefined ? DELIVERY_STATUS.exhausted : DELIVERY_STATUS.failed;
}

/**
 * The new state of a delivery after an attempt (spec 3.3), its cells in the order of {@link STATE_COLUMNS}.
 */
function nextState(r: AttemptResult, status: string, deliverable: boolean): ListCell[] {
  const ok = r.outcome.ok;
  const delay = r.retryInMs;
  return [
    r.delivery.id,
    r.delivery.attempts + 1,
    r.outcome.statusCode,
    ok ? null : (r.outcome.error ?? 'failed'),
    status,
    ok ? r.at : null,
    ok || delay === undefined || !deliverable ? null : r.at + delay,
    r.startedAt,
    Math.max(0, r.durationMs),
  ];
}

/**
 * {@link writeResults}'s statements, their text written once per engine (what Kysely compiled for them
 * before: issue #30). An endpoint's update comes in four, by whether the batch reset its failure count
 * (it holds a success) and whether it answered 410 after that.
 */
const resultTexts = perEngine((pg) => {
  const endpoint = (reset: boolean, gone: boolean) => {
    const count = reset ? '?' : 'consecutive_failures + ?';
    const health = gone ? '?' : `case when ${count} >= failure_hard_cap then ? else health end`;
    return numbered(
      pg,
      `update "webhooks" set "consecutive_failures" = ${count}, "health" = ${health}, "updated_at" = ? where "id" = ? returning "is_active", "health", "consecutive_failures"`,
    );
  };
  const attemptCols = Object.keys(ATTEMPT_COLUMNS).join(', ');
  return {
    /** By whether the count is reset, then whether the endpoint answered 410. */
    endpoint: {
      added: { kept: endpoint(false, false), gone: endpoint(false, true) },
      reset: { kept: endpoint(true, false), gone: endpoint(true, true) },
    },
    // The ids are held as the database returns them.
    states: numbered(
      pg,
      `update webhook_deliveries set attempts = j.attempts, last_status_code = j.last_status_code,
      last_error = j.last_error, status = j.status, delivered_at = j.delivered_at, next_attempt_at = j.next_attempt_at,
      last_started_at = j.last_started_at, last_duration_ms = j.last_duration_ms
    from ${jsonRowsText(pg, 'j', STATE_COLUMNS)}
    where webhook_deliveries.id = j.id
    returning webhook_deliveries.id`,
    ),
    attempts: numbered(
      pg,
      `insert into webhook_delivery_attempts (${attemptCols}) select ${attemptCols} from ${jsonRowsText(pg, 'j', ATTEMPT_COLUMNS)}`,
    ),
  };
});

/**
 * Records a batch of attempts in one transaction: settles their jobs (`owner`'s leases only: a delivery
 * whose lease expired and passed to another instance is left to it, uncounted) and writes what the held ones
 * did ({@link writeResults}). Results without a decided retry get one now.
 */
export async function recordResults(
  database: Db,
  owner: string,
  results: readonly AttemptResult[],
  retry: RetryPolicy,
): Promise<RecordSummary> {
  if (results.length === 0) return { needsAttention: [] };
  const decided = results.map((r) => ('retryInMs' in r ? r : { ...r, retryInMs: decideRetry(r, retry) }));
  return database.db.transaction().execute(async (trx) => {
    const now = Math.max(...decided.map((r) => r.at));
    const held = await settleJobs(
      trx,
      owner,
      now,
      decided.map((r) => ({ id: jobId(DELIVERY_JOB_KIND, r.delivery.id), outcome: jobOutcome(r) })),
    );
    return writeResults(
      trx,
      decided.filter((r) => held.has(jobId(DELIVERY_JOB_KIND, r.delivery.id))),
    );
  });
}

/**
 * Writes what a batch of attempts did, in the transaction `trx` that settles their jobs (the jobs engine's;
 * only attempts whose lease was still held). Per endpoint, consecutive failures are counted in the order the
 * attempts ended (a success resets the count); reaching `failure_hard_cap`, or a 410 answer after the last
 * success, sets `needs_attention` (spec 3.4) and parks the endpoint's open deliveries and their jobs. Each
 * failed attempt gets its history row; the delivering one is recorded on its delivery (migration 0025).
 */
export async function writeResults(
  trx: Kysely<Database>,
  results: readonly AttemptResult[],
): Promise<RecordSummary> {
  if (results.length === 0) return { needsAttention: [] };
  const pg = isPostgres(trx);
  const texts = resultTexts(pg);
  const byWebhook = new Map<string, AttemptResult[]>();
  for (const r of results) {
    const list = byWebhook.get(r.delivery.webhookId) ?? [];
    list.push(r);
    byWebhook.set(r.delivery.webhookId, list);
  }
  const deliverable = new Map<string, boolean>();
  const needsAttention: string[] = [];
  const now = Math.max(...results.map((r) => r.at));
  for (const [webhookId, list] of byWebhook) {
    const judged = list.filter((r) => !r.undeliverable);
    if (judged.length === 0) continue;
    const lastSuccess = judged.findLastIndex((r) => r.outcome.ok);
    const failuresAfter = judged.length - 1 - lastSuccess;
    const reset = lastSuccess >= 0;
    // A 410 after the batch's last success is the receiver saying "stop" (spec 6.4): the endpoint goes to
    // `needs_attention` at once, as at the failure cap, and only a resume with a succeeding signed test
    // (spec 3.4) sends to it again.
    const gone = judged.slice(lastSuccess + 1).some((r) => r.outcome.statusCode === GONE);
    const [row] = (
      await trx.executeQuery<{
        is_active: number | bigint;
        health: string;
        consecutive_failures: number | bigint;
      }>(
        CompiledQuery.raw(
          texts.endpoint[reset ? 'reset' : 'added'][gone ? 'gone' : 'kept'],
          gone
            ? [failuresAfter, HEALTH.needsAttention, now, webhookId]
            : [failuresAfter, failuresAfter, HEALTH.needsAttention, now, webhookId],
        ),
      )
    ).rows;
    if (!row) continue;
    deliverable.set(webhookId, isDeliverable(row));
    if (!isDeliverable(row)) {
      await parkDeliveries(trx, webhookId, now);
      if (row.health === HEALTH.needsAttention && num(row.consecutive_failures) > 0)
        needsAttention.push(webhookId);
    }
  }
  // One UPDATE … FROM for the whole batch, the new states bound as one list, so a busy engine writes the
  // same few statements per batch whatever its size.
  const states: ListCell[][] = [];
  /** The status each result leaves its delivery in, by the result's index. */
  const statuses: string[] = [];
  let failures = 0;
  for (const r of results) {
    const status = statusAfter(r);
    statuses.push(status);
    if (status !== DELIVERY_STATUS.delivered) failures++;
    states.push(nextState(r, status, deliverable.get(r.delivery.webhookId) ?? true));
  }
  const updated = await trx.executeQuery<{ id: string }>(
    CompiledQuery.raw(texts.states, [jsonRowsValue(pg, STATE_COLUMNS, states)]),
  );
  // A batch that delivered everything (the usual one) has no history row to write, nor ids to match.
  if (failures === 0) return { needsAttention };
  const counted = new Set(updated.rows.map((row) => row.id));
  // Each failed attempt the deliveries now count gets its history row in the same transaction: both are
  // written or neither (a crash before the commit leaves the lease to expire and the attempt to be made
  // again). An attempt whose lease was lost is not counted on the delivery, and gets no row either; a
  // delivery counted once gets one row. The attempt that delivers is the delivery's last, and its row holds
  // it (`last_*`, migration 0025): no history row, so three b-tree entries (row, key, unique index) fewer
  // per delivery (issue #30).
  const attempts: ListCell[][] = [];
  results.forEach((r, i) => {
    if (!counted.delete(r.delivery.id)) return;
    const outcome = statuses[i] ?? DELIVERY_STATUS.failed;
    if (outcome !== DELIVERY_STATUS.delivered) attempts.push(attemptRow(r, outcome));
  });
  if (attempts.length > 0)
    await trx.executeQuery(CompiledQuery.raw(texts.attempts, [jsonRowsValue(pg, ATTEMPT_COLUMNS, attempts)]));
  return { needsAttention };
}
