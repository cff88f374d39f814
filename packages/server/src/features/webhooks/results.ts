import { type Insertable, type Kysely, sql, type Updateable } from 'kysely';
import type { Db } from '../../core/db/database.js';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { type JobOutcome, jobId, settleJobs } from '../../core/jobs/index.js';
import { retryDelayMs } from './backoff.js';
import { DELIVERY_JOB_KIND, DELIVERY_STATUS, parkDeliveries } from './deliveries-repository.js';
import type { WebhookDeliveriesTable, WebhookDeliveryAttemptsTable } from './tables.js';
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

/** Endpoints that reached their failure cap in a batch (for the log). */
export interface RecordSummary {
  readonly needsAttention: readonly string[];
}

/** Longest `error` kept on an attempt row, in UTF-16 code units. */
export const MAX_ATTEMPT_ERROR_LENGTH = 500;

/** Attempt rows per INSERT (10 columns each: well under both engines' bound-parameter limits). */
const ATTEMPT_ROWS_PER_INSERT = 500;

/** `error` cut to {@link MAX_ATTEMPT_ERROR_LENGTH}, never splitting a surrogate pair. */
export function boundError(error: string): string {
  if (error.length <= MAX_ATTEMPT_ERROR_LENGTH) return error;
  const cut = error.slice(0, MAX_ATTEMPT_ERROR_LENGTH - 1);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/** The history row of an attempt; its id is the delivery's id and the attempt number (one row each). */
function attemptRow(r: AttemptResult, outcome: string): Insertable<WebhookDeliveryAttemptsTable> {
  const attempt = r.delivery.attempts + 1;
  return {
    id: `${r.delivery.id}_${attempt}`,
    delivery_id: r.delivery.id,
    webhook_id: r.delivery.webhookId,
    account_id: r.delivery.accountId,
    attempt,
    started_at: r.startedAt,
    duration_ms: Math.max(0, r.durationMs),
    status_code: r.outcome.statusCode,
    error: r.outcome.ok ? null : boundError(r.outcome.error ?? 'failed'),
    outcome,
  };
}

/** The wait before the next attempt after `r` (undefined: exhausted, or delivered), per spec 6.5. */
export function decideRetry(r: AttemptResult, retry: RetryPolicy): number | undefined {
  if (r.outcome.ok || r.outcome.statusCode === 410 || r.undeliverable) return undefined;
  return retryDelayMs(r.delivery.attempts + 1, retry.random, retry.jitterRatio);
}

/** The job outcome of an attempt: done once delivered or exhausted, else retried at the delivery's time. */
export function jobOutcome(r: AttemptResult): JobOutcome {
  if (r.outcome.ok || r.retryInMs === undefined) return { type: 'done' };
  return { type: 'retry', at: r.at + r.retryInMs, error: boundError(r.outcome.error ?? 'failed') };
}

/** The new state of a delivery after an attempt (spec 3.3). */
function nextState(r: AttemptResult, deliverable: boolean): Updateable<WebhookDeliveriesTable> {
  const attempts = r.delivery.attempts + 1;
  const base = {
    attempts,
    last_status_code: r.outcome.statusCode,
    last_error: r.outcome.ok ? null : (r.outcome.error ?? 'failed'),
  };
  if (r.outcome.ok)
    return { ...base, status: DELIVERY_STATUS.delivered, delivered_at: r.at, next_attempt_at: null };
  const delay = r.retryInMs;
  if (delay === undefined) return { ...base, status: DELIVERY_STATUS.exhausted, next_attempt_at: null };
  return { ...base, status: DELIVERY_STATUS.failed, next_attempt_at: deliverable ? r.at + delay : null };
}

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
 * attempts ended (a success resets the count); reaching `failure_hard_cap` sets `needs_attention` (spec 3.4)
 * and parks the endpoint's open deliveries and their jobs. Each attempt gets its history row.
 */
export async function writeResults(
  trx: Kysely<Database>,
  results: readonly AttemptResult[],
): Promise<RecordSummary> {
  if (results.length === 0) return { needsAttention: [] };
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
    const count =
      lastSuccess >= 0 ? sql<number>`${failuresAfter}` : sql<number>`consecutive_failures + ${failuresAfter}`;
    const row = await trx
      .updateTable('webhooks')
      .set({
        consecutive_failures: count,
        health: sql<string>`case when ${count} >= failure_hard_cap then ${HEALTH.needsAttention} else health end`,
        updated_at: now,
      })
      .where('id', '=', webhookId)
      .returning(['is_active', 'health', 'consecutive_failures'])
      .executeTakeFirst();
    if (!row) continue;
    deliverable.set(webhookId, isDeliverable(row));
    if (!isDeliverable(row)) {
      await parkDeliveries(trx, webhookId, now);
      if (row.health === HEALTH.needsAttention && num(row.consecutive_failures) > 0)
        needsAttention.push(webhookId);
    }
  }
  // Deliveries that end in the same state (typically: delivered, 200, in the same millisecond) share one
  // UPDATE, so a busy engine writes a few statements per batch instead of one per delivery.
  const groups = new Map<string, { state: Updateable<WebhookDeliveriesTable>; ids: string[] }>();
  const outcomes = new Map<AttemptResult, string>();
  for (const r of results) {
    const state = nextState(r, deliverable.get(r.delivery.webhookId) ?? true);
    outcomes.set(r, state.status as string);
    const key = JSON.stringify(state);
    const group = groups.get(key) ?? { state, ids: [] };
    group.ids.push(r.delivery.id);
    groups.set(key, group);
  }
  const counted = new Set<string>();
  for (const { state, ids } of groups.values()) {
    const rows = await trx
      .updateTable('webhook_deliveries')
      .set(state)
      .where('id', 'in', ids)
      .returning('id')
      .execute();
    for (const row of rows) counted.add(row.id);
  }
  // Each attempt the deliveries now count gets its history row in the same transaction: both are written
  // or neither (a crash before the commit leaves the lease to expire and the attempt to be made again).
  // An attempt whose lease was lost is not counted on the delivery, and gets no row either; a delivery
  // counted once gets one row.
  const attempts: Insertable<WebhookDeliveryAttemptsTable>[] = [];
  for (const r of results)
    if (counted.delete(r.delivery.id))
      attempts.push(attemptRow(r, outcomes.get(r) ?? DELIVERY_STATUS.failed));
  for (let i = 0; i < attempts.length; i += ATTEMPT_ROWS_PER_INSERT)
    await trx
      .insertInto('webhook_delivery_attempts')
      .values(attempts.slice(i, i + ATTEMPT_ROWS_PER_INSERT))
      .execute();
  return { needsAttention };
}
