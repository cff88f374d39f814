import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import type { WriteOutcome, WriteRejectionCode, WriteResult } from '../../core/platform/account-writes.js';
import type { SimulatedControl } from './control.js';
import type { SnowflakeIds } from './ids.js';
import { loadTweets, loadUsers, tweetVisibility } from './lookup.js';
import type { TweetRow, UserRow } from './stored.js';

/** What the simulated write modules share: storage, time, the control mutations, ids, the media origin. */
export interface SimWriteContext {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly control: SimulatedControl;
  readonly ids: SnowflakeIds;
  /** The origin the server serves uploaded media from (`{origin}/sim/media/{id}`). */
  readonly mediaBaseUrl: () => string;
}

/** A refusal of the platform: nothing changed. */
export function reject(code: WriteRejectionCode, message: string): WriteOutcome {
  return { ok: false, code, message };
}

/** A performed write. */
export function done(result: WriteResult): WriteOutcome {
  return { ok: true, result };
}

/** Whether `followerId` follows `followeeId`. */
export async function follows(
  ctx: SimWriteContext,
  followerId: string,
  followeeId: string,
): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('sim_follows')
    .select('follower_id')
    .where('follower_id', '=', followerId)
    .where('followee_id', '=', followeeId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A tweet `actor` may act on, or the refusal: missing, deleted or by a suspended author is
 * `x_target_not_found`; a protected author the actor does not follow is `protectedCode`.
 */
export async function targetTweet(
  ctx: SimWriteContext,
  actor: UserRow,
  tweetId: string,
  protectedCode: WriteRejectionCode,
): Promise<{ tweet: TweetRow; author: UserRow } | WriteOutcome> {
  const tweet = (await loadTweets(ctx.db, [tweetId])).get(tweetId);
  const author = tweet && (await loadUsers(ctx.db, [tweet.author_id])).get(tweet.author_id);
  const reason = tweet ? tweetVisibility(tweet, author) : 'not_found';
  if (!tweet || !author || (reason && reason !== 'protected'))
    return reject('x_target_not_found', `no tweet ${tweetId}`);
  if (reason === 'protected' && author.id !== actor.id && !(await follows(ctx, actor.id, author.id)))
    return reject(protectedCode, `@${author.username} is protected`);
  return { tweet, author };
}

/** Whether the account may use features of paying accounts (long posts, long videos, communities). */
export function isPremium(user: UserRow): boolean {
  return num(user.verified) === 1;
}
