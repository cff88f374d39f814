import { CompiledQuery } from 'kysely';
import type { Db } from '../../core/db/database.js';
import {
  inListText,
  inListValue,
  jsonRowsText,
  jsonRowsValue,
  type ListCell,
  numbered,
  perEngine,
} from '../../core/db/lists.js';
import { removeFromOutbox } from '../../core/events/store.js';
import { timeHexId } from '../../core/ids/index.js';
import { jobId } from '../../core/jobs/index.js';
import { DELIVERY_JOB_KIND, DELIVERY_STATUS, enqueueDeliveryJobs } from './deliveries-repository.js';
import type { ClaimedDelivery } from './results.js';
import { isDeliverable } from './webhooks-repository.js';

/** Deliveries a fan-out may create held by the engine running it (run at once, with no claim or read). */
export interface HoldRequest {
  /** The engine's lease owner id. */
  readonly owner: string;
  /** The lease's end. */
  readonly leaseUntil: number;
  /** Deliveries to hold at most (the engine's free capacity). */
  readonly max: number;
}

/** A delivery a fan-out created held, with what its first attempt needs (read in the same transaction). */
export interface HeldDelivery {
  /** Its job's id (leased by the engine that asked). */
  readonly jobId: string;
  readonly delivery: ClaimedDelivery;
  readonly url: string;
  readonly secret: string;
  /** The stored event's payload. */
  readonly payload: string;
}

/** What one fan-out pass did. */
export interface FanOutResult {
  /** Outbox rows consumed (each a stored event). */
  readonly events: number;
  /** Deliveries created. */
  readonly deliveries: number;
  /** Of those, the ones created held by the engine that asked ({@link HoldRequest}). */
  readonly held: readonly HeldDelivery[];
}

const DELIVERY_COLUMNS = {
  id: 'text',
  webhook_id: 'text',
  account_id: 'text',
  event_id: 'text',
  event_type: 'text',
  status: 'text',
  attempts: 'integer',
  created_at: 'bigint',
  next_attempt_at: 'bigint',
} as const;

/**
 * The fan-out's statements, their text written once per engine (each binds its lists as one value, so it is
 * the same whatever the burst): run with `CompiledQuery.raw`, with no query built and compiled per pass.
 */
const fanOutTexts = perEngine((pg) => {
  const cols = Object.keys(DELIVERY_COLUMNS).join(', ');
  const events = (payload: string) =>
    numbered(
      pg,
      `select "id", "account_id", "event_type"${payload} from "events" where ${inListText(pg, 'id')}`,
    );
  return {
    outbox: numbered(
      pg,
      `select "event_id", "account_id" from "event_outbox" order by "created_at", "event_id" limit ?${
        // Instances take different rows.
        pg ? ' for update skip locked' : ''
      }`,
    ),
    events: events(''),
    eventsWithPayload: events(', "payload"'),
    webhooks: numbered(
      pg,
      `select "id", "account_id", "event_types", "is_active", "health", "url", "secret" from "webhooks" where ${inListText(pg, 'account_id')} and "is_active" = ?`,
    ),
    insert: numbered(
      pg,
      `insert into webhook_deliveries (${cols}) select ${cols} from ${jsonRowsText(pg, 'j', DELIVERY_COLUMNS)} where true on conflict (webhook_id, event_id) do nothing returning id`,
    ),
  };
});

interface EventRow {
  id: string;
  account_id: string;
  event_type: string;
  payload?: string;
}

interface WebhookRow {
  id: string;
  account_id: string;
  event_types: string;
  is_active: number | bigint;
  health: string;
  url: string;
  secret: string;
}

/**
 * Turns stored events into deliveries, in one transaction (migration 0003's outbox contract): claims up to
 * `limit` outbox rows (`FOR UPDATE SKIP LOCKED` on Postgres, so instances take different rows), creates one
 * delivery per switched-on webhook of the event's account that subscribes to its type with its job (parked
 * when the endpoint needs attention), and deletes the outbox rows. With `hold`, up to `hold.max` of the new
 * deliveries' jobs are created leased to `hold.owner`, and returned with their endpoint and payload, so the
 * engine attempts them at once. A crash before the commit leaves the outbox rows for the next pass; the
 * unique (webhook, event) pair makes a repeated pass create nothing twice. Each statement binds its rows as
 * one list, so its text is the same whatever the burst.
 */
