import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import type { ListPosition } from '../../core/paging/cursor.js';
import type { ExtractionJobsTable, ExtractionResultsTable } from './tables.js';

/** A stored extraction job. */
export type JobRow = Selectable<ExtractionJobsTable>;
/** A stored result of a job. */
export type ResultRow = Selectable<ExtractionResultsTable>;

/** Results written per statement (well under both engines' bound-parameter limits). */
const CHUNK = 500;

/** Stores a new job. */
export async function insertJob(db: Kysely<Database>, job: Insertable<ExtractionJobsTable>): Promise<void> {
  await db.insertInto('extraction_jobs').values(job).execute();
}

/** One job of an account. */
export function findJob(db: Kysely<Database>, accountId: string, id: string): Promise<JobRow | undefined> {
  return db
    .selectFrom('extraction_jobs')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A job by id, whoever owns it (the runner). */
export function loadJob(db: Kysely<Database>, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('extraction_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Filters and page of the jobs list. */
export interface JobQuery {
  accountId: string;
  toolType?: string | undefined;
  status?: string | undefined;
  after?: ListPosition | undefined;
  limit: number;
}

/** A page of an account's jobs, newest first, one more than `limit` when more follow. */
export function listJobRows(db: Kysely<Database>, q: JobQuery): Promise<JobRow[]> {
  const after = q.after;
  return db
    .selectFrom('extraction_jobs')
    .selectAll()
    .where('account_id', '=', q.accountId)
    .$if(q.toolType !== undefined, (b) => b.where('tool_type', '=', q.toolType ?? ''))
    .$if(q.status !== undefined, (b) => b.where('status', '=', q.status ?? ''))
    .$if(after !== undefined, (b) =>
      b.where((eb) =>
        eb.or([
          eb('created_at', '<', after?.createdAt ?? 0),
          eb.and([eb('created_at', '=', after?.createdAt ?? 0), eb('id', '<', after?.id ?? '')]),
        ]),
      ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
}

/** Results of a job after result `afterSeq`, in id order, at most `limit` (all when undefined). */
export function resultRows(
  db: Kysely<Database>,
  jobId: string,
  afterSeq: number,
  limit?: number,
): Promise<ResultRow[]> {
  return db
    .selectFrom('extraction_results')
    .selectAll()
    .where('job_id', '=', jobId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .$if(limit !== undefined, (b) => b.limit(limit ?? 0))
    .execute();
}

/** The stored results (their `data`) a job already has for any of `keys`, by key. */
export async function existingResults(
  db: Kysely<Database>,
  jobId: string,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < keys.length; i += CHUNK) {
    const rows = await db
      .selectFrom('extraction_results')
      .select(['item_key', 'data'])
      .where('job_id', '=', jobId)
      .where('item_key', 'in', keys.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) found.set(r.item_key, r.data);
  }
  return found;
}

/** Rewrites the record of a job's result (a merged result gaining a target). */
export async function updateResultData(
  trx: Transaction<Database>,
  jobId: string,
  itemKey: string,
  data: string,
): Promise<void> {
  await trx
    .updateTable('extraction_results')
    .set({ data })
    .where('job_id', '=', jobId)
    .where('item_key', '=', itemKey)
    .execute();
}

/** Inserts results inside a transaction. */
export async function insertResults(
  trx: Transaction<Database>,
  rows: readonly Insertable<ExtractionResultsTable>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto('extraction_results')
      .values(rows.slice(i, i + CHUNK))
      .execute();
  }
}
