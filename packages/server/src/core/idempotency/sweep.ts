import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { JobKind, JobOutcome } from '../jobs/types.js';

/** The jobs-engine kind of the sweep of expired `Idempotency-Key` answers (one recurring job). */
export const IDEMPOTENCY_SWEEP_KIND = 'idempotency.sweep';

/** How often the sweep runs: hourly is plenty for a window counted in days. */
export const IDEMPOTENCY_SWEEP_EVERY_MS = 3_600_000;

/** The shortest replay window the reference allows (operations reference: "replay window ≥90 days"). */
export const MIN_IDEMPOTENCY_RETENTION_DAYS = 90;

/** Rows deleted per statement, so one sweep never holds a long write lock (SQLite) or a huge transaction. */
const SWEEP_BATCH = 1_000;

/**
 * Deletes the stored answers of keys older than `before` (epoch ms), in batches; answers how many went. A
 * key past the window is forgotten: what a replay then gets is each feature's (see `docs/concepts/errors.md`).
 */
export async function sweepIdempotencyKeys(db: Kysely<Database>, before: number): Promise<number> {
  let total = 0;
  for (;;) {
    const batch = await db
      .selectFrom('idempotency_keys')
      .select(['scope', 'key'])
      .where('created_at', '<', before)
      .limit(SWEEP_BATCH)
      .execute();
    if (!batch.length) return total;
    await db
      .deleteFrom('idempotency_keys')
      .where('created_at', '<', before)
      .where((eb) => eb.or(batch.map((r) => eb.and([eb('scope', '=', r.scope), eb('key', '=', r.key)]))))
      .execute();
    total += batch.length;
    if (batch.length < SWEEP_BATCH) return total;
  }
}

/**
 * The recurring sweep as a jobs-engine kind: one keyed job, run hourly by whichever instance holds it, that
 * deletes answers older than `retentionMs` and reschedules itself (also after a failure: the next hour
 * tries again).
 */
export function idempotencySweepKind(
  db: () => Kysely<Database>,
  retentionMs: number,
  onSwept?: (deleted: number) => void,
): JobKind {
  return {
    name: IDEMPOTENCY_SWEEP_KIND,
    batchSize: 1,
    concurrency: 1,
    leaseMs: 10 * 60_000,
    pollMs: 60_000,
    serial: true,
    run: async (jobs, ctx) => {
      const now = ctx.clock.now();
      const deleted = await sweepIdempotencyKeys(db(), now - retentionMs);
      onSwept?.(deleted);
      return jobs.map((): JobOutcome => ({ type: 'reschedule', at: now + IDEMPOTENCY_SWEEP_EVERY_MS }));
    },
    onError: (_job, _err, now) => ({ type: 'reschedule', at: now + IDEMPOTENCY_SWEEP_EVERY_MS }),
  };
}