export async function fanOutEvents(
  database: Db,
  now: number,
  limit: number,
  hold?: HoldRequest,
): Promise<FanOutResult> {
  const pg = database.dialect === 'postgres';
  const texts = fanOutTexts(pg);
  return database.db.transaction().execute(async (trx) => {
    const outbox = (
      await trx.executeQuery<{ event_id: string; account_id: string }>(
        CompiledQuery.raw(texts.outbox, [limit]),
      )
    ).rows;
    if (outbox.length === 0) return { events: 0, deliveries: 0, held: [] };
    const eventIds = outbox.map((r) => r.event_id);
    const accountIds = [...new Set(outbox.map((r) => r.account_id))];
    const holding = hold !== undefined && hold.max > 0;
    const events = (
      await trx.executeQuery<EventRow>(
        CompiledQuery.raw(holding ? texts.eventsWithPayload : texts.events, [inListValue(pg, eventIds)]),
      )
    ).rows;
    const webhooks = (
      await trx.executeQuery<WebhookRow>(CompiledQuery.raw(texts.webhooks, [inListValue(pg, accountIds), 1]))
    ).rows;
    const byAccount = new Map<
      string,
      { id: string; types: Set<string>; deliverable: boolean; url: string; secret: string }[]
    >();
    for (const w of webhooks) {
      const list = byAccount.get(w.account_id) ?? [];
      list.push({
        id: w.id,
        types: new Set(parseTypes(w.event_types)),
        deliverable: isDeliverable(w),
        url: w.url,
        secret: w.secret,
      });
      byAccount.set(w.account_id, list);
    }
    // Each row's cells in the order of DELIVERY_COLUMNS.
    const rows: ListCell[][] = [];
    const candidates = new Map<string, HeldDelivery>();
    for (const e of events) {
      for (const w of byAccount.get(e.account_id) ?? []) {
        if (!w.types.has(e.event_type)) continue;
        const id = timeHexId('dlv', now);
        rows.push([
          id,
          w.id,
          e.account_id,
          e.id,
          e.event_type,
          DELIVERY_STATUS.pending,
          0,
          now,
          // An endpoint that needs attention gets its deliveries parked until it is resumed.
          w.deliverable ? now : null,
        ]);
        const payload = e.payload;
        if (holding && w.deliverable && payload !== undefined && candidates.size < hold.max)
          candidates.set(id, {
            jobId: deliveryJobId(id),
            delivery: {
              id,
              webhookId: w.id,
              accountId: e.account_id,
              eventId: e.id,
              eventType: e.event_type,
              attempts: 0,
            },
            url: w.url,
            secret: w.secret,
            payload,
          });
      }
    }
    if (rows.length === 0) {
      await removeFromOutbox(trx, eventIds);
      return { events: outbox.length, deliveries: 0, held: [] };
    }
    const created = await trx.executeQuery<{ id: string }>(
      CompiledQuery.raw(texts.insert, [jsonRowsValue(pg, DELIVERY_COLUMNS, rows)]),
    );
    const createdIds = created.rows.map((r) => r.id);
    const toHold = holding ? createdIds.filter((id) => candidates.has(id)) : [];
    const heldJobs = await enqueueDeliveryJobs(
      trx,
      toHold,
      now,
      hold && { owner: hold.owner, until: hold.leaseUntil },
    );
    // Each delivery has one job (`on conflict do nothing`): all of them created, as usual, needs no lookup.
    const heldJobIds = heldJobs.length === toHold.length ? undefined : new Set(heldJobs);
    // The rest wait, queued, for a claim (this engine's when it has room, or another instance's).
    await enqueueDeliveryJobs(
      trx,
      toHold.length === 0 ? createdIds : createdIds.filter((id) => !candidates.has(id)),
      now,
    );
    await removeFromOutbox(trx, eventIds);
    const held: HeldDelivery[] = [];
    for (const id of toHold) {
      const candidate = candidates.get(id);
      if (candidate && (heldJobIds === undefined || heldJobIds.has(candidate.jobId))) held.push(candidate);
    }
    return { events: outbox.length, deliveries: createdIds.length, held };
  });
}

/** The job id of a delivery. */
function deliveryJobId(deliveryId: string): string {
  return jobId(DELIVERY_JOB_KIND, deliveryId);
}

/** A webhook's `event_types` column; a damaged value subscribes to nothing rather than failing the batch. */
export function parseTypes(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}
