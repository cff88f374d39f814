import type { Tweet } from '../../platform/platform.js';
import { tweetMatcher as platformFilters } from '../../platform/xapi/filters.js';
import { defineReadHandlers } from './define.js';
import { toTweetFilters, tweetMatcher } from './filters.js';
import { requireTweet } from './lookups.js';
import { paidPage } from './metering.js';
import { pageB } from './paging.js';

/** Default and most replies a `mode=complete` read collects, and the platform pages it may read. */
const COMPLETE_DEFAULT = 1_000;
const COMPLETE_MAX_PAGES = 250;

type Sort = 'relevance' | 'latest' | 'oldest' | 'likes';

/** The page in the asked order; the platform lists newest first, so `sort` orders within the page. */
function sorted(items: Tweet[], sort: Sort | undefined): Tweet[] {
  if (sort === 'oldest') return [...items].reverse();
  if (sort === 'likes') return [...items].sort((a, b) => (b.likeCount ?? 0) - (a.likeCount ?? 0));
  return items;
}

/**
 * Replies to a tweet (spec 4.10). `scope=direct` (default) lists the platform's direct replies with every
 * filter; `all` and `nested` walk the tweet's conversation (oldest first), `nested` leaving out the direct
 * replies. `mode=complete` collects up to `limit` replies in one answer and reports a coverage diagnostic.
 * `includeOriginalPost` puts the tweet itself first on the first page, as context, free of charge.
 */
export const replyHandlers = defineReadHandlers({
  getTweetReplies: async (ctx) => {
    const q = ctx.query;
    const { platform } = ctx.services;
    const root = await requireTweet(platform, ctx.params.id);
    const scope = q.scope ?? 'direct';
    const filters = toTweetFilters(q, ctx.services.clock.now());
    const [own, extra] = [platformFilters(filters, false), tweetMatcher(q)];
    const keep = (t: Tweet) =>
      extra(t) &&
      (scope === 'direct' || (own(t) && t.id !== root.id && t.isReply === true)) &&
      (scope !== 'nested' || t.inReplyToId !== root.id) &&
      (!q.excludeOriginalAuthor || t.author?.id !== root.author?.id) &&
      (!q.hasMediaOnly || (t.media?.length ?? 0) > 0);
    const complete = q.mode === 'complete';
    const want = complete ? (q.limit ?? COMPLETE_DEFAULT) : q.pageSize;
    const page = await paidPage(ctx, {
      want,
      cursor: q.cursor,
      keep,
      ...(complete && { maxPages: COMPLETE_MAX_PAGES }),
      read: (p) => (scope === 'direct' ? platform.replies(root.id, filters, p) : platform.thread(root.id, p)),
    });
    const first = q.includeOriginalPost && !q.cursor;
    const tweets = [...(first ? [root] : []), ...sorted(page.items, q.sort)];
    const direct = page.items.filter((t) => t.inReplyToId === root.id).length;
    return {
      ...pageB('tweets', tweets, page.nextCursor),
      ...(complete && {
        diagnostic: {
          mode: 'coverage',
          complete: page.nextCursor === undefined,
          stopReason:
            page.nextCursor === undefined
              ? 'exhausted'
              : page.items.length >= want
                ? 'result_limit'
                : 'page_limit',
          platformPages: page.platformPages,
          ...(root.replyCount !== undefined && { expectedReplies: root.replyCount }),
          directReplyCount: direct,
          nestedReplyCount: page.items.length - direct,
        },
      }),
    };
  },
});
