import type { Tweet } from '../../platform/platform.js';
import { defineReadHandlers } from './define.js';
import { notFound } from './errors.js';
import { unixSeconds, userMatcher } from './filters.js';
import { paidPage } from './metering.js';
import { pageB } from './paging.js';

/** Reads of a platform list: its followers, members and the tweets of its members (404 `not_found`). */
export const listHandlers = defineReadHandlers({
  getListFollowers: async (ctx) => {
    const { platform } = ctx.services;
    const id = ctx.params.id;
    const page = await paidPage(ctx, {
      want: ctx.query.pageSize,
      cursor: ctx.query.cursor,
      keep: userMatcher(ctx.query, ctx.services.clock.now()),
      read: async (p) => {
        const found = await platform.listFollowers(id, p);
        if (!found) throw notFound('list', id);
        return found;
      },
    });
    return pageB('users', page.items, page.nextCursor);
  },

  getListMembers: async (ctx) => {
    const { platform } = ctx.services;
    const id = ctx.params.id;
    const page = await paidPage(ctx, {
      want: ctx.query.pageSize,
      cursor: ctx.query.cursor,
      keep: userMatcher(ctx.query, ctx.services.clock.now()),
      read: async (p) => {
        const found = await platform.listMembers(id, p);
        if (!found) throw notFound('list', id);
        return found;
      },
    });
    return pageB('users', page.items, page.nextCursor);
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
      read: async (p) => {
        const found = await platform.listTweets(id, p);
        if (!found) throw notFound('list', id);
        return found;
      },
    });
    return pageB('tweets', page.items, page.nextCursor);
  },
});
