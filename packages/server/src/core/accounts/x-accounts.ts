import type { schemas } from '@xsvc/sdk/contract';
import type { Kysely, Selectable } from 'kysely';
import { num } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { uuid } from '../ids/index.js';
import type { XAccountsTable } from './tables.js';

/** A connection row. */
export type XAccountRow = Selectable<XAccountsTable>;

const iso = (ms: unknown) => new Date(num(ms as number)).toISOString();

/** A connection in the API's shape. */
export type ApiXAccount = Omit<schemas.XAccount, 'health'> & { health: schemas.XAccountHealth };

/** A connection in the API's shape (spec 2.13); the session is never part of it. */
export function toXAccount(row: XAccountRow): ApiXAccount {
  return {
    id: row.id,
    xUserId: row.x_user_id,
    xUsername: row.x_username,
    status: row.status,
    health: row.health as schemas.XAccountHealth,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at ?? row.created_at),
    ...(row.cookies_obtained_at != null && { cookiesObtainedAt: iso(row.cookies_obtained_at) }),
  };
}

/**
 * A connection as a connect, challenge submission or re-authentication answers it (reference
 * `SanitizedXAccount`): the account that is now active, without its timestamps of change or session.
 */
export function toSanitizedXAccount(row: XAccountRow): schemas.SanitizedXAccount {
  return {
    id: row.id,
    xUserId: row.x_user_id,
    xUsername: row.x_username,
    status: 'active',
    health: row.health as schemas.XAccountHealth,
    createdAt: iso(row.created_at),
  };
}

/** The connections of a service account, oldest first. */
export function listConnections(db: Kysely<Database>, accountId: string): Promise<XAccountRow[]> {
  return db
    .selectFrom('x_accounts')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * The connection `ref` names among the caller's: its id, its platform user id or its @username
 * (case-insensitive); 404 `account_not_found` when none matches.
 */
export async function findConnection(
  db: Kysely<Database>,
  accountId: string,
  ref: string,
): Promise<XAccountRow> {
  const name = ref.replace(/^@/, '').toLowerCase();
  const row = (await listConnections(db, accountId)).find(
    (r) => r.id === ref || r.x_user_id === ref || r.x_username.toLowerCase() === name,
  );
  if (!row) throw new HttpError('account_not_found', `no connected account ${ref}`);
  return row;
}

/** What a completed login leaves on a connection. */
export interface SessionUpdate {
  userId: string;
  username: string;
  sessionEnc: string;
  now: number;
}

/** Adds a connection for a completed login; 409 `account_already_connected` when it exists already. */
export async function insertConnection(
  db: Kysely<Database>,
  accountId: string,
  s: SessionUpdate,
): Promise<XAccountRow> {
  const existing = await db
    .selectFrom('x_accounts')
    .select('id')
    .where('account_id', '=', accountId)
    .where('x_user_id', '=', s.userId)
    .executeTakeFirst();
  if (existing) throw alreadyConnected(s.username);
  const row = {
    id: uuid(),
    account_id: accountId,
    x_user_id: s.userId,
    x_username: s.username,
    status: 'active',
    health: 'healthy',
    created_at: s.now,
    session_enc: s.sessionEnc,
    cookies_obtained_at: s.now,
    updated_at: s.now,
  };
  const r = await db
    .insertInto('x_accounts')
    .values(row)
    .onConflict((oc) => oc.columns(['account_id', 'x_user_id']).doNothing())
    .executeTakeFirst();
  // A concurrent login of the same account connected it first.
  if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) throw alreadyConnected(s.username);
  return findConnection(db, accountId, row.id);
}

/** Puts a re-authenticated session on a connection: healthy and active again. */
export async function renewConnection(
  db: Kysely<Database>,
  row: XAccountRow,
  s: SessionUpdate,
): Promise<XAccountRow> {
  await db
    .updateTable('x_accounts')
    .set({
      x_username: s.username,
      session_enc: s.sessionEnc,
      cookies_obtained_at: s.now,
      updated_at: s.now,
      status: 'active',
      health: 'healthy',
    })
    .where('id', '=', row.id)
    .execute();
  return findConnection(db, row.account_id, row.id);
}

/** Sets the health of a connection (a write found its session dead, a login found it suspended). */
export async function setHealth(
  db: Kysely<Database>,
  id: string,
  health: string,
  now: number,
): Promise<void> {
  await db.updateTable('x_accounts').set({ health, updated_at: now }).where('id', '=', id).execute();
}

/** 409 `account_already_connected`. */
export function alreadyConnected(username: string): HttpError {
  return new HttpError(
    'account_already_connected',
    `@${username} is already connected; re-authenticate it with POST /api/v1/x/accounts/{id}/reauth`,
  );
}

/** Deletes a connection (the owner disconnected it). */
export async function deleteConnection(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('x_accounts').where('id', '=', id).execute();
}

/** Marks the account's connections with a temporary issue healthy again; how many changed. */
export async function clearTemporaryIssues(
  db: Kysely<Database>,
  accountId: string,
  now: number,
): Promise<number> {
  const r = await db
    .updateTable('x_accounts')
    .set({ health: 'healthy', updated_at: now })
    .where('account_id', '=', accountId)
    .where('health', '=', 'temporaryIssue')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
