import type { Db } from '../../core/db/database.js';
import { num } from '../../core/db/database.js';
import { HEALTH } from './webhooks-repository.js';

/** A delivery this engine holds the lease of, to attempt now. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly webhookId: string;
  readonly accountId: string;
  readonly eventId: string;
  readonly eventType: string;
  /** Attempts made before this one. */
  readonly attempts: number;
}

/**
 * Leases up to `limit` deliveries that are due at `now` and whose endpoint is deliverable, oldest due
 * first. On Postgres the candidates are locked `FOR UPDATE SKIP LOCKED`, so concurrent instances take
 * disjoint sets; the lease (`lease_until`) then keeps them off every other instance's scan until this one
 * records the attempt, or until it expires because this instance died.
 */
export async function claimDueDeliveries(
  database: Db,
  owner: string,
  now: number,
  leaseMs: number,
  limit: number,
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  return database.db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select('d.id')
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<=', now)]))
      .where('w.is_active', '=', 1)
      .where('w.health', '=', HEALTH.active)
      .orderBy('d.next_attempt_at')
      .limit(limit)
      .$if(database.dialect === 'postgres', (qb) => qb.forUpdate('d').skipLocked())
      .execute();
    if (due.length === 0) return [];
    const rows = await trx
      .updateTable('webhook_deliveries')
      .set({ lease_owner: owner, lease_until: now + leaseMs })
      .where(
        'id',
        'in',
        due.map((r) => r.id),
      )
      .returning(['id', 'webhook_id', 'account_id', 'event_id', 'event_type', 'attempts'])
      .execute();
    return rows.map((r) => ({
      id: r.id,
      webhookId: r.webhook_id,
      accountId: r.account_id,
      eventId: r.event_id,
      eventType: r.event_type,
      attempts: num(r.attempts),
    }));
  });
}

/**
 * Gives back leases without recording an attempt (the engine is stopping; the attempt never started or was
 * cut off): the deliveries are due again at once, for any instance. Without `ids`, every lease of `owner`.
 */
export async function releaseLeases(database: Db, owner: string, ids?: readonly string[]): Promise<void> {
  if (ids?.length === 0) return;
  await database.db
    .updateTable('webhook_deliveries')
    .set({ lease_owner: null, lease_until: null })
    .where('lease_owner', '=', owner)
    .$if(ids !== undefined, (qb) => qb.where('id', 'in', ids ?? []))
    .execute();
}

/**
 * Releases every lease in the database. Only for SQLite, where one process is the only engine: leases
 * found at start belong to a process that died (`kill -9`), and waiting for them to expire would only
 * delay its deliveries.
 */
export async function releaseAllLeases(database: Db): Promise<number> {
  const r = await database.db
    .updateTable('webhook_deliveries')
    .set({ lease_owner: null, lease_until: null })
    .where('lease_owner', 'is not', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
