import type { EventType } from '@xsvc/sdk/contract';
import { CompiledQuery, type Kysely } from 'kysely';
import { inListText, inListValue, isPostgres, numbered, perEngine, valuesInsert } from '../db/lists.js';
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

const EVENT_COLUMNS = [
  'id',
  'account_id',
  'monitor_id',
  'keyword_monitor_id',
  'event_type',
  'username',
  'query',
  'occurred_at',
  'created_at',
  'payload',
  'dedupe_key',
] as const;
const EVENT_CONFLICT = ' on conflict (dedupe_key) do nothing returning id, account_id';
const OUTBOX_COLUMNS = ['event_id', 'account_id', 'created_at'] as const;

/**
 * Statement texts by engine, table and row count: at most {@link BATCH} per table and engine, in practice
 * the full batch and a few odd last ones.
 */
const insertTexts = new Map<string, string>();

/**
 * The multi-row insert of `rows` rows ({@link valuesInsert}), its text built once per engine, table and row
 * count instead of once per call from a Kysely node per value (the hot write of every stored event; #30).
 */
function insertText(
  pg: boolean,
  table: string,
  columns: readonly string[],
  rows: number,
  tail: string,
): string {
  const key = `${pg ? 'pg' : 'sqlite'}:${table}:${rows}`;
  let text = insertTexts.get(key);
  if (text === undefined) {
    text = valuesInsert(pg, table, columns, rows, tail);
    insertTexts.set(key, text);
  }
  return text;
}

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
    const values: unknown[] = [];
    for (const e of batch)
      values.push(
        e.id,
        e.accountId,
        e.monitorId,
        e.keywordMonitorId,
        e.eventType,
        e.username,
        e.query,
        e.occurredAt,
        now,
        JSON.stringify(eventPayload(e)),
        e.dedupeKey,
      );
    const pg = isPostgres(db);
    const inserted = (
      await db.executeQuery<{ id: string; account_id: string }>(
        CompiledQuery.raw(insertText(pg, 'events', EVENT_COLUMNS, batch.length, EVENT_CONFLICT), values),
      )
    ).rows;
    if (inserted.length === 0) continue;
    const outbox: unknown[] = [];
    for (const r of inserted) outbox.push(r.id, r.account_id, now);
    await db.executeQuery(
      CompiledQuery.raw(insertText(pg, 'event_outbox', OUTBOX_COLUMNS, inserted.length, ''), outbox),
    );
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
  const pg = isPostgres(db);
  await db.executeQuery(CompiledQuery.raw(removeFromOutboxText(pg), [inListValue(pg, eventIds)]));
}

/** {@link removeFromOutbox}'s statement, its text written once per engine (a hot write of the fan-out; #30). */
const removeFromOutboxText = perEngine((pg) =>
  numbered(pg, `delete from "event_outbox" where ${inListText(pg, 'event_id')}`),
);
