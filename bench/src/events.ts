import { type Db, type NewEvent, storeEvents as storeNewEvents } from '@xsvc/server';

/**
 * Stored events for the delivery benchmarks: `tweet.new` events of one account, stored by the server's own
 * `storeEvents` (events and outbox rows, as the monitors feature stores them).
 */

let seq = 0;

/** Stores `n` events with their outbox rows in one transaction, as the monitors feature does. */
export async function storeEvents(database: Db, accountId: string, n: number): Promise<string[]> {
  const now = Date.now();
  const events = Array.from({ length: n }, (): NewEvent => {
    const id = `${now}${String(seq++).padStart(7, '0')}`;
    return {
      id,
      accountId,
      monitorId: 'bench',
      keywordMonitorId: null,
      eventType: 'tweet.new',
      username: 'bench',
      query: null,
      occurredAt: now,
      dedupeKey: `bench:${id}`,
      data: {
        id: `19${id}`,
        text: 'a tweet of ordinary length, with a link https://example.com/x and a #hashtag',
        author: { id: '42', userName: 'bench', name: 'Bench' },
        isRetweet: false,
        isReply: false,
        isQuote: false,
        createdAt: new Date(now).toISOString(),
      },
    };
  });
  return database.db.transaction().execute((trx) => storeNewEvents(trx, events, now));
}
