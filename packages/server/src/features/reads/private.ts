import { readAs } from '../../core/accounts/read-as.js';
import { meter, paidPage } from '../../core/billing/metering.js';
import { HttpError } from '../../core/http/errors.js';
import { cursorCodec, legacyOffset } from '../../core/paging/cursor.js';
import { pageB } from '../../core/paging/gather.js';
import type { PlatformDm, PlatformNotification, Tweet } from '../../core/platform/platform.js';
import { defineReadHandlers } from '../../core/reads/define.js';
import { requireUser } from '../../core/reads/lookups.js';
import { connectedAccount } from './connected-account.js';

/** Items per page of the private reads, which take no page size. */
const PAGE = 20;

/** Cursors of the bookmark folders (held in memory): the offset of the next page. */
const FOLDERS_CURSOR = cursorCodec(
  'bookmark_folders',
  { offset: 'uint' },
  { param: 'cursor', next: 'next_cursor', legacy: legacyOffset('bookmark_folders'), emptyIsStart: true },
);

const NOTIFICATION_WORDS: Record<string, string> = {
  like: 'liked your post',
  retweet: 'reposted your post',
  reply: 'replied to your post',
  quote: 'quoted your post',
  mention: 'mentioned you',
  follow: 'followed you',
};

/** A notification in the API's shape, worded the way the platform words it. */
function toNotification(n: PlatformNotification) {
  return {
    id: n.id,
    type: n.kind,
    createdAt: n.createdAt,
    text: `${n.actor.name} ${NOTIFICATION_WORDS[n.kind] ?? n.kind}`,
    users: [n.actor],
    ...(n.tweet && { tweet: n.tweet }),
  };
}

/** A direct message in the API's shape (reference shapes 5): sender and receiver ids, text and time. */
function toMessage(m: PlatformDm) {
  return {
    id: m.id,
    senderId: m.senderId,
    receiverId: m.recipientId,
    text: m.text,
    createdAt: m.createdAt,
  };
}

/**
 * Private reads (spec 1.5): bookmarks, bookmark folders, the home timeline, notifications and direct
 * messages, read as the caller's connected account (see {@link connectedAccount}); 1 credit per item. What
 * the platform answers teaches the connection's health ({@link readAs}).
 */
export const privateHandlers = defineReadHandlers({
  getBookmarks: async (ctx) => {
    const q = ctx.query;
    const account = await connectedAccount(ctx, q.account);
    const page = await paidPage(ctx, {
      want: PAGE,
      cursor: q.cursor,
      read: (p) =>
        readAs(ctx.services, account, () =>
          ctx.services.platform.bookmarks(account.x_user_id, q.folderId, p, account.session),
        ),
    });
    return pageB('tweets', page.items, page.nextCursor);
  },

  getBookmarkFolders: async (ctx) => {
    const offset = FOLDERS_CURSOR.decode(ctx.query.cursor)?.offset ?? 0;
    const account = await connectedAccount(ctx, ctx.query.account);
    const all = await readAs(ctx.services, account, () =>
      ctx.services.platform.bookmarkFolders(account.x_user_id, account.session),
    );
    const m = meter(ctx);
    const remaining = all.slice(offset, offset + PAGE);
    const folders = remaining.slice(0, remaining.length ? await m.affordable(remaining.length) : 0);
    await m.charge(folders.length);
    const end = offset + folders.length;
    return pageB('folders', folders, end < all.length ? FOLDERS_CURSOR.encode({ offset: end }) : undefined);
  },

  getTimeline: async (ctx) => {
    const q = ctx.query;
    const account = await connectedAccount(ctx, q.account);
    const seen = new Set(q.seenTweetIds?.split(',') ?? []);
    const page = await paidPage(ctx, {
      want: PAGE,
      cursor: q.cursor,
      keep: (t: Tweet) => !seen.has(t.id),
      read: (p) =>
        readAs(ctx.services, account, () =>
          ctx.services.platform.homeTimeline(account.x_user_id, p, account.session),
        ),
    });
    return pageB('tweets', page.items, page.nextCursor);
  },

  getNotifications: async (ctx) => {
    const q = ctx.query;
    const account = await connectedAccount(ctx, q.account);
    const keep = (n: PlatformNotification) =>
      q.type === 'Verified'
        ? n.actor.verified === true
        : q.type === 'Mentions'
          ? n.kind === 'mention' || n.kind === 'reply'
          : true;
    const page = await paidPage(ctx, {
      want: PAGE,
      cursor: q.cursor,
      keep,
      read: (p) =>
        readAs(ctx.services, account, () =>
          ctx.services.platform.notifications(account.x_user_id, p, account.session),
        ),
    });
    return pageB('notifications', page.items.map(toNotification), page.nextCursor);
  },

  getDmHistory: async (ctx) => {
    const q = ctx.query;
    const account = await connectedAccount(ctx, q.account);
    const other = await requireUser(ctx.services.platform, ctx.params.userId);
    if (other.id === account.x_user_id)
      throw new HttpError('invalid_input', 'userId: a conversation needs another user');
    if (other.protected) {
      // A protected account converses only with accounts it follows (the platform's rule for messages).
      const { isFollowing } = await ctx.services.platform.checkFollow(other.id, account.x_user_id);
      if (!isFollowing)
        throw new HttpError(
          'dm_not_permitted',
          `@${other.username} is protected and does not follow @${account.x_username}: no conversation can be read`,
        );
    }
    const maxId = q.maxId === undefined ? undefined : BigInt(q.maxId);
    const page = await paidPage(ctx, {
      want: PAGE,
      cursor: q.cursor,
      keep: (m: PlatformDm) => maxId === undefined || BigInt(m.id) <= maxId,
      read: (p) =>
        readAs(ctx.services, account, () =>
          ctx.services.platform.dmHistory(account.x_user_id, other.id, p, account.session),
        ),
    });
    return pageB('messages', page.items.map(toMessage), page.nextCursor);
  },
});
