import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { HttpError } from '../../core/http/errors.js';
import { SUPPORT_LIMITS } from './limits.js';
import { recentUsage } from './repository.js';

/** 429 with `Retry-After` (header, seconds) and `retryAfter` (body), as every throttle answers (spec 8.1). */
function throttled(code: string, message: string, retryAfter: number): HttpError {
  return new HttpError(code, message, { retryAfter }, 429, { 'retry-after': String(retryAfter) });
}

/**
 * The support throttles, fixed windows per account counted from the stored rows (so every instance on one
 * database agrees): `support_request_rate_limit` when the messages of the window (tickets opened and
 * replies) are used up, `support_media_rate_limit` when the message's files would exceed the window's.
 */
export async function checkSupportLimits(
  db: Kysely<Database>,
  accountId: string,
  files: number,
  now: number,
): Promise<void> {
  const { windowMs, requestsPerWindow, attachmentsPerWindow } = SUPPORT_LIMITS;
  const start = Math.floor(now / windowMs) * windowMs;
  const retryAfter = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
  const used = await recentUsage(db, accountId, start);
  if (used.messages >= requestsPerWindow)
    throw throttled(
      'support_request_rate_limit',
      `at most ${requestsPerWindow} support messages per hour; try again in ${retryAfter} s`,
      retryAfter,
    );
  if (files > 0 && used.files + files > attachmentsPerWindow)
    throw throttled(
      'support_media_rate_limit',
      `at most ${attachmentsPerWindow} support attachments per hour (${used.files} used); try again in ${retryAfter} s`,
      retryAfter,
    );
}
