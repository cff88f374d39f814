import { restedHealth } from '../../core/accounts/health.js';
import { SessionNeedsReauthError, usableSession } from '../../core/accounts/session.js';
import { listConnections, type XAccountRow } from '../../core/accounts/x-accounts.js';
import { HttpError } from '../../core/http/errors.js';
import type { HandlerContext } from '../../core/http/handler.js';
import type { WriteActor } from '../../core/platform/account-writes.js';

const CONNECT_HINT = 'connect one with POST /api/v1/x/accounts first';

/** The connection a write acts as, and the platform actor (user id and session) it stands for. */
export interface ActingAccount {
  row: XAccountRow;
  actor: WriteActor;
}

/**
 * The connected account `ref` names (its id, platform user id or @username) for a write (spec 1.5: every
 * write needs one). None connected is 400 `account_required`; an unknown `ref` 404 `account_not_found`; an
 * account whose session must be renewed (or that has none) 403 `account_needs_reauth`; a locked or
 * suspended account 403 `account_restricted`; an account with a temporary platform issue 503
 * `x_transient_error` (nothing sent, nothing charged, safe to retry) until its rest is over, when it is
 * `recovering` and the write is sent again (see `core/accounts/health.ts`).
 */
export async function actingAccount(ctx: HandlerContext, ref: string): Promise<ActingAccount> {
  const { accountId } = ctx.requirePrincipal();
  const rows = await listConnections(ctx.services.database.db, accountId);
  if (!rows.length)
    throw new HttpError('account_required', `writes act as a connected platform account; ${CONNECT_HINT}`);
  const name = ref.replace(/^@/, '').toLowerCase();
  const row = rows.find((r) => r.id === ref || r.x_user_id === ref || r.x_username.toLowerCase() === name);
  if (!row) throw new HttpError('account_not_found', `no connected account ${ref}`);
  const rested = await restedHealth(ctx.services.database.db, row, ctx.services.clock.now());
  if (rested.waitMs !== undefined)
    throw new HttpError(
      'x_transient_error',
      `the platform reports a temporary issue with @${row.x_username}; nothing was sent: retry with backoff`,
      { safeToRetry: true },
      undefined,
      { 'retry-after': String(Math.ceil(rested.waitMs / 1000)) },
    );
  row.health = rested.health;
  if (row.health === 'locked' || row.health === 'suspended')
    throw new HttpError('account_restricted', `@${row.x_username} is ${row.health} and cannot write now`);
  const reauth = new HttpError(
    'account_needs_reauth',
    `@${row.x_username} must be re-authenticated (POST /api/v1/x/accounts/${row.id}/reauth) before it can write`,
  );
  if (row.health === 'needsReauth' || row.status === 'needs_reauth' || !row.session_enc) throw reauth;
  let session: string;
  try {
    // Opened, and renewed first when the platform says it is about to expire (X's access tokens).
    session = await usableSession(ctx.services, row);
  } catch (err) {
    // Sealed with another secret (XSVC_SECRET_KEY changed), or a renewal the platform refused: only a new
    // login helps (the connection is `needsReauth` now).
    if (err instanceof SessionNeedsReauthError) throw reauth;
    throw err;
  }
  return { row, actor: { userId: row.x_user_id, session } };
}
