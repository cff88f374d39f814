import type { Db } from '@xsvc/server';

/**
 * Stored events for the delivery benchmarks: `tweet.new` events of one account, with their outbox rows, as
 * the monitors feature stores them.
 */

let seq = 0;

/** Stores `n` events with their outbox rows in one transaction, as the monitors feature does. */
export async function storeEvents(database: Db, accountId: string, n: number): Promise<string[]> {
  const now = Date.now();
  const rows = Array.from({ length: n }, () => {
    const id = `${now}${String(seq++).padStart(7, '0')}`;
    const payload = {
      eventType: 'tweet.new',
      schemaVersion: 1,
      streamEventId: id,
      occurredAt: new Date(now).toISOString(),
      username: 'bench',
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
    return {
      id,
      account_id: accountId,
      monitor_id: 'bench',
      keyword_monitor_id: null,
      event_type: 'tweet.new',
      username: 'bench',
      query: null,
      occurred_at: now,
      created_at: now,
      payload: JSON.stringify(payload),
    };
  });
  await database.db.transaction().execute(async (trx) => {
    await trx.insertInto('events').values(rows).execute();
    await trx
      .insertInto('event_outbox')
      .values(rows.map((r) => ({ event_id: r.id, account_id: accountId, created_at: now })))
      .execute();
  });
  return rows.map((r) => r.id);
}
