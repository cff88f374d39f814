import { limits } from '@xsvc/sdk/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { HttpError } from '../../core/http/errors.js';
import { successesSince } from './action-rows.js';

const MINUTE = 60_000;
const DAY = 24 * 3_600_000;
/** Tweets one connected account may post per day (the platform's daily posting limit). */
export const DAILY_POSTS = 2_400;

/** The actions sharing the follow limit (spec 8.1). */
const FOLLOW_ACTIONS = ['follow', 'remove_follower'] as const;

/**
 * The platform's per-account action limits, checked before a write is sent: follows and follower removals
 * (20 per minute: 429 `x_rate_limited`; 400 per day: 429 `x_daily_limit`) and posts (2,400 per day:
 * `x_daily_limit`). Only confirmed writes count. `Retry-After` says when the oldest counted write leaves the
 * window.
 */
export async function checkActionLimits(
  db: Kysely<Database>,
  xAccountId: string,
  action: string,
  now: number,
): Promise<void> {
  if ((FOLLOW_ACTIONS as readonly string[]).includes(action)) {
    await check(db, xAccountId, FOLLOW_ACTIONS, now, MINUTE, limits.follow.perMinute, 'x_rate_limited');
    await check(db, xAccountId, FOLLOW_ACTIONS, now, DAY, limits.follow.perDay, 'x_daily_limit');
  } else if (action === 'create_tweet') {
    await check(db, xAccountId, ['create_tweet'], now, DAY, DAILY_POSTS, 'x_daily_limit');
  }
}

async function check(
  db: Kysely<Database>,
  xAccountId: string,
  actions: readonly string[],
  now: number,
  windowMs: number,
  max: number,
  code: 'x_rate_limited' | 'x_daily_limit',
): Promise<void> {
  const { count, oldest } = await successesSince(db, xAccountId, actions, now - windowMs);
  if (count < max) return;
  const seconds = Math.max(1, Math.ceil(((oldest ?? now) + windowMs - now) / 1_000));
  throw new HttpError(
    code,
    `this account reached the platform's limit of ${max} ${actions.join('/')} writes per ${windowMs === DAY ? 'day' : 'minute'}`,
    { retryAfter: seconds },
    undefined,
    { 'retry-after': String(seconds) },
  );
}
