import { paidPage } from '../../core/billing/metering.js';
import { pageB } from '../../core/paging/gather.js';
import type { Tweet } from '../../core/platform/platform.js';
import { defineReadHandlers } from '../../core/reads/define.js';
import { unixSeconds } from '../../core/reads/filters.js';
import { ownedListing, userPage } from './listings.js';

/** Reads of a platform list: its followers, members and the tweets of its members (404 `not_found`). */
export const listHandlers = defineReadHandlers({
  getListFollowers: async (ctx) => {
    const { platform } = ctx.services;
    const id = ctx.params.id;
    return userPage(
      ctx,
      ctx.query,
      ctx.query.pageSize,
      ownedListing('list', id, (p) => platform.listFollowers(id, p)),
    );
  },

  getListMembers: async (ctx) => {
    const { platform } = ctx.services;
    const id = ctx.params.id;
    return userPage(
      ctx,
      ctx.query,
      ctx.query.pageSize,
      ownedListing('list', id, (p) => platform.listMembers(id, p)),
    );
  },

  getListTweets: async (ctx) => {
    const q = ctx.query;
    const { platform } = ctx.services;
    const id = ctx.params.id;
    const since = q.sinceTime === undefined ? undefined : unixSeconds(q.sinceTime) * 1000;
    const until = q.untilTime === undefined ? undefined : unixSeconds(q.untilTime) * 1000;
    const page = await paidPage(ctx, {
      want: q.pageSize,
      cursor: q.cursor,
      keep: (t: Tweet) => {
        const at = Date.parse(t.createdAt);
        return (
          (q.includeReplies || !t.isReply) &&
          (since === undefined || at >= since) &&
          (until === undefined || at < until)
        );
      },
      read: ownedListing('list', id, (p) => platform.listTweets(id, p)),
    });
    return pageB('tweets', page.items, page.nextCursor);
  },
});
