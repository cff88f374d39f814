import type { Kysely } from 'kysely';
import { num } from '../../../core/db/database.js';
import type { Database } from '../../../core/db/schema.js';
import { deleteJobs, enqueue, jobId, leaseKey, releaseKey } from '../../../core/jobs/index.js';

/** Where a coverage walk stands after an answer. */
export interface WalkState {
  /** The platform cursor the walk continues from; null at its start. */
  platformCursor: string | null;
  /** Results returned over the walk so far. */
  returned: number;
  /** Results dropped over the walk so far because an earlier answer had returned them. */
  duplicates: number;
  /** Operation-specific running totals (newest and oldest id, reply counts, ...). */
  totals: Record<string, number | string>;
}

/**
 * The job kind of a coverage walk: one parked job per walk (keyed by its id), whose lease is the walk's
 * request-scoped lease (a request resuming the walk holds it; others get 409).
 */
export const WALK_JOB_KIND = 'coverage.walk';

/** The state of a walk that has not read anything yet. */
export const START: WalkState = { platformCursor: null, returned: 0, duplicates: 0, totals: {} };

/** A stored walk. */
export interface Walk {
  id: string;
  accountId: string;
  operation: string;
  fingerprint: string;
  mode: 'coverage' | 'automatic';
  step: number;
  state: WalkState;
  prevState: WalkState;
  expiresAt: number;
  leaseUntil: number | null;
}

const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** Loads a walk by id. */
export async function loadWalk(db: Kysely<Database>, id: string): Promise<Walk | undefined> {
  const r = await db.selectFrom('coverage_walks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!r) return undefined;
  const lease = await db
    .selectFrom('jobs')
    .select('lease_until')
    .where('id', '=', jobId(WALK_JOB_KIND, id))
    .executeTakeFirst();
  return {
    id: r.id,
    accountId: r.account_id,
    operation: r.operation,
    fingerprint: r.fingerprint,
    mode: r.mode === 'automatic' ? 'automatic' : 'coverage',
    step: num(r.step),
    state: JSON.parse(r.state) as WalkState,
    prevState: JSON.parse(r.prev_state) as WalkState,
    expiresAt: num(r.expires_at),
    leaseUntil: lease?.lease_until == null ? null : num(lease.lease_until),
  };
}

/** Stores a new walk at step 1 (its first answer given). */
export async function createWalk(
  db: Kysely<Database>,
  w: Omit<Walk, 'step' | 'leaseUntil'> & { now: number },
): Promise<void> {
  await db
    .insertInto('coverage_walks')
    .values({
      id: w.id,
      account_id: w.accountId,
      operation: w.operation,
      fingerprint: w.fingerprint,
      mode: w.mode,
      step: 1,
      state: JSON.stringify(w.state),
      prev_state: JSON.stringify(w.prevState),
      created_at: w.now,
      expires_at: w.expiresAt,
    })
    .execute();
  await enqueue(db, [{ kind: WALK_JOB_KIND, key: w.id, state: 'parked', runAt: w.expiresAt }], w.now);
}

/**
 * Takes the walk for one request until `leaseUntil`: the lease of the walk's job. The conditional update is
 * the lock: of two requests resuming the same walk at once only one gets true (the other answers 409
 * `coverage_cursor_unavailable`).
 */
export async function claimWalk(
  db: Kysely<Database>,
  id: string,
  owner: string,
  now: number,
  leaseUntil: number,
): Promise<boolean> {
  // A walk stored before its job existed gets one (parked: only requests lease it).
  await enqueue(db, [{ kind: WALK_JOB_KIND, key: id, state: 'parked', runAt: now }], now);
  return leaseKey(db, WALK_JOB_KIND, id, owner, now, leaseUntil);
}

/**
 * Stores the walk's new checkpoint and lets it go, in one transaction with the lease check; false when the
 * lease was lost meanwhile (nothing is stored).
 */
export async function saveWalk(
  db: Kysely<Database>,
  id: string,
  owner: string,
  next: { step: number; state: WalkState; prevState: WalkState; expiresAt: number; now: number },
): Promise<boolean> {
  const save = async (trx: Kysely<Database>) => {
    if (!(await releaseKey(trx, WALK_JOB_KIND, id, owner, next.now))) return false;
    await trx
      .updateTable('coverage_walks')
      .set({
        step: next.step,
        state: JSON.stringify(next.state),
        prev_state: JSON.stringify(next.prevState),
        expires_at: next.expiresAt,
      })
      .where('id', '=', id)
      .execute();
    return true;
  };
  return db.isTransaction ? save(db) : db.transaction().execute(save);
}

/** Lets the walk go unchanged (the request failed). */
export async function releaseWalk(
  db: Kysely<Database>,
  id: string,
  owner: string,
  now: number,
): Promise<void> {
  await releaseKey(db, WALK_JOB_KIND, id, owner, now);
}

/** Removes a walk and what it has seen. */
export async function deleteWalk(db: Kysely<Database>, id: string): Promise<void> {
  await deleteJobs(db, WALK_JOB_KIND, [id]);
  await db.deleteFrom('coverage_seen').where('walk_id', '=', id).execute();
  await db.deleteFrom('coverage_walks').where('id', '=', id).execute();
}

/** Removes every walk that expired before `now`. */
export async function sweepWalks(db: Kysely<Database>, now: number): Promise<void> {
  const expired = db.selectFrom('coverage_walks').select('id').where('expires_at', '<', now);
  const ids = (await expired.execute()).map((r) => r.id);
  await deleteJobs(db, WALK_JOB_KIND, ids);
  await db.deleteFrom('coverage_seen').where('walk_id', 'in', expired).execute();
  await db.deleteFrom('coverage_walks').where('expires_at', '<', now).execute();
}

/** Which of `ids` answers up to step `maxStep` of the walk returned. */
export async function seenAmong(
  db: Kysely<Database>,
  walkId: string,
  ids: readonly string[],
  maxStep: number,
): Promise<Set<string>> {
  const out = new Set<string>();
  for (const chunk of chunks([...new Set(ids)])) {
    const rows = await db
      .selectFrom('coverage_seen')
      .select('item_id')
      .where('walk_id', '=', walkId)
      .where('step', '<=', maxStep)
      .where('item_id', 'in', chunk)
      .execute();
    for (const r of rows) out.add(r.item_id);
  }
  return out;
}

/** Records the ids answer `step` returned. */
export async function recordSeen(
  db: Kysely<Database>,
  walkId: string,
  ids: readonly string[],
  step: number,
): Promise<void> {
  for (const chunk of chunks([...new Set(ids)])) {
    await db
      .insertInto('coverage_seen')
      .values(chunk.map((item_id) => ({ walk_id: walkId, item_id, step })))
      .onConflict((oc) => oc.columns(['walk_id', 'item_id']).doNothing())
      .execute();
  }
}

/** Forgets what answers from `step` on returned (an answer served again replaces them). */
export async function forgetFrom(db: Kysely<Database>, walkId: string, step: number): Promise<void> {
  await db.deleteFrom('coverage_seen').where('walk_id', '=', walkId).where('step', '>=', step).execute();
}
