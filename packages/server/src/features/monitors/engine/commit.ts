import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../core/db/schema.js';
import { type NewEvent, storeEvents } from '../../../core/events/store.js';
import type { TimeIds } from '../../../core/ids/index.js';

/**
 * Writes what a check found in one transaction: the events (each once, with its outbox row) and the
 * monitors' new state (`alsoWrite`), so a crash leaves either both or neither and the next check redoes the
 * work without storing anything twice. An event id colliding with one another instance made at the same
 * millisecond fails the transaction: it is retried once with fresh ids. Returns how many events were stored.
 */
export async function commitChecks(
  db: Kysely<Database>,
  ids: TimeIds,
  events: readonly NewEvent[],
  now: number,
  alsoWrite: (trx: Transaction<Database>) => Promise<void>,
): Promise<number> {
  let batch = events;
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const stored = batch.length ? await storeEvents(trx, batch, now) : [];
        await alsoWrite(trx);
        return stored.length;
      });
    } catch (err) {
      if (attempt > 0 || batch.length === 0) throw err;
      ids.reroll();
      batch = batch.map((e) => ({ ...e, id: ids.next(now) }));
    }
  }
}
