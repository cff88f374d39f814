import type { Selectable } from 'kysely';
import { accountAsUser, connectionsOf, waitsForReauth } from '../../core/accounts/as-user.js';
import { SessionNeedsReauthError, usableSession } from '../../core/accounts/session.js';
import type { XAccountsTable } from '../../core/accounts/tables.js';
import { HttpError } from '../../core/http/errors.js';
import type { HandlerContext } from '../../core/http/handler.js';
import type { AsUser } from '../../core/platform/platform.js';

/**
 * A platform account the caller connected (spec 2.13), with its session ready to use (renewed first when
 * it was about to expire); undefined when the connection has none.
 */
export type ConnectedAccount = Selectable<XAccountsTable> & { session?: string | undefined };

const CONNECT_HINT = 'connect one with POST /api/v1/x/accounts first';

/**
 * The connected account a private read acts as (spec 1.5: bookmarks, timelines, notifications and direct
 * messages need one): the one `account` names (@username, platform user id or connection id), or the only
 * one connected. None connected is 400 `account_required`; an unknown `account` is 404
 * `account_not_found`; several without `account` is 400 `account_required` asking to name one; an account
 * whose session needs renewing is 403 `account_needs_reauth`.
 */
export async function connectedAccount(
  ctx: HandlerContext,
  account: string | undefined,
): Promise<ConnectedAccount> {
  const rows = await connectionsOf(ctx.services, ctx.requirePrincipal().accountId);
  if (!rows.length)
    throw new HttpError('account_required', `this read needs a connected platform account; ${CONNECT_HINT}`);
  let chosen: ConnectedAccount | undefined;
  if (account !== undefined) {
    const ref = account.replace(/^@/, '').toLowerCase();
    chosen = rows.find((r) => r.x_username.toLowerCase() === ref || r.x_user_id === ref || r.id === account);
    if (!chosen) throw new HttpError('account_not_found', `no connected account ${account}`);
  } else if (rows.length > 1) {
    const names = rows.map((r) => `@${r.x_username}`).join(', ');
    throw new HttpError(
      'account_required',
      `several accounts are connected (${names}); name one with \`account\``,
    );
  } else chosen = rows[0];
  if (!chosen)
    throw new HttpError('account_required', `this read needs a connected platform account; ${CONNECT_HINT}`);
  const reauth = new HttpError(
    'account_needs_reauth',
    `@${chosen.x_username} must be re-authenticated before it can be read`,
  );
  if (waitsForReauth(chosen)) throw reauth;
  if (!chosen.session_enc) return chosen;
  try {
    return { ...chosen, session: await usableSession(ctx.services, chosen) };
  } catch (err) {
    if (err instanceof SessionNeedsReauthError) throw reauth;
    throw err;
  }
}

/**
 * The platform user the caller reads as, for "followers you know": its connected account, else the identity
 * it linked to its service account (`the account's x-identity`); 400 `account_required` without either.
 */
export async function viewerUserRef(ctx: HandlerContext): Promise<string> {
  const { accountId } = ctx.requirePrincipal();
  const db = ctx.services.database.db;
  const connected = await db
    .selectFrom('x_accounts')
    .select('x_user_id')
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .executeTakeFirst();
  if (connected) return connected.x_user_id;
  const linked = await db
    .selectFrom('accounts')
    .select('x_username')
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (linked?.x_username) return linked.x_username;
  throw new HttpError(
    'account_required',
    `"followers you know" needs your platform identity; ${CONNECT_HINT}`,
  );
}

/**
 * {@link accountAsUser} for the caller: its connected account a read needing a user token (likes, user
 * search) is made as, looked up lazily.
 */
export function callerAsUser(ctx: HandlerContext): AsUser {
  return (fits) => accountAsUser(ctx.services, ctx.requirePrincipal().accountId)(fits);
}
