import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import type { ListPosition } from '../../core/paging/cursor.js';
import type { DrawCommitmentsTable, DrawEntriesTable, DrawsTable } from './tables.js';

/** A stored draw. */
export type DrawRow = Selectable<DrawsTable>;
/** A stored entry of a draw. */
export type DrawEntryRow = Selectable<DrawEntriesTable>;

/** Entries written per statement (well under both engines' bound-parameter limits). */
const CHUNK = 400;

/** Stores a draw and its entries in one transaction: a draw is never seen without all of its entries. */
export async function insertDraw(
  db: Kysely<Database>,
  draw: Insertable<DrawsTable>,
  entries: readonly Insertable<DrawEntriesTable>[],
  pay?: (trx: Kysely<Database>) => Promise<void>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // The draw's charge commits with the draw or not at all (a crash in between neither charges nor stores).
    await pay?.(trx);
    await trx.insertInto('draws').values(draw).execute();
    for (let i = 0; i < entries.length; i += CHUNK) {
      await trx
        .insertInto('draw_entries')
        .values(entries.slice(i, i + CHUNK))
        .execute();
    }
  });
}

/** A page of an account's draws, newest first, one more than `limit` when more follow. */
export function listDrawRows(
  db: Kysely<Database>,
  accountId: string,
  after: ListPosition | undefined,
  limit: number,
): Promise<DrawRow[]> {
  return db
    .selectFrom('draws')
    .selectAll()
    .where('account_id', '=', accountId)
    .$if(after !== undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('created_at', '<', after?.createdAt ?? 0),
          eb.and([eb('created_at', '=', after?.createdAt ?? 0), eb('id', '<', after?.id ?? '')]),
        ]),
      ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

/** One draw of an account. */
export function findDraw(db: Kysely<Database>, accountId: string, id: string): Promise<DrawRow | undefined> {
  return db
    .selectFrom('draws')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The winners and backups of a draw, by position. */
export function drawWinners(db: Kysely<Database>, drawId: string): Promise<DrawEntryRow[]> {
  return db
    .selectFrom('draw_entries')
    .selectAll()
    .where('draw_id', '=', drawId)
    .where('winner_position', 'is not', null)
    .orderBy('winner_position')
    .execute();
}

/** Every entry of a draw, in the order they were read. */
export function drawEntries(db: Kysely<Database>, drawId: string): Promise<DrawEntryRow[]> {
  return db
    .selectFrom('draw_entries')
    .selectAll()
    .where('draw_id', '=', drawId)
    .orderBy('position')
    .execute();
}

/** Stores a new draw commitment. */
export async function insertCommitment(db: Kysely<Database>, row: DrawCommitmentsTable): Promise<void> {
  await db.insertInto('draw_commitments').values(row).execute();
}
