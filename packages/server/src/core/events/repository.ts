import type { EventType, schemas } from '@xsvc/sdk/contract';
import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../db/schema.js';
import type { EventsTable } from './tables.js';

/** A stored-event row. */
export type EventRow = Selectable<EventsTable>;

/** Filters and page of the events list. */
export interface EventQuery {
  accountId: string;
  /** Only events of this monitor (an account monitor's id, or a keyword monitor's). */
  monitorId?: string | undefined;
  keywordMonitorId?: string | undefined;
  eventType?: EventType | undefined;
  /** Only events older than this id (the previous page's last). */
  beforeId?: string | undefined;
  limit: number;
}

/**
 * A page of an account's events, newest first (ids sort by time), one more than `limit` when more follow.
 */
export function queryEvents(db: Kysely<Database>, q: EventQuery): Promise<EventRow[]> {
  let query = db.selectFrom('events').selectAll().where('account_id', '=', q.accountId);
  const monitorId = q.monitorId;
  if (monitorId !== undefined) {
    query = query.where((eb) =>
      eb.or([eb('monitor_id', '=', monitorId), eb('keyword_monitor_id', '=', monitorId)]),
    );
  }
  if (q.keywordMonitorId !== undefined) query = query.where('keyword_monitor_id', '=', q.keywordMonitorId);
  if (q.eventType !== undefined) query = query.where('event_type', '=', q.eventType);
  if (q.beforeId !== undefined) query = query.where('id', '<', q.beforeId);
  return query
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
}

/** One event of an account. */
export function findEvent(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<EventRow | undefined> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A stored event in the API's shape, as the server emits it. */
export type ApiEvent = z.input<typeof schemas.StoredEventSchema>;

/** A row in the API's stored-event shape (spec 2.5; reference `EventDetail`). */
export function toApiEvent(row: EventRow): ApiEvent {
  let payload: { data?: unknown } = {};
  try {
    payload = JSON.parse(row.payload) as { data?: unknown };
  } catch {
    // A corrupt payload shows as an event without data rather than failing the page.
  }
  const data =
    payload.data && typeof payload.data === 'object' ? (payload.data as Record<string, unknown>) : {};
  const keyword = row.monitor_id === null && row.keyword_monitor_id !== null;
  const tweetId = row.event_type.startsWith('tweet.') && typeof data.id === 'string' ? data.id : undefined;
  return {
    id: row.id,
    type: row.event_type as EventType,
    monitorId: row.monitor_id ?? row.keyword_monitor_id ?? '',
    monitorType: keyword ? 'keyword' : 'account',
    ...(row.keyword_monitor_id !== null && { keywordMonitorId: row.keyword_monitor_id }),
    ...(row.username !== null && { username: row.username }),
    ...(row.query !== null && { query: row.query }),
    occurredAt: new Date(Number(row.occurred_at)).toISOString(),
    data,
    ...(tweetId && { xEventId: tweetId }),
  };
}
