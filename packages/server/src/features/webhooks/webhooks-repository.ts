import type { Kysely, Selectable, Updateable } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { parkDeliveries, unparkDeliveries } from './deliveries-repository.js';
import type { WebhooksTable } from './tables.js';

/** A webhook row. */
export type WebhookRow = Selectable<WebhooksTable>;

/**
 * Health values stored in `webhooks.health` (spec 3.4), plus `deleted`: a webhook its owner deleted, kept
 * (switched off, its open deliveries parked) but no longer listed or found.
 */
export const HEALTH = { active: 'active', needsAttention: 'needs_attention', deleted: 'deleted' } as const;

/** True when the engine may send to the webhook now: switched on and not waiting for attention. */
export function isDeliverable(row: Pick<WebhookRow, 'is_active' | 'health'>): boolean {
  return num(row.is_active) === 1 && row.health === HEALTH.active;
}

/** The webhooks of an account, switched-on ones first, newest first, at most `limit`. */
export function listWebhookRows(
  db: Kysely<Database>,
  accountId: string,
  limit: number,
): Promise<WebhookRow[]> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('health', '!=', HEALTH.deleted)
    .orderBy('is_active', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** One webhook of an account; undefined when it does not exist, was deleted or belongs to another account. */
export function findWebhookRow(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('health', '!=', HEALTH.deleted)
    .executeTakeFirst();
}

/** How many switched-on webhooks an account has. */
export async function countActiveWebhooks(db: Kysely<Database>, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('account_id', '=', accountId)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  return num(row?.n as number | bigint | undefined);
}

/** Stores a new webhook. */
export async function insertWebhookRow(db: Kysely<Database>, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

/** The changes an owner can make (updateWebhook, deleteWebhook). */
export interface WebhookChanges {
  readonly url?: string;
  readonly eventTypes?: readonly string[];
  readonly isActive?: boolean;
  /** Deleted: switched off for good, and no longer listed or found. */
  readonly deleted?: true;
}

/**
 * Applies an owner's changes. Switching a webhook off parks its open deliveries (nothing is sent while
 * off); switching it on again schedules them, unless the endpoint still needs attention.
 */
export async function updateWebhookRow(
  db: Kysely<Database>,
  current: WebhookRow,
  changes: WebhookChanges,
  now: number,
): Promise<WebhookRow> {
  return db.transaction().execute(async (trx) => {
    const set: Updateable<WebhooksTable> = { updated_at: now };
    if (changes.url !== undefined) set.url = changes.url;
    if (changes.eventTypes !== undefined) set.event_types = JSON.stringify(changes.eventTypes);
    if (changes.isActive !== undefined) set.is_active = changes.isActive ? 1 : 0;
    if (changes.deleted) {
      set.is_active = 0;
      set.health = HEALTH.deleted;
    }
    const row = await trx
      .updateTable('webhooks')
      .set(set)
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const wasDeliverable = isDeliverable(current);
    if (wasDeliverable && !isDeliverable(row)) await parkDeliveries(trx, row.id, now);
    if (!wasDeliverable && isDeliverable(row)) await unparkDeliveries(trx, row.id, now);
    return row;
  });
}

/**
 * Sets an endpoint back to delivering after a succeeding signed test (spec 3.4): health `active`, the
 * failure count reset, its waiting deliveries scheduled now.
 */
export async function resumeWebhookRow(db: Kysely<Database>, id: string, now: number): Promise<WebhookRow> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('webhooks')
      .set({ health: HEALTH.active, consecutive_failures: 0, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (isDeliverable(row)) await unparkDeliveries(trx, row.id, now);
    return row;
  });
}
