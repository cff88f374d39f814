import type { AsUser, UserReader } from '../platform/platform.js';
import type { Services } from '../services.js';
import { readAs } from './read-as.js';
import { SessionNeedsReauthError, usableSession } from './session.js';
import type { XAccountRow } from './x-accounts.js';

/** Whether a connection must be re-authenticated before anything is read as it. */
export function waitsForReauth(row: Pick<XAccountRow, 'health' | 'status'>): boolean {
  return row.health === 'needsReauth' || row.status === 'needs_reauth';
}

/** The connections of the service account `accountId`, oldest first. */
export function connectionsOf(
  services: Pick<Services, 'database'>,
  accountId: string,
): Promise<XAccountRow[]> {
  return services.database.db
    .selectFrom('x_accounts')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .execute();
}

/**
 * The connected account of `accountId` that a public read needing a user token is made as (xapi: liked posts,
 * liking users, user search): the oldest connection that is not waiting for re-authentication, whose session
 * opens (renewed first when about to expire) and that `fits` the read (the scopes it needs); when no usable
 * one fits, the oldest usable one, so the platform can say what it lacks. A lazy {@link AsUser}: nothing is
 * looked up unless the platform asks. Any of the account's connections will do, since what is read is
 * public; undefined when none is usable. Its reads run through {@link readAs}, so what X answers is recorded
 * on the connection.
 */
export function accountAsUser(
  services: Pick<Services, 'database' | 'secrets' | 'platform' | 'clock'>,
  accountId: string,
): AsUser {
  return async (fits) => {
    let fallback: UserReader | undefined;
    for (const row of await connectionsOf(services, accountId)) {
      if (waitsForReauth(row) || !row.session_enc) continue;
      let session: string;
      try {
        session = await usableSession(services, row);
      } catch (err) {
        if (err instanceof SessionNeedsReauthError) continue;
        throw err;
      }
      const reader: UserReader = {
        username: row.x_username,
        session,
        run: (read) => readAs(services, row, read),
      };
      if (!fits || fits(session)) return reader;
      fallback ??= reader;
    }
    return fallback;
  };
}
