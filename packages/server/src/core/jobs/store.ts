import { CompiledQuery, type Kysely, sql, type Updateable } from 'kysely';
import { type DialectName, num } from '../db/database.js';
import { checkName, inList, inListText, inListValue, isPostgres, numbered, perEngine } from '../db/lists.js';
import type { Database } from '../db/schema.js';
import { uuid } from '../ids/index.js';
import type { JobsTable } from './tables.js';
import { JOB_STATE, type Job, type JobOutcome } from './types.js';

/** A job to add with {@link enqueue}. */
export interface NewJob {
  readonly kind: string;
  /** Unique per kind; the job's id is then `kind:key`. */
  readonly key?: string | null;
  readonly payload?: unknown;
  /** When it is due (default: now). */
  readonly runAt?: number;
  /** `parked` adds it off the schedule (default `queued`). */
  readonly state?: 'queued' | 'parked';
}

/** What {@link enqueue} does when a job with the same kind and key exists. */
export type OnExisting = 'keep' | 'replace';

/** Rows per INSERT (12 columns each: well under both engines' bound-parameter limits). */
const ROWS_PER_INSERT = 500;

/** The id of a job: `kind:key` when it has a key, else a random one. */
export function jobId(kind: string, key: string | null | undefined): string {
  return key === null || key === undefined ? `${kind}:${uuid()}` : `${kind}:${key}`;
}

/**
 * Adds jobs in `db`, which may be a caller's transaction: the jobs commit (or roll back) with what the
 * caller writes there. A keyed job that exists is kept (default) or replaced (due again, attempts reset).
 */
export async function enqueue(
  db: Kysely<Database>,
  jobs: readonly NewJob[],
  now: number,
  onExisting: OnExisting = 'keep',
): Promise<void> {
  for (let i = 0; i < jobs.length; i += ROWS_PER_INSERT) {
    const rows = jobs.slice(i, i + ROWS_PER_INSERT).map((j) => ({
      id: jobId(j.kind, j.key),
      kind: j.kind,
      key: j.key ?? null,
      payload: JSON.stringify(j.payload ?? {}),
      state: j.state ?? JOB_STATE.queued,
      run_at: j.runAt ?? now,
      attempts: 0,
      lease_owner: null,
      lease_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    }));
    await db
      .insertInto('jobs')
      .values(rows)
      .onConflict((oc) =>
        onExisting === 'keep'
          ? oc.column('id').doNothing()
          : oc.column('id').doUpdateSet((eb) => ({
              payload: eb.ref('excluded.payload'),
              state: eb.ref('excluded.state'),
              run_at: eb.ref('excluded.run_at'),
              attempts: 0,
              last_error: null,
              updated_at: now,
            })),
      )
      .execute();
  }
}

/** What {@link claimJobs} takes. */
export interface ClaimRequest {
  readonly kind: string;
  readonly owner: string;
  readonly now: number;
  readonly leaseMs: number;
  readonly limit: number;
  /** Claim jobs not due yet too (any unleased `queued` job of the kind): a manual run. */
  readonly force?: boolean;
  /** Only the jobs with these keys. */
  readonly keys?: readonly string[];
}

interface ClaimedRow {
  id: string;
  kind: string;
  key: string | null;
  payload: string;
  attempts: bigint | number;
  run_at: bigint | number;
}

/**
 * Leases up to `limit` due jobs of a kind whose lease is free or expired, oldest due first, in one
 * statement: `UPDATE … WHERE id IN (SELECT … LIMIT n) RETURNING`. On Postgres the candidates are locked
 * `FOR UPDATE SKIP LOCKED`, so concurrent instances take disjoint sets; on SQLite the statement runs alone
 * (one writer).
 */
