/**
 * The tables owned by `core/events` (stored events, webhook outbox): their row types, and their names. Only
 * code under `core/events` writes them; any code may read them through `Database`. `core/db/schema.ts` lists
 * them in `Database`.
 */
import type { Int } from '../db/columns.js';

/** The tables `core/events` owns. */
export const EVENTS_TABLES = ['events', 'event_outbox'] as const;

/**
 * A stored event (spec 2.5). Ids sort in creation order (time-prefixed), so `after` paging is by id.
 * `payload` is the delivery payload of spec 6.3 as JSON, without `deliveryId` (which each delivery adds):
 * `{ eventType, schemaVersion, streamEventId (= id), occurredAt, username? | query?, data }`.
 */
export interface EventsTable {
  id: string;
  account_id: string;
  monitor_id: string | null;
  keyword_monitor_id: string | null;
  event_type: string;
  username: string | null;
  query: string | null;
  occurred_at: Int;
  created_at: Int;
  payload: string;
  /**
   * Unique per (monitor, tweet, event type) or (monitor, profile change, event type) (migration 0004): a
   * re-check never stores an event twice. Null on rows not written by a monitor.
   */
  dedupe_key: string | null;
}

/** One row per stored event whose webhook deliveries are not created yet (see migration 0003). */
export interface EventOutboxTable {
  event_id: string;
  account_id: string;
  created_at: Int;
}
