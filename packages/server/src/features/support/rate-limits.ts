import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { HttpError } from '../../core/http/errors.js';
import { consume } from '../../core/limits/fixed-window.js';
import { SUPPORT_LIMITS } from './limits.js';

/** 429 with `Retry-After` (header, seconds) and `retryAfter` (body), as every throttle answers (spec 8.1). */
function throttled(code: string, message: string, retryAfter: number): HttpError {
  return new HttpError(code, message, { retryAfter }, 429, { 'retry-after': String(retryAfter) });
}

/**
 * The support throttles, fixed windows per account of the one limiter (so every instance on one database
 * agrees), counted in the transaction that stores the message (a refused or failed message counts nothing):
 * `support_request_rate_limit` when the messages of the window (tickets opened and replies) are used up,
 * `support_media_rate_limit` when the message's files would exceed the window's.
 */
export async function countSupportMessage(
  trx: Kysely<Database>,
  accountId: string,
  files: number,
  now: number,
): Promise<void> {
  const { windowMs, requestsPerWindow, attachmentsPerWindow } = SUPPORT_LIMITS;
  const messages = await consume(trx, {
    key: `support:messages:${accountId}`,
    limit: requestsPerWindow,
    windowMs,
    now,
  });
  if (!messages.allowed)
    throw throttled(
      'support_request_rate_limit',
      `at most ${requestsPerWindow} support messages per hour; try again in ${messages.retryAfter} s`,
      messages.retryAfter,
    );
  if (files === 0) return;
  const media = await consume(trx, {
    key: `support:files:${accountId}`,
    limit: attachmentsPerWindow,
    windowMs,
    now,
    cost: files,
  });
  if (!media.allowed)
    throw throttled(
      'support_media_rate_limit',
      `at most ${attachmentsPerWindow} support attachments per hour (${media.count} used); try again in ${media.retryAfter} s`,
      media.retryAfter,
    );
}
