import { HttpError } from '../http/errors.js';
import { PlatformAccountError, PlatformRefusal, PlatformUnavailableError } from '../platform/platform.js';
import type { Services } from '../services.js';
import { type HealthSignal, learnHealth } from './health.js';
import type { XAccountRow } from './x-accounts.js';

/**
 * Runs a private read made as the connected `account`, and records on the connection what the platform's
 * answer taught, as a write does (spec 2.13: `health` follows what writes and reads learn): a suspension
 * makes it `suspended` and a lock `locked` (both answer 403 `account_restricted`), a platform that could
 * not be reached `temporaryIssue`, and a read that worked ends a temporary issue (`healthy`).
 */
export async function readAs<T>(
  services: Pick<Services, 'database' | 'clock'>,
  account: Pick<XAccountRow, 'id' | 'health' | 'x_username'>,
  read: () => Promise<T>,
): Promise<T> {
  const learn = (signal: HealthSignal) =>
    learnHealth(services.database.db, account, signal, services.clock.now());
  let result: T;
  try {
    result = await read();
  } catch (err) {
    if (err instanceof PlatformAccountError) {
      await learn(err.reason);
      throw new HttpError(
        'account_restricted',
        `the platform refused @${account.x_username}: ${err.message}`,
      );
    }
    // A refusal made before sending anything (no endpoint on the platform) says nothing of the connection.
    if (
      err instanceof PlatformUnavailableError &&
      err.code === 'x_api_unavailable' &&
      !(err instanceof PlatformRefusal)
    )
      await learn('unavailable');
    if (err instanceof PlatformUnavailableError && err.code === 'x_api_unauthorized') {
      // The platform refused the account's own authorization (xapi: its OAuth 2.0 token was revoked).
      await learn('auth_failure');
      throw new HttpError(
        'account_needs_reauth',
        `the platform refused @${account.x_username}'s authorization: re-authenticate it (${err.message})`,
      );
    }
    throw err;
  }
  await learn('ok');
  return result;
}
