import { paidCall, paidPage } from '../../core/billing/metering.js';
import { notFound } from '../../core/http/platform-errors.js';
import { pageB } from '../../core/paging/gather.js';
import type { PlatformCommunity } from '../../core/platform/platform.js';
import { defineReadHandlers } from '../../core/reads/define.js';
import { ownedListing, userPage } from './listings.js';

/** Users per page of the moderators list, which takes no page size. */
const MODERATORS_PAGE = 20;

/** A community in the API's shape; its creator is shown as its admin. */
function toCommunity(c: PlatformCommunity) {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    memberCount: c.memberCount,
    ...(c.moderatorCount !== undefined && { moderatorCount: c.moderatorCount }),
    createdAt: c.createdAt,
    ...(c.joinPolicy !== undefined && { joinPolicy: c.joinPolicy }),
    url: `https://x.com/i/communities/${c.id}`,
    ...(c.creator !== undefined && { admin: c.creator }),
  };
}

/** Community reads: its profile, members, moderators and tweets, and keyword search in its tweets. */
export const communityHandlers = defineReadHandlers({
  getCommunityInfo: async (ctx) => {
    const id = ctx.params.id;
    const community = await paidCall(ctx, async () => {
      const found = await ctx.services.platform.community(id);
      if (!found) throw notFound('community', id);
      return found;
    });
    return { community: toCommunity(community) };
  },

  getCommunityMembers: async (ctx) => {
    const id = ctx.params.id;
    const read = ownedListing('community', id, (p) =>
      ctx.services.platform.communityMembers(id, 'member', p),
    );
    return userPage(ctx, ctx.query, ctx.query.pageSize, read);
  },

  getCommunityModerators: async (ctx) => {
    const id = ctx.params.id;
    const read = ownedListing('community', id, (p) =>
      ctx.services.platform.communityMembers(id, 'moderator', p),
    );
    return userPage(ctx, ctx.query, MODERATORS_PAGE, read);
  },

  getCommunityTweets: async (ctx) => {
    const id = ctx.params.id;
    const page = await paidPage(ctx, {
      want: ctx.query.pageSize,
      cursor: ctx.query.cursor,
      read: ownedListing('community', id, (p) => ctx.services.platform.communityTweets(id, p)),
    });
    return pageB('tweets', page.items, page.nextCursor);
  },

  searchCommunities: async (ctx) => {
    const q = ctx.query;
    const page = await paidPage(ctx, {
      want: q.pageSize,
      cursor: q.cursor,
      read: (p) => ctx.services.platform.searchCommunityTweets(q.q, q.communityId, p),
    });
    return pageB('tweets', page.items, page.nextCursor);
  },

  getAllCommunityTweets: async (ctx) => {
    const q = ctx.query;
    const page = await paidPage(ctx, {
      want: q.pageSize,
      cursor: q.cursor,
      read: (p) => ctx.services.platform.searchCommunityTweets(q.q, q.communityId, p),
    });
    return pageB('tweets', page.items, page.nextCursor);
  },
});
