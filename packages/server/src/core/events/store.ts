import type { EventType } from '@xsvc/sdk/contract';
import { type Kysely, sql } from 'kysely';
import { inList, jsonRows } from '../db/lists.js';
import type { Database } from '../db/schema.js';

/** An event a monitor matched, ready to store. */
export interface NewEvent {
  /** Time-sortable id; the `streamEventId` of its deliveries. */
  id: string;
  accountId: string;
  /** The account monitor, or null for a keyword monitor's event. */
  monitorId: string | null;
  keywordMonitorId: string | null;
  eventType: EventType;
  /** The watched account (account monitors). */
  username: string | null;
  /** The watched query (keyword monitors). */
  query: string | null;
  /** When the event was detected (epoch ms). */
  occurredAt: number;
  /** Unique per monitor and matched thing (tweet and type, or profile change and type). */
  dedupeKey: string;
  data: Record<string, unknown>;
}

/**
 * Events per statement. Each statement binds its rows as one list ({@link jsonRows}), so its text is the
 * same whatever the batch and no parameter limit applies; this only bounds the size of that one value.
 */
const BATCH = 1_000;

/** The columns of a stored event, as {@link jsonRows} binds them. */
const EVENT_COLUMNS = {
  id: 'text',
  account_id: 'text',
  monitor_id: 'text',
  keyword_monitor_id: 'text',
  event_type: 'text',
  username: 'text',
  query: 'text',
  occurred_at: 'bigint',
  created_at: 'bigint',
  payload: 'text',
  dedupe_key: 'text',
} as const;

const OUTBOX_COLUMNS = { event_id: 'text', account_id: 'text', created_at: 'bigint' } as const;

/**
 * The delivery payload of spec 6.3 without `deliveryId`, which each delivery adds: what `events.payload`
 * holds and what webhooks send.
 */
export function eventPayload(e: NewEvent): Record<string, unknown> {
  return {
    eventType: e.eventType,
    schemaVersion: 1,
    streamEventId: e.id,
    occurredAt: new Date(e.occurredAt).toISOString(),
    ...(e.username !== null && { username: e.username }),
    ...(e.query !== null && { query: e.query }),
    data: e.data,
  };
}

/**
 * Stores each event once (an event whose dedupe key is already stored is skipped: a re-check, or a check
 * repeated after a crash) and, for each one stored, its `event_outbox` row, from which the webhooks feature
 * creates the deliveries. Call it inside a transaction, so events and outbox rows are written together.
 * Returns the ids of the events stored now.
 */
export async function storeEvents(
  db: Kysely<Database>,
  events: readonly NewEvent[],
  now: number,
): Promise<string[]> {
  const stored: string[] = [];
  const eventCols = sql.raw(Object.keys(EVENT_COLUMNS).join(', '));
  const outboxCols = sql.raw(Object.keys(OUTBOX_COLUMNS).join(', '));
  for (let i = 0; i < events.length; i += BATCH) {
    const batch = events.slice(i, i + BATCH);
    const rows = batch.map((e) => ({
      id: e.id,
      account_id: e.accountId,
      monitor_id: e.monitorId,
      keyword_monitor_id: e.keywordMonitorId,
      event_type: e.eventType,
      username: e.username,
      query: e.query,
      occurred_at: e.occurredAt,
      created_at: now,
      payload: JSON.stringify(eventPayload(e)),
      dedupe_key: e.dedupeKey,
    }));
    // One INSERT … SELECT per batch, the rows bound as one list (`where true`: SQLite's parser then reads
    // the ON CONFLICT as the insert's, not a join's).
    const inserted = (
      await sql<{ id: string; account_id: string }>`
        insert into events (${eventCols})
        select ${eventCols} from ${jsonRows(db, 'j', EVENT_COLUMNS, rows)} where true
        on conflict (dedupe_key) do nothing
        returning id, account_id
      `.execute(db)
    ).rows;
    if (inserted.length === 0) continue;
    const outbox = inserted.map((r) => ({ event_id: r.id, account_id: r.account_id, created_at: now }));
    await sql`
      insert into event_outbox (${outboxCols})
      select ${outboxCols} from ${jsonRows(db, 'j', OUTBOX_COLUMNS, outbox)}
    `.execute(db);
    for (const r of inserted) stored.push(r.id);
  }
  return stored;
}

/**
 * Removes stored events from the outbox once their webhook deliveries exist (the consumer of migration
 * 0003's outbox calls this in the transaction that created them).
 */
export async function removeFromOutbox(db: Kysely<Database>, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await db
    .deleteFrom('event_outbox')
    .where(inList(db, 'event_id', eventIds))
    .execute();
}
