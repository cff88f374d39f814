import type { Kysely } from 'kysely';
import { num } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { XAccountRow } from './x-accounts.js';

/**
 * How long a connection with a temporary platform issue rests before it is tried again: writes in this
 * window answer 503 `x_transient_error` without sending anything (and `Retry-After` says the rest of it).
 */
export const TEMPORARY_ISSUE_WAIT_MS = 30_000;

/**
 * What a call to the platform made with a connection taught about it: it worked (`ok`), its session is dead
 * (`auth_failure`), the platform suspended the account (`suspended`) or locked it (`locked`), or the
 * platform could not be reached for it (`unavailable`).
 */
export type HealthSignal = 'ok' | 'auth_failure' | 'suspended' | 'locked' | 'unavailable';

/** The health a connection has after `signal`, from `health` (undefined: unchanged). */
export function nextHealth(health: string, signal: HealthSignal): string | undefined {
  switch (signal) {
    case 'auth_failure':
      return 'needsReauth';
    case 'suspended':
      return 'suspended';
    case 'locked':
      return 'locked';
    case 'unavailable':
      return 'temporaryIssue';
    case 'ok':
      // A call that worked ends a temporary issue (or the retry after one). A dead session, a suspension or a
      // lock end only with a re-authentication, which checks the account with the platform again.
      return health === 'temporaryIssue' || health === 'recovering' ? 'healthy' : undefined;
  }
}

/**
 * Records what a call with the connection `row` taught (spec 2.13: `health` follows what writes and reads
 * learn), and answers the health it now has. Only a change is written, conditioned on the health read, so
 * that two calls settling at once cannot undo a later lesson with an earlier one.
 */
export async function learnHealth(
  db: Kysely<Database>,
  row: Pick<XAccountRow, 'id' | 'health'>,
  signal: HealthSignal,
  now: number,
): Promise<string> {
  const next = nextHealth(row.health, signal);
  if (next === undefined || next === row.health) return row.health;
  await db
    .updateTable('x_accounts')
    .set({ health: next, updated_at: now })
    .where('id', '=', row.id)
    .where('health', '=', row.health)
    .execute();
  return next;
}

/**
 * A connection with a temporary issue whose rest is over becomes `recovering`: the next write or read is
 * sent again, and its outcome decides (`healthy`, or `temporaryIssue` once more). Answers the health and,
 * while the rest lasts, the milliseconds left of it.
 */
export async function restedHealth(
  db: Kysely<Database>,
  row: Pick<XAccountRow, 'id' | 'health' | 'updated_at' | 'created_at'>,
  now: number,
): Promise<{ health: string; waitMs?: number }> {
  if (row.health !== 'temporaryIssue') return { health: row.health };
  const since = num(row.updated_at ?? row.created_at);
  const left = since + TEMPORARY_ISSUE_WAIT_MS - now;
  if (left > 0) return { health: row.health, waitMs: left };
  await db
    .updateTable('x_accounts')
    .set({ health: 'recovering', updated_at: now })
    .where('id', '=', row.id)
    .where('health', '=', 'temporaryIssue')
    .execute();
  return { health: 'recovering' };
}

/** The connection `row` with its health as it stands at `now` (a finished rest reads `recovering`). */
export async function currentHealth<
  R extends Pick<XAccountRow, 'id' | 'health' | 'updated_at' | 'created_at'>,
>(db: Kysely<Database>, row: R, now: number): Promise<R> {
  const { health } = await restedHealth(db, row, now);
  return health === row.health ? row : { ...row, health };
}
