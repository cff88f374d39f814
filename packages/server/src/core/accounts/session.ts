import { secretBox } from '../crypto/secret-box.js';
import type { Services } from '../services.js';
import { learnHealth } from './health.js';
import type { XAccountRow } from './x-accounts.js';

/** Why a connection's session cannot be used: it must be re-authenticated. */
export class SessionNeedsReauthError extends Error {
  override readonly name = 'SessionNeedsReauthError';
}

/**
 * The session of the connection `row`, ready to use: opened from its seal and, when the platform says it
 * is about to expire (an X access token), renewed first and the renewal sealed back on the row. A renewal
 * the platform refuses makes the connection `needsReauth` (its health follows X) and throws
 * {@link SessionNeedsReauthError}, as does a session that cannot be opened (the secret key changed).
 *
 * Two requests renewing at once: the renewal is stored only over the session it replaced; the one that
 * loses reads the winner's session instead (X rotates refresh tokens, so its own refresh would fail).
 */
export async function usableSession(
  services: Pick<Services, 'database' | 'secrets' | 'platform' | 'clock'>,
  row: Pick<XAccountRow, 'id' | 'health' | 'session_enc'>,
): Promise<string> {
  const { db } = services.database;
  const box = await secretBox(services);
  if (!row.session_enc) throw new SessionNeedsReauthError('the connection has no session');
  let session: string;
  try {
    session = box.open(row.session_enc);
  } catch {
    throw new SessionNeedsReauthError('the session was sealed with another secret key');
  }
  const now = services.clock.now();
  const renewal = await services.platform.renewSession(session, now);
  if (renewal.kind === 'current') return session;
  if (renewal.kind === 'refused') {
    // Another request may have renewed it a moment ago, spending the refresh token this one used.
    const stored = await db
      .selectFrom('x_accounts')
      .select('session_enc')
      .where('id', '=', row.id)
      .executeTakeFirst();
    if (stored?.session_enc && stored.session_enc !== row.session_enc) {
      return usableSession(services, { ...row, session_enc: stored.session_enc });
    }
    await learnHealth(db, row, 'auth_failure', now);
    throw new SessionNeedsReauthError(renewal.message);
  }
  const sealed = box.seal(renewal.session);
  const r = await db
    .updateTable('x_accounts')
    .set({ session_enc: sealed, cookies_obtained_at: now, updated_at: now })
    .where('id', '=', row.id)
    .where('session_enc', '=', row.session_enc)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) {
    const stored = await db
      .selectFrom('x_accounts')
      .select('session_enc')
      .where('id', '=', row.id)
      .executeTakeFirst();
    if (stored?.session_enc) return box.open(stored.session_enc);
  }
  return renewal.session;
}