export async function claimJobs(db: Kysely<Database>, dialect: DialectName, r: ClaimRequest): Promise<Job[]> {
  if (r.limit <= 0) return [];
  const due = r.force ? sql`` : sql`and run_at <= ${r.now}`;
  const only =
    r.keys === undefined
      ? sql``
      : sql`and id in (${sql.join(r.keys.length > 0 ? r.keys.map((k) => jobId(r.kind, k)) : [''])})`;
  const lock = dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const result = await sql<ClaimedRow>`
    update jobs set lease_owner = ${r.owner}, lease_until = ${r.now + r.leaseMs}, updated_at = ${r.now}
    where id in (
      select id from jobs
      where kind = ${r.kind} and state = ${JOB_STATE.queued} ${due} ${only}
        and (lease_until is null or lease_until <= ${r.now})
      order by run_at, id limit ${r.limit} ${lock}
    )
    returning id, kind, key, payload, attempts, run_at
  `.execute(db);
  return result.rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    key: row.key,
    payload: JSON.parse(row.payload) as unknown,
    attempts: num(row.attempts),
    dueAt: num(row.run_at),
  }));
}

/** The row change an outcome makes (undefined: the row is deleted). */
function outcomeUpdate(outcome: JobOutcome, now: number): Record<string, unknown> | undefined {
  const free = { lease_owner: null, lease_until: null, updated_at: now };
  switch (outcome.type) {
    case 'done':
      return undefined;
    case 'retry':
      return {
        ...free,
        run_at: outcome.at,
        attempts: sql<number>`attempts + 1`,
        last_error: outcome.error ?? null,
      };
    case 'reschedule':
      return {
        ...free,
        run_at: outcome.at,
        attempts: 0,
        last_error: null,
        ...(outcome.payload !== undefined && { payload: JSON.stringify(outcome.payload) }),
      };
    case 'fail':
      return {
        ...free,
        state: JOB_STATE.failed,
        attempts: sql<number>`attempts + 1`,
        last_error: outcome.error,
      };
    case 'release':
      return free;
  }
}

/**
 * The statements of the common outcomes ({@link outcomeUpdate}'s, as Kysely compiles them), their text
 * written once per engine: settling is on every job's path (issue #30).
 */
const settleTexts = perEngine((pg) => {
  const mine = `where ${inListText(pg, 'id')} and "lease_owner" = ? returning "id"`;
  const free = `"lease_owner" = null, "lease_until" = null, "updated_at" = ?`;
  return {
    done: numbered(pg, `delete from "jobs" ${mine}`),
    release: numbered(pg, `update "jobs" set ${free} ${mine}`),
    retry: numbered(
      pg,
      `update "jobs" set ${free}, "run_at" = ?, "attempts" = attempts + 1, "last_error" = ? ${mine}`,
    ),
  };
});

/**
 * Writes the outcomes of jobs `owner` holds, in `trx`; jobs ending alike share one statement. Returns the
 * ids whose lease `owner` still held (the others were taken over after their lease expired: left alone).
 */
export async function settleJobs(
  trx: Kysely<Database>,
  owner: string,
  now: number,
  items: readonly { readonly id: string; readonly outcome: JobOutcome }[],
): Promise<Set<string>> {
  const held = new Set<string>();
  const groups = new Map<string, { outcome: JobOutcome; ids: string[] }>();
  for (const item of items) {
    // The common end (a job done) needs no text to be told apart; every other key is a JSON object's.
    const key = item.outcome.type === 'done' ? 'done' : JSON.stringify(item.outcome);
    const group = groups.get(key) ?? { outcome: item.outcome, ids: [] };
    group.ids.push(item.id);
    groups.set(key, group);
  }
  // One statement per way of ending, the ids bound as one list: its text (and prepared statement) is the
  // same whatever the batch size. The common ends have theirs written once per engine.
  const pg = isPostgres(trx);
  const texts = settleTexts(pg);
  for (const { outcome, ids } of groups.values()) {
    const list = inListValue(pg, ids);
    const common =
      outcome.type === 'done'
        ? CompiledQuery.raw(texts.done, [list, owner])
        : outcome.type === 'release'
          ? CompiledQuery.raw(texts.release, [now, list, owner])
          : outcome.type === 'retry'
            ? CompiledQuery.raw(texts.retry, [now, outcome.at, outcome.error ?? null, list, owner])
            : undefined;
    if (common) {
      for (const row of (await trx.executeQuery<{ id: string }>(common)).rows) held.add(row.id);
      continue;
    }
    const update = outcomeUpdate(outcome, now);
    const rows = update
      ? await trx
          .updateTable('jobs')
          .set(update as Updateable<JobsTable>)
          .where(inList(trx, 'id', ids))
          .where('lease_owner', '=', owner)
          .returning('id')
          .execute()
      : await trx
          .deleteFrom('jobs')
          .where(inList(trx, 'id', ids))
          .where('lease_owner', '=', owner)
          .returning('id')
          .execute();
    for (const row of rows) held.add(row.id);
  }
  return held;
}

