import type { HandlerContext, OperationId } from '../../core/http/handler.js';
import { pageB } from '../../core/paging/gather.js';
import type {
  PageRequest,
  Platform,
  PlatformPage,
  Tweet,
  TweetFilters,
} from '../../core/platform/platform.js';
import { defineReadHandlers } from '../../core/reads/define.js';
import { type TweetFilterParams, toTweetFilters, tweetMatcher } from '../../core/reads/filters.js';
import { requireReadableUser } from '../../core/reads/lookups.js';
import { tweetMatcher as platformFilters } from '../../platform/xapi/filters.js';
import { callerAsUser } from './connected-account.js';
import { coveragePage } from './walks/page.js';

type Reader = (
  platform: Platform,
  userId: string,
  filters: TweetFilters,
  page: PageRequest,
) => Promise<PlatformPage<Tweet>>;

/**
 * One user timeline (spec 4.10): the user must be readable (404 missing or suspended, free 403 when
 * protected), then a per-result page. Filters the listing cannot apply itself are checked on each tweet.
 * The timelines with coverage (tweets, replies) switch to an automatic coverage walk when a filtered page
 * is cut short by the page budget, and resume its `cov_…` cursors (see `coveragePage`).
 */
async function timeline(
  ctx: HandlerContext<OperationId>,
  query: TweetFilterParams & { cursor?: string | undefined; pageSize: number },
  read: Reader,
  platformAppliesFilters: boolean,
  coverage = false,
) {
  const { platform } = ctx.services;
  const user = await requireReadableUser(platform, (ctx.params as { id: string }).id);
  const filters = toTweetFilters(query, ctx.services.clock.now());
  const [own, extra] = [platformFilters(filters, platformAppliesFilters), tweetMatcher(query)];
  const page = await coveragePage(ctx, {
    mode: coverage ? undefined : 'standard',
    want: query.pageSize,
    cursor: query.cursor,
    keep: (t: Tweet) => own(t) && extra(t),
    idOf: (t) => t.id,
    read: (p) => read(platform, user.id, filters, p),
  });
  return pageB('tweets', page.items, page.nextCursor);
}

/** The tweet timelines of a user: tweets, replies, likes, media, mentions. */
export const timelineHandlers = defineReadHandlers({
  getUserTweets: async (ctx) =>
    timeline(
      ctx,
      ctx.query,
      (platform, id, filters, p) =>
        platform.userTweets(id, { ...filters, includeReplies: ctx.query.includeReplies }, p),
      true,
      true,
    ),
  getUserReplies: async (ctx) =>
    timeline(ctx, ctx.query, (platform, id, _f, p) => platform.userReplies(id, p), false, true),
  getUserLikes: async (ctx) =>
    timeline(ctx, ctx.query, (platform, id, _f, p) => platform.userLikes(id, p, callerAsUser(ctx)), false),
  getUserMedia: async (ctx) =>
    timeline(ctx, ctx.query, (platform, id, _f, p) => platform.userMedia(id, p), false),
  getUserMentions: async (ctx) =>
    timeline(ctx, ctx.query, (platform, id, _f, p) => platform.userMentions(id, p), false),
});
