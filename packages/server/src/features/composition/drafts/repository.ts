import type { Kysely, Selectable } from 'kysely';
import { num } from '../../../core/db/database.js';
import type { Database } from '../../../core/db/schema.js';
import type { DraftsTable } from '../tables.js';

/** A stored draft row. */
export type DraftRow = Selectable<DraftsTable>;

/** A page position: drafts created before `createdAt`, or at it with a smaller id. */
export interface DraftPosition {
  createdAt: bigint;
  id: string;
}

/** A page of an account's drafts, newest first, one more than `limit` when more follow. */
export function queryDrafts(
  db: Kysely<Database>,
  accountId: string,
  before: DraftPosition | undefined,
  limit: number,
): Promise<DraftRow[]> {
  let q = db.selectFrom('drafts').selectAll().where('account_id', '=', accountId);
  if (before) {
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '<', before.createdAt),
        eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
      ]),
    );
  }
  return q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

/** One draft of an account; undefined when it does not exist or belongs to another account. */
export function findDraft(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<DraftRow | undefined> {
  return db
    .selectFrom('drafts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Stores a new draft. */
export async function insertDraft(db: Kysely<Database>, row: DraftRow): Promise<void> {
  await db.insertInto('drafts').values(row).execute();
}

/** Deletes one draft of an account; false when there was none. */
export async function deleteDraft(db: Kysely<Database>, accountId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom('drafts')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return num(r.numDeletedRows) > 0;
}
