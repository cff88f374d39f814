import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';

/**
 * Whether the platform locked an account (it asks its owner to prove who they are before it may act again:
 * its writes and private reads are refused until it is unlocked). Kept as a `sim_meta` marker
 * (`locked:<userId>`) rather than a column: a lock is rare, and a marker needs no change to the seeded
 * users table.
 */
const key = (userId: string) => `locked:${userId}`;

/** Whether `userId` is locked. */
export async function isLocked(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom('sim_meta').select('key').where('key', '=', key(userId)).executeTakeFirst();
  return row !== undefined;
}

/** Locks or unlocks `userId` (idempotent). */
export async function setLocked(db: Kysely<Database>, userId: string, locked: boolean): Promise<void> {
  await db.deleteFrom('sim_meta').where('key', '=', key(userId)).execute();
  if (locked)
    await db
      .insertInto('sim_meta')
      .values({ key: key(userId), value: '1' })
      .execute();
}
