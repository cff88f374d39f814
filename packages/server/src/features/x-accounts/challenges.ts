import type { schemas } from '@xsvc/sdk/contract';
import type { Kysely, Selectable } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { HttpError } from '../../core/http/errors.js';
import { randomId } from '../../core/ids/index.js';
import type { XConnectionChallengesTable } from './tables.js';

/** A challenge row. */
export type ChallengeRow = Selectable<XConnectionChallengesTable>;

/** The one state a challenge accepts codes in; the others (`completed`, `failed`, `expired`, `replaced`) are final. */
export const OPEN = 'requires_email_code';

/**
 * The state of a browser authorization (the xapi platform: X's OAuth 2.0 consent) waiting for X's callback.
 * Its id is the OAuth `state`; the submit operation never accepts it (it is not `OPEN`), only the callback.
 */
export const AUTHORIZING = 'requires_authorization';

/** A challenge in the API's shape (the 202 body of spec 2.13). */
export function challengeView(row: ChallengeRow): schemas.ConnectionChallenge {
  return {
    object: 'x_account_connection_challenge',
    id: row.id,
    status: 'requires_email_code',
    expiresAt: new Date(num(row.expires_at)).toISOString(),
    message: `The platform e-mailed a code to the address of @${row.username}. Submit it with POST /api/v1/x/account-connection-challenges/${row.id}/submit before ${new Date(num(row.expires_at)).toISOString()}.`,
    username: row.username,
  };
}

/** What a new challenge holds. */
export interface NewChallenge {
  accountId: string;
  attemptId: string;
  username: string;
  /** The connection being re-authenticated, if any. */
  xAccountId: string | null;
  flowEnc: string;
  expiresAt: number;
  now: number;
  /** A browser authorization ({@link AUTHORIZING}) under the id given to the platform as its state. */
  authorization?: { id: string } | undefined;
}

/** A new challenge id: `xch_` and 144 random bits (also the unguessable state of an X authorization). */
export function newChallengeId(): string {
  return randomId('xch', { bytes: 18, encoding: 'base64url' });
}

/**
 * Opens a challenge (`xch_` id). An open challenge of the same account and username is `replaced` (spec
 * 3.5): only the newest login can complete.
 */
export async function openChallenge(db: Kysely<Database>, c: NewChallenge): Promise<ChallengeRow> {
  const id = c.authorization?.id ?? newChallengeId();
  const status = c.authorization ? AUTHORIZING : OPEN;
  const usernameLower = c.username.toLowerCase();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('x_connection_challenges')
      .set({ status: 'replaced', updated_at: c.now })
      .where('account_id', '=', c.accountId)
      .where('username_lower', '=', usernameLower)
      .where('status', 'in', [OPEN, AUTHORIZING])
      .execute();
    await trx
      .insertInto('x_connection_challenges')
      .values({
        id,
        account_id: c.accountId,
        attempt_id: c.attemptId,
        username: c.username,
        username_lower: usernameLower,
        x_account_id: c.xAccountId,
        flow_enc: c.flowEnc,
        status,
        expires_at: c.expiresAt,
        created_at: c.now,
        updated_at: c.now,
      })
      .execute();
  });
  return getChallenge(db, c.accountId, id);
}

/** A challenge of the caller; 404 `connection_challenge_not_found` otherwise. */
export async function getChallenge(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<ChallengeRow> {
  const row = await db
    .selectFrom('x_connection_challenges')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw new HttpError('connection_challenge_not_found', `no connection challenge ${id}`);
  return row;
}

/**
 * Moves an open challenge (`from`: {@link OPEN}, or {@link AUTHORIZING}) to `status` (and, when it stays
 * open, to a new platform state and expiry). Only an open challenge moves: answers false when another
 * request moved it first.
 */
export async function moveChallenge(
  db: Kysely<Database>,
  id: string,
  status: string,
  now: number,
  reopen?: { flowEnc: string; expiresAt: number },
  from: string = OPEN,
): Promise<boolean> {
  const r = await db
    .updateTable('x_connection_challenges')
    .set({
      status,
      updated_at: now,
      ...(reopen && { flow_enc: reopen.flowEnc, expires_at: reopen.expiresAt }),
    })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Ends the open challenges of a connection (it was disconnected). */
export async function replaceChallengesOf(
  db: Kysely<Database>,
  xAccountId: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('x_connection_challenges')
    .set({ status: 'replaced', updated_at: now })
    .where('x_account_id', '=', xAccountId)
    .where('status', 'in', [OPEN, AUTHORIZING])
    .execute();
}

/** A browser authorization waiting for its callback, by its id (the OAuth state); any account's. */
export async function authorizationByState(
  db: Kysely<Database>,
  state: string,
): Promise<ChallengeRow | undefined> {
  return db
    .selectFrom('x_connection_challenges')
    .selectAll()
    .where('id', '=', state)
    .where('status', '=', AUTHORIZING)
    .executeTakeFirst();
}
