import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { randomId } from '../../core/ids/index.js';
import type { WriteActionsTable } from './tables.js';

/** A write action row. */
export type ActionRow = Selectable<WriteActionsTable>;

/** The states a write action leaves no more (spec 3.6, reference names). */
export const TERMINAL = ['success', 'failed', 'expired'] as const;
/** The active states. */
export const ACTIVE = ['accepted', 'dispatching', 'pending_confirmation'] as const;

/** Whether an action is final. */
export const isTerminal = (row: Pick<ActionRow, 'status'>) =>
  (TERMINAL as readonly string[]).includes(row.status);

/** What a write acts on: an existing tweet, user (by id, or by username until resolved) or community. */
export interface WriteTarget {
  type?: 'tweet' | 'user' | 'community';
  id?: string;
  username?: string;
}

/** What a new action holds. */
export interface NewAction {
  accountId: string;
  idempotencyKey: string;
  requestHash: string;
  /** The sanitized payload (`request.payload`), or null. */
  requestPayload: Record<string, unknown> | null;
  requestId: string;
  method: string;
  path: string;
  action: string;
  xAccountId: string;
  xUserId: string;
  xUsername: string;
  target: WriteTarget;
  credits: number;
  now: number;
}

/**
 * Stores a new `accepted` action (id `wa_` and 32 hex digits). Answers undefined when the account already has
 * an action under the same `Idempotency-Key` (a concurrent request won): the caller reads that one.
 */
export async function insertAction(db: Kysely<Database>, a: NewAction): Promise<ActionRow | undefined> {
  const id = randomId('wa');
  const r = await db
    .insertInto('write_actions')
    .values({
      id,
      account_id: a.accountId,
      idempotency_key: a.idempotencyKey,
      request_hash: a.requestHash,
      request_payload: a.requestPayload === null ? null : JSON.stringify(a.requestPayload),
      request_id: a.requestId,
      method: a.method,
      path: a.path,
      action: a.action,
      status: 'accepted',
      x_account_id: a.xAccountId,
      x_user_id: a.xUserId,
      x_username: a.xUsername,
      target_type: a.target.type ?? null,
      target_id: a.target.id ?? null,
      target_username: a.target.username ?? null,
      result: null,
      error: null,
      message: null,
      retryable: 0,
      safe_to_retry: 0,
      send_dispatched_at: null,
      billing_status: 'pending',
      credits: a.credits,
      charged_at: null,
      billing_reason: null,
      confirmation_attempts: 0,
      confirmation_checked_at: null,
      confirmed_at: null,
      expires_at: null,
      completed_at: null,
      created_at: a.now,
      updated_at: a.now,
    })
    .onConflict((oc) => oc.columns(['account_id', 'idempotency_key']).doNothing())
    .executeTakeFirst();
  if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) return undefined;
  return db.selectFrom('write_actions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** An action of an account by id. */
export function actionById(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<ActionRow | undefined> {
  return db
    .selectFrom('write_actions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Changes an action while it is still active; answers the updated row, or undefined when another request
 * finished it first (so an outcome is applied, and charged, once).
 */
export async function updateActive(
  db: Kysely<Database>,
  id: string,
  set: Updateable<WriteActionsTable>,
): Promise<ActionRow | undefined> {
  const r = await db
    .updateTable('write_actions')
    .set(set)
    .where('id', '=', id)
    .where('status', 'in', [...ACTIVE])
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return undefined;
  return db.selectFrom('write_actions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Changes the billing columns of an action. */
export async function updateBilling(
  db: Kysely<Database>,
  id: string,
  set: Pick<Updateable<WriteActionsTable>, 'billing_status' | 'charged_at' | 'billing_reason' | 'updated_at'>,
): Promise<ActionRow> {
  await db.updateTable('write_actions').set(set).where('id', '=', id).execute();
  return db.selectFrom('write_actions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Successful actions of a connection since `since`, for the platform's action limits. */
export async function successesSince(
  db: Kysely<Database>,
  xAccountId: string,
  actions: readonly string[],
  since: number,
): Promise<{ count: number; oldest: number | undefined }> {
  const row = await db
    .selectFrom('write_actions')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('x_account_id', '=', xAccountId)
    .where('action', 'in', [...actions])
    .where('status', '=', 'success')
    .where('created_at', '>', since)
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), oldest: row?.oldest == null ? undefined : Number(row.oldest) };
}
