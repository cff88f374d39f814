import type { EventType } from '@xsvc/sdk/contract';
import type { Kysely } from 'kysely';
import { inList } from '../db/lists.js';
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

/** Rows per multi-row insert (11 bound values a row; far below both engines' parameter limits). */
const BATCH = 200;

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
  for (let i = 0; i < events.length; i += BATCH) {
    const batch = events.slice(i, i + BATCH);
    const inserted = await db
      .insertInto('events')
      .values(
        batch.map((e) => ({
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
        })),
      )
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returning(['id', 'account_id'])
      .execute();
    if (inserted.length === 0) continue;
    await db
      .insertInto('event_outbox')
      .values(inserted.map((r) => ({ event_id: r.id, account_id: r.account_id, created_at: now })))
      .execute();
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
