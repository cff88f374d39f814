import { HttpError } from '../../http/errors.js';
import { defineHandlers } from '../../http/handler.js';
import type { WriteFile } from '../../platform/account-writes.js';
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

  deleteTweet: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'delete_tweet', tweetId: ctx.params.id },
      target: tweet(ctx.params.id),
    }),

  likeTweet: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'like', tweetId: ctx.params.id },
      target: tweet(ctx.params.id),
    }),

  unlikeTweet: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'unlike', tweetId: ctx.params.id },
      target: tweet(ctx.params.id),
    }),

  retweet: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'retweet', tweetId: ctx.params.id },
      target: tweet(ctx.params.id),
    }),

  unretweet: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'unretweet', tweetId: ctx.params.id },
      target: tweet(ctx.params.id),
    }),

  followUser: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'follow', user: ctx.params.id },
      target: userTarget(ctx.params.id),
    }),

  unfollowUser: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'unfollow', user: ctx.params.id },
      target: userTarget(ctx.params.id),
    }),

  removeFollower: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'remove_follower', user: ctx.params.id },
      target: userTarget(ctx.params.id),
    }),

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
      target: { type: 'profile' },
    });
  },

  updateAvatar: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'update_avatar', file: await fileOf(ctx.body.file), url: ctx.body.url },
      target: { type: 'profile' },
    }),

  updateBanner: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'update_banner', file: await fileOf(ctx.body.file), url: ctx.body.url },
      target: { type: 'profile' },
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

  joinCommunity: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'join_community', communityId: ctx.params.id },
      target: community(ctx.params.id),
    }),

  leaveCommunity: async (ctx) =>
    performWrite(ctx, {
      account: ctx.body.account,
      command: { action: 'leave_community', communityId: ctx.params.id },
      target: community(ctx.params.id),
    }),
});
