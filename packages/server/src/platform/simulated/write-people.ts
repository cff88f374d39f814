import { num } from '../../core/db/database.js';
import type { WriteOutcome } from '../../core/platform/account-writes.js';
import { findUserRow } from './lookup.js';
import type { UserRow } from './stored.js';
import { done, follows, reject, type SimWriteContext } from './write-context.js';

/** The longest direct message. */
export const DM_CHARS = 10_000;

/** The other user of a write: present and not suspended, else `x_target_not_found`. */
async function otherUser(ctx: SimWriteContext, userRef: string): Promise<UserRow | WriteOutcome> {
  const user = await findUserRow(ctx.db, userRef);
  if (!user || num(user.suspended)) return reject('x_target_not_found', `no user ${userRef}`);
  return user;
}

const target = (u: UserRow) => ({ id: u.id, username: u.username });

/** Follows a user (nothing changes when already following); following oneself is `x_rejected`. */
export async function follow(ctx: SimWriteContext, actor: UserRow, userRef: string): Promise<WriteOutcome> {
  const other = await otherUser(ctx, userRef);
  if ('ok' in other) return other;
  if (other.id === actor.id) return reject('x_rejected', 'an account cannot follow itself');
  await ctx.control.follow(actor.id, other.id);
  return done({ type: 'state_change', id: other.id, active: true, target: target(other) });
}

/** Stops following a user (nothing changes when not following). */
export async function unfollow(ctx: SimWriteContext, actor: UserRow, userRef: string): Promise<WriteOutcome> {
  const other = await otherUser(ctx, userRef);
  if ('ok' in other) return other;
  await ctx.control.unfollow(actor.id, other.id);
  return done({ type: 'state_change', id: other.id, active: false, target: target(other) });
}

/** Makes a user stop following the actor. */
export async function removeFollower(
  ctx: SimWriteContext,
  actor: UserRow,
  userRef: string,
): Promise<WriteOutcome> {
  const other = await otherUser(ctx, userRef);
  if ('ok' in other) return other;
  if (other.id === actor.id) return reject('x_rejected', 'an account does not follow itself');
  await ctx.control.unfollow(other.id, actor.id);
  return done({ type: 'state_change', id: other.id, active: false, target: target(other) });
}

/**
 * Sends a direct message. Refused: messaging oneself, or a protected recipient that does not follow the
 * actor (`x_dm_not_allowed`); text over 10,000 characters (`x_content_too_long`); media that is not an
 * upload of the actor (`x_target_not_found`).
 */
export async function sendDm(
  ctx: SimWriteContext,
  actor: UserRow,
  recipientId: string,
  text: string,
  mediaIds: readonly string[],
): Promise<WriteOutcome> {
  const other = await otherUser(ctx, recipientId);
  if ('ok' in other) return other;
  if (other.id === actor.id) return reject('x_dm_not_allowed', 'an account cannot message itself');
  if (num(other.protected) && !(await follows(ctx, other.id, actor.id)))
    return reject('x_dm_not_allowed', `@${other.username} accepts messages only from accounts it follows`);
  const length = [...text].length;
  if (length > DM_CHARS)
    return reject('x_content_too_long', `the message is ${length} characters; the most is ${DM_CHARS}`);
  for (const mediaId of mediaIds) {
    const upload = await ctx.db
      .selectFrom('simulated_uploads')
      .select('id')
      .where('id', '=', mediaId)
      .where('user_id', '=', actor.id)
      .executeTakeFirst();
    if (!upload) return reject('x_target_not_found', `no uploaded media ${mediaId}`);
  }
  const now = ctx.clock.now();
  const id = ctx.ids.next(now);
  await ctx.db
    .insertInto('sim_dms')
    .values({ id, sender_id: actor.id, recipient_id: other.id, text, created_at: now })
    .execute();
  return done({ type: 'direct_message', id, target: target(other) });
}
