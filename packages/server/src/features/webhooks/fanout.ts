import type { Insertable } from 'kysely';
import type { Db } from '../../core/db/database.js';
import { removeFromOutbox } from '../../core/events/store.js';
import { randomId } from '../../core/ids/index.js';
import { DELIVERY_STATUS, enqueueDeliveryJobs } from './deliveries-repository.js';
import type { WebhookDeliveriesTable } from './tables.js';
import { isDeliverable } from './webhooks-repository.js';

/** What one fan-out pass did. */
export interface FanOutResult {
  /** Outbox rows consumed (each a stored event). */
  readonly events: number;
  /** Deliveries created. */
  readonly deliveries: number;
}

const INSERT_CHUNK = 500;

/**
 * Turns stored events into deliveries, in one transaction (migration 0003's outbox contract): claims up to
 * `limit` outbox rows (`FOR UPDATE SKIP LOCKED` on Postgres, so instances take different rows), creates one
 * delivery per switched-on webhook of the event's account that subscribes to its type with its job (parked
 * when the endpoint needs attention), and deletes the outbox rows. A crash before the commit leaves the outbox rows for the next pass; the unique
 * (webhook, event) pair makes a repeated pass create nothing twice.
 */
export async function fanOutEvents(database: Db, now: number, limit: number): Promise<FanOutResult> {
  return database.db.transaction().execute(async (trx) => {
    const outbox = await trx
      .selectFrom('event_outbox')
      .select(['event_id', 'account_id'])
      .orderBy('created_at')
      .orderBy('event_id')
      .limit(limit)
      .$if(database.dialect === 'postgres', (qb) => qb.forUpdate().skipLocked())
      .execute();
    if (outbox.length === 0) return { events: 0, deliveries: 0 };
    const eventIds = outbox.map((r) => r.event_id);
    const accountIds = [...new Set(outbox.map((r) => r.account_id))];
    const events = await trx
      .selectFrom('events')
      .select(['id', 'account_id', 'event_type'])
      .where('id', 'in', eventIds)
      .execute();
    const webhooks = await trx
      .selectFrom('webhooks')
      .select(['id', 'account_id', 'event_types', 'is_active', 'health'])
      .where('account_id', 'in', accountIds)
      .where('is_active', '=', 1)
      .execute();
    const byAccount = new Map<string, { id: string; types: Set<string>; deliverable: boolean }[]>();
    for (const w of webhooks) {
      const list = byAccount.get(w.account_id) ?? [];
      list.push({ id: w.id, types: new Set(parseTypes(w.event_types)), deliverable: isDeliverable(w) });
      byAccount.set(w.account_id, list);
    }
    const rows: Insertable<WebhookDeliveriesTable>[] = [];
    for (const e of events) {
      for (const w of byAccount.get(e.account_id) ?? []) {
        if (!w.types.has(e.event_type)) continue;
        rows.push({
          id: randomId('dlv'),
          webhook_id: w.id,
          account_id: e.account_id,
          event_id: e.id,
          event_type: e.event_type,
          status: DELIVERY_STATUS.pending,
          attempts: 0,
          last_status_code: null,
          last_error: null,
          created_at: now,
          delivered_at: null,
          // An endpoint that needs attention gets its deliveries parked until it is resumed.
          next_attempt_at: w.deliverable ? now : null,
          lease_owner: null,
          lease_until: null,
        });
      }
    }
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const created = await trx
        .insertInto('webhook_deliveries')
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
        .returning('id')
        .execute();
      await enqueueDeliveryJobs(
        trx,
        created.map((r) => r.id),
        now,
      );
    }
    await removeFromOutbox(trx, eventIds);
    return { events: outbox.length, deliveries: rows.length };
  });
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
