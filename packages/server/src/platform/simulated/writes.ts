import { num } from '../../core/db/database.js';
import type { WriteActor, WriteCommand, WriteOutcome } from '../../core/platform/account-writes.js';
import { isLocked } from './account-lock.js';
import { isSimulatedPlatformError } from './errors.js';
import type { SimulatedLogins } from './logins.js';
import { findUserRow } from './lookup.js';
import type { UserRow } from './stored.js';
import { reject, type SimWriteContext } from './write-context.js';
import { follow, removeFollower, sendDm, unfollow } from './write-people.js';
import {
  createCommunity,
  deleteCommunity,
  membership,
  updateImage,
  updateProfile,
  uploadMedia,
} from './write-profile.js';
import { createTweet, deleteTweet, like, retweet, unlike, unretweet } from './write-tweets.js';

/**
 * The writes of connected accounts on the simulated platform: they change the network the reads, monitors
 * and webhooks see. Each write token is performed at most once: its outcome is kept as a receipt, answered
 * again for a repeat and readable through {@link writeReceipt}. A session that no longer exists (the
 * password changed) is `x_auth_failure`; a suspended account `x_account_suspended`; a locked one
 * `account_restricted` (the contract has no code of its own for a platform lock).
 */
export class SimulatedWrites {
  constructor(
    private readonly ctx: SimWriteContext,
    private readonly logins: SimulatedLogins,
  ) {}

  async write(token: string, actor: WriteActor, command: WriteCommand): Promise<WriteOutcome> {
    const earlier = await this.writeReceipt(token);
    if (earlier) return earlier;
    const outcome = await this.perform(actor, command);
    const inserted = await this.ctx.db
      .insertInto('simulated_write_receipts')
      .values({
        token,
        user_id: actor.userId,
        action: command.action,
        outcome: JSON.stringify(outcome),
        created_at: this.ctx.clock.now(),
      })
      .onConflict((oc) => oc.column('token').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0)
      return (await this.writeReceipt(token)) ?? outcome;
    return outcome;
  }

  async writeReceipt(token: string): Promise<WriteOutcome | undefined> {
    const row = await this.ctx.db
      .selectFrom('simulated_write_receipts')
      .select('outcome')
      .where('token', '=', token)
      .executeTakeFirst();
    return row ? (JSON.parse(row.outcome) as WriteOutcome) : undefined;
  }

  private async perform(actor: WriteActor, command: WriteCommand): Promise<WriteOutcome> {
    const user = await findUserRow(this.ctx.db, actor.userId);
    if (!user || !(await this.logins.sessionOf(actor.userId, actor.session)))
      return reject('x_auth_failure', 'the session of the account is no longer valid; re-authenticate it');
    if (num(user.suspended)) return reject('x_account_suspended', `@${user.username} is suspended`);
    if (await isLocked(this.ctx.db, user.id))
      return reject('account_restricted', `@${user.username} is locked; unlock it on the platform`);
    try {
      return await this.dispatch(user, command);
    } catch (err) {
      // The control mutations refuse what the checks above let through only on races (a tweet deleted
      // meanwhile): the target is gone.
      if (isSimulatedPlatformError(err)) return reject('x_target_not_found', err.message);
      throw err;
    }
  }

  private dispatch(user: UserRow, c: WriteCommand): Promise<WriteOutcome> {
    const ctx = this.ctx;
    switch (c.action) {
      case 'create_tweet':
        return createTweet(ctx, user, c);
      case 'delete_tweet':
        return deleteTweet(ctx, user, c.tweetId);
      case 'like':
        return like(ctx, user, c.tweetId);
      case 'unlike':
        return unlike(ctx, user, c.tweetId);
      case 'retweet':
        return retweet(ctx, user, c.tweetId);
      case 'unretweet':
        return unretweet(ctx, user, c.tweetId);
      case 'follow':
        return follow(ctx, user, c.user);
      case 'unfollow':
        return unfollow(ctx, user, c.user);
      case 'remove_follower':
        return removeFollower(ctx, user, c.user);
      case 'send_dm':
        return sendDm(ctx, user, c.recipientId, c.text, c.mediaIds ?? []);
      case 'upload_media':
        return uploadMedia(ctx, user, c);
      case 'update_profile':
        return updateProfile(ctx, user, c);
      case 'update_avatar':
      case 'update_banner':
        return updateImage(ctx, user, c);
      case 'create_community':
        return createCommunity(ctx, user, c.name, c.description);
      case 'delete_community':
        return deleteCommunity(ctx, user, c.communityId, c.name);
      case 'join_community':
        return membership(ctx, user, c.communityId, true);
      case 'leave_community':
        return membership(ctx, user, c.communityId, false);
    }
  }
}