/** Extends `owner`'s leases of `ids` to `until`; returns the ids still held. */
export async function renewLeases(
  db: Kysely<Database>,
  owner: string,
  ids: readonly string[],
  now: number,
  until: number,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .updateTable('jobs')
    .set({ lease_until: until, updated_at: now })
    .where(inList(db, 'id', ids))
    .where('lease_owner', '=', owner)
    .returning('id')
    .execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * Gives back `owner`'s leases (all, or those of `ids`): the jobs are due again at their `run_at`, for any
 * instance. Keyed leases taken with {@link leaseKey} are freed too. Returns how many.
 */
export async function releaseLeases(
  db: Kysely<Database>,
  owner: string,
  now: number,
  ids?: readonly string[],
): Promise<number> {
  if (ids?.length === 0) return 0;
  const r = await db
    .updateTable('jobs')
    .set({ lease_owner: null, lease_until: null, updated_at: now })
    .where('lease_owner', '=', owner)
    .$if(ids !== undefined, (qb) => qb.where('id', 'in', ids ?? []))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Takes `kind`'s jobs with these keys off the schedule (they keep their attempts). */
export async function parkJobs(db: Kysely<Database>, kind: string, keys: readonly string[], now: number) {
  for (let i = 0; i < keys.length; i += ROWS_PER_INSERT) {
    await db
      .updateTable('jobs')
      .set({ state: JOB_STATE.parked, updated_at: now })
      .where(
        'id',
        'in',
        keys.slice(i, i + ROWS_PER_INSERT).map((k) => jobId(kind, k)),
      )
      .where('state', '=', JOB_STATE.queued)
      .execute();
  }
}

/** Puts `kind`'s parked jobs with these keys back on the schedule, due at `runAt`. */
export async function unparkJobs(
  db: Kysely<Database>,
  kind: string,
  keys: readonly string[],
  runAt: number,
): Promise<void> {
  for (let i = 0; i < keys.length; i += ROWS_PER_INSERT) {
    await db
      .updateTable('jobs')
      .set({ state: JOB_STATE.queued, run_at: runAt, updated_at: runAt })
      .where(
        'id',
        'in',
        keys.slice(i, i + ROWS_PER_INSERT).map((k) => jobId(kind, k)),
      )
      .where('state', '=', JOB_STATE.parked)
      .execute();
  }
}

/**
 * Takes the lease of one keyed job for `owner` until `until`, whatever its state (a request-scoped lease,
 * such as a coverage walk's): the conditional update is the lock, so of two claimants only one gets true.
 */
export async function leaseKey(
  db: Kysely<Database>,
  kind: string,
  key: string,
  owner: string,
  now: number,
  until: number,
): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({ lease_owner: owner, lease_until: until, updated_at: now })
    .where('id', '=', jobId(kind, key))
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Lets a keyed lease go (only `owner`'s); true when `owner` still held it. */
export async function releaseKey(
  db: Kysely<Database>,
  kind: string,
  key: string,
  owner: string,
  now: number,
): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({ lease_owner: null, lease_until: null, updated_at: now })
    .where('id', '=', jobId(kind, key))
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Deletes `kind`'s jobs with these keys. */
export async function deleteJobs(db: Kysely<Database>, kind: string, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += ROWS_PER_INSERT)
    await db
      .deleteFrom('jobs')
      .where(
        'id',
        'in',
        keys.slice(i, i + ROWS_PER_INSERT).map((k) => jobId(kind, k)),
      )
      .execute();
}

/**
 * Frees the leases of `kinds` held by any owner but `owner`: on SQLite, where one process runs the engine,
 * every such lease was left by a process that died holding it. Returns how many.
 */
export async function releaseOthersLeases(
  db: Kysely<Database>,
  kinds: readonly string[],
  owner: string,
): Promise<number> {
  if (kinds.length === 0) return 0;
  const r = await db
    .updateTable('jobs')
    .set({ lease_owner: null, lease_until: null })
    .where('kind', 'in', kinds)
    .where('lease_owner', 'is not', null)
    .where('lease_owner', '<>', owner)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Enqueues one `kind` job per row of a feature's `table` whose `id` is in `ids` (in the transaction that
 * creates the rows): keyed by the row id, due at the row's `runAtColumn`, or parked when that is null. One
 * INSERT … SELECT with the ids as one list, so a burst costs one statement, not a value per column. A job
 * that exists is kept. With `lease`, the new jobs are created held by `lease.owner` until `lease.until`
 * (work the caller runs at once, with no claim); the ids of the jobs created are returned.
 */
export async function enqueueForRows(
  db: Kysely<Database>,
  r: {
    kind: string;
    table: string;
    runAtColumn: string;
    ids: readonly string[];
    now: number;
    lease?: { readonly owner: string; readonly until: number };
  },
): Promise<string[]> {
  if (r.ids.length === 0) return [];
  const pg = isPostgres(db);
  const owner = r.lease?.owner ?? null;
  const until = r.lease?.until ?? null;
  const result = await db.executeQuery<{ id: string }>(
    CompiledQuery.raw(enqueueForRowsText(pg, r.table, r.runAtColumn), [
      jobId(r.kind, ''),
      r.kind,
      JOB_STATE.parked,
      JOB_STATE.queued,
      r.now,
      owner,
      until,
      r.now,
      r.now,
      inListValue(pg, r.ids),
    ]),
  );
  return result.rows.map((row) => row.id);
}

/** {@link enqueueForRows}'s statement texts, by engine, table and column (a few, built once each). */
const enqueueTexts = new Map<string, string>();

function enqueueForRowsText(pg: boolean, table: string, runAtColumn: string): string {
  const key = `${pg ? 'pg' : 'sqlite'}:${table}:${runAtColumn}`;
  let text = enqueueTexts.get(key);
  if (text === undefined) {
    checkName(table);
    checkName(runAtColumn);
    const runAt = `"${runAtColumn}"`;
    text = numbered(
      pg,
      `insert into jobs (id, kind, key, payload, state, run_at, attempts, lease_owner, lease_until, last_error, created_at, updated_at)
    select ? || id, ?, id, '{}', case when ${runAt} is null then ? else ? end, coalesce(${runAt}, ?), 0, ?, ?, null, ?, ?
    from "${table}" where ${inListText(pg, 'id')}
    on conflict (id) do nothing
    returning id`,
    );
    enqueueTexts.set(key, text);
  }
  return text;
}

/**
 * How many queued jobs of `kind` are due at `now` or held by `owner` (in flight in its engine): zero when that
 * engine has nothing of the kind left to do now.
 */
export async function countPending(
  db: Kysely<Database>,
  kind: string,
  owner: string,
  now: number,
): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('kind', '=', kind)
    .where('state', '=', JOB_STATE.queued)
    .where((eb) => eb.or([eb('run_at', '<=', now), eb('lease_owner', '=', owner)]))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
