import { HttpError } from '../../core/http/errors.js';
import { defineHandlers, type HandlerContext } from '../../core/http/handler.js';
import type { WriteFile } from '../../core/platform/account-writes.js';
import { actionById } from './action-rows.js';
import { toWriteAction } from './action-view.js';
import { performWrite, statusAnswer } from './perform.js';
import { refresh } from './settle.js';

/** The bytes and type of an uploaded file. */
async function fileOf(file: File | undefined): Promise<WriteFile | undefined> {
  return file && { bytes: new Uint8Array(await file.arrayBuffer()), mimeType: file.type };
}

/** The target of a user path parameter: an id, or a username without @. */
function userTarget(ref: string) {
  const name = ref.replace(/^@/, '');
  return { type: 'user' as const, ...(/^\d+$/.test(name) ? { id: name } : { username: name }) };
}

const tweet = (id: string) => ({ type: 'tweet' as const, id });
const community = (id: string) => ({ type: 'community' as const, id });

/** What the one-target writes receive: the path's id and the acting account of the body. */
type TargetContext = HandlerContext & { params: { id: string }; body: { account: string } };

/** A write on the tweet of the path (delete, like, unlike, retweet, unretweet). */
function onTweet(action: 'delete_tweet' | 'like' | 'unlike' | 'retweet' | 'unretweet') {
  return async (ctx: TargetContext) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action, tweetId: ctx.params.id },
      target: tweet(ctx.params.id),
    });
}

/** A write on the user of the path (follow, unfollow, remove a follower). */
function onUser(action: 'follow' | 'unfollow' | 'remove_follower') {
  return async (ctx: TargetContext) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action, user: ctx.params.id },
      target: userTarget(ctx.params.id),
    });
}

/** Joining or leaving the community of the path. */
function onCommunity(action: 'join_community' | 'leave_community') {
  return async (ctx: TargetContext) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action, communityId: ctx.params.id },
      target: community(ctx.params.id),
    });
}

/**
 * The X Write operations (spec 4.13): every write acts as a connected account and runs through the durable
 * write-action flow of {@link performWrite}; `getWriteActionStatus` polls an action (200 when terminal, 202
 * while active), checking with the platform whether an unconfirmed write happened.
 */
export const writeHandlers = defineHandlers({
  createTweet: async (ctx) => {
    const b = ctx.body;
    return performWrite(ctx, {
      account: b.account,
      command: {
        action: 'create_tweet',
        text: b.text,
        media: b.media,
        replyToId: b.reply_to_tweet_id,
        communityId: b.community_id,
        isNote: b.is_note_tweet,
      },
      ...(b.reply_to_tweet_id
        ? { target: tweet(b.reply_to_tweet_id) }
        : b.community_id
          ? { target: community(b.community_id) }
          : {}),
    });
  },

  getWriteActionStatus: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const row = await actionById(ctx.services.database.db, accountId, ctx.params.id);
    if (!row) throw new HttpError('not_found', `no write action ${ctx.params.id}`);
    const current = await refresh(ctx.services, row);
    return statusAnswer(toWriteAction(current, ctx.services.publicUrl()));
  },

  deleteTweet: onTweet('delete_tweet'),
  likeTweet: onTweet('like'),
  unlikeTweet: onTweet('unlike'),
  retweet: onTweet('retweet'),
  unretweet: onTweet('unretweet'),
  followUser: onUser('follow'),
  unfollowUser: onUser('unfollow'),
  removeFollower: onUser('remove_follower'),

  sendDm: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: {
        action: 'send_dm',
        recipientId: ctx.params.userId,
        text: ctx.body.text,
        mediaIds: ctx.body.media_ids,
      },
      target: userTarget(ctx.params.userId),
    }),

  uploadMedia: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: {
        action: 'upload_media',
        file: await fileOf(ctx.body.file),
        url: ctx.body.url,
        longVideo: ctx.body.is_long_video ?? false,
      },
    }),

  updateProfile: async (ctx) => {
    const { account, name, description, location, url } = ctx.body;
    return performWrite(ctx, {
      account,
      command: { action: 'update_profile', name, description, location, url },
    });
  },

  updateAvatar: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'update_avatar', file: await fileOf(ctx.body.file), url: ctx.body.url },
    }),

  updateBanner: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'update_banner', file: await fileOf(ctx.body.file), url: ctx.body.url },
    }),

  createCommunity: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'create_community', name: ctx.body.name, description: ctx.body.description },
    }),

  deleteCommunity: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'delete_community', communityId: ctx.params.id, name: ctx.body.community_name },
      target: community(ctx.params.id),
    }),

  joinCommunity: onCommunity('join_community'),
  leaveCommunity: onCommunity('leave_community'),
});
