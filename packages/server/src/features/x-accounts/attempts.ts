import type { schemas } from '@xsvc/sdk/contract';
import type { Kysely, Selectable } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { randomId } from '../../core/ids/index.js';
import { AUTHORIZING, type ChallengeRow, challengeView } from './challenges.js';
import type { XConnectionAttemptsTable } from './tables.js';

/** An attempt row. */
export type AttemptRow = Selectable<XConnectionAttemptsTable>;

/** How long to wait before polling a pending attempt again. */
export const ATTEMPT_POLL_MS = 1_000;
/** A login still pending after this long was interrupted (a restart): it reads as failed. */
const PENDING_LIMIT_MS = 2 * 60_000;

/** Where an attempt is read. */
export const attemptPath = (id: string) => `/api/v1/x/account-connection-attempts/${id}`;

/** Starts an attempt (`xatt_` and 32 hex digits) in the `pending` state. */
export async function startAttempt(
  db: Kysely<Database>,
  accountId: string,
  purpose: 'connect' | 'reauth',
  username: string,
  now: number,
): Promise<string> {
  const id = randomId('xatt');
  await db
    .insertInto('x_connection_attempts')
    .values({
      id,
      account_id: accountId,
      purpose,
      username,
      status: 'pending',
      challenge_id: null,
      x_account_id: null,
      error: null,
      reason: null,
      retryable: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** How an attempt ended (or that it waits for a code). */
export type AttemptEnd =
  | { status: 'connected'; xAccountId: string }
  | { status: 'challenge'; challengeId: string }
  | { status: 'failed'; error: string; reason?: string; retryable: boolean };

/** Records where an attempt stands. */
export async function settleAttempt(
  db: Kysely<Database>,
  id: string,
  end: AttemptEnd,
  now: number,
): Promise<void> {
  await db
    .updateTable('x_connection_attempts')
    .set({
      status: end.status,
      challenge_id: end.status === 'challenge' ? end.challengeId : undefined,
      x_account_id: end.status === 'connected' ? end.xAccountId : null,
      error: end.status === 'failed' ? end.error : null,
      reason: end.status === 'failed' ? (end.reason ?? null) : null,
      retryable: end.status === 'failed' && end.retryable ? 1 : 0,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** New connections an account started since `since` (the connect safety limit counts them). */
export async function connectsSince(db: Kysely<Database>, accountId: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('x_connection_attempts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('purpose', '=', 'connect')
    .where('created_at', '>', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * An attempt in the API's shape (`getXAccountConnectionAttempt`). One waiting for a browser authorization
 * (the xapi platform) is `pending` with the `authorizationUrl` to open, until that authorization expires.
 */
export function attemptView(
  row: AttemptRow,
  challenge: ChallengeRow | undefined,
  now: number,
  authorizationUrl?: string,
): schemas.ConnectionAttempt {
  const base = { object: 'x_account_connection_attempt' as const, id: row.id };
  const failed = (error: string, reason: string | undefined, retryable: boolean) => ({
    ...base,
    status: 'failed' as const,
    error,
    ...(reason && { reason }),
    retryable,
  });
  switch (row.status) {
    case 'connected':
      return { ...base, status: 'connected' };
    case 'failed':
      return failed(row.error ?? 'login_failed', row.reason ?? undefined, num(row.retryable) === 1);
    case 'challenge':
      if (challenge && challenge.status === AUTHORIZING && now <= num(challenge.expires_at))
        return authorizationView(row.id, challenge, authorizationUrl);
      if (challenge?.status === AUTHORIZING)
        return failed('connection_challenge_expired', 'the X authorization was not approved in time', true);
      if (challenge && challenge.status === 'requires_email_code' && now <= num(challenge.expires_at))
        return challengeView(challenge);
      return failed('connection_challenge_expired', 'the e-mailed code was not submitted in time', true);
    default:
      if (now - num(row.created_at) > PENDING_LIMIT_MS)
        return failed('x_login_service_unavailable', 'the login was interrupted', true);
      return { ...base, status: 'pending', pollAfterMs: ATTEMPT_POLL_MS };
  }
}

/** A pending attempt waiting for the account's owner to approve on X (`authorizationUrl`). */
export function authorizationView(
  attemptId: string,
  challenge: Pick<ChallengeRow, 'expires_at'>,
  authorizationUrl: string | undefined,
): schemas.ConnectionAttemptPending {
  return {
    object: 'x_account_connection_attempt',
    id: attemptId,
    status: 'pending',
    pollAfterMs: AUTHORIZATION_POLL_MS,
    ...(authorizationUrl && { authorizationUrl }),
    authorizationExpiresAt: new Date(num(challenge.expires_at)).toISOString(),
  };
}

/** How often a client polls an attempt waiting for a person to approve in a browser. */
export const AUTHORIZATION_POLL_MS = 3_000;
