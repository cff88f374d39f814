import { meter, paidCall, paidPage } from '../../core/billing/metering.js';
import { gather, pageB } from '../../core/paging/gather.js';
import type { PageRequest, Tweet } from '../../core/platform/platform.js';
import { defineReadHandlers } from '../../core/reads/define.js';
import { toTweetFilters, toUserFilters, tweetMatcher } from '../../core/reads/filters.js';
import { requireTweet, tweetIdOf } from '../../core/reads/lookups.js';
import { compareIds } from '../../platform/simulated/index.js';
import { tweetMatcher as platformFilters } from '../../platform/xapi/filters.js';
import { callerAsUser } from './connected-account.js';
import { userPage } from './listings.js';
import { coveragePage } from './walks/page.js';
import type { Totals } from './walks/types.js';

const TWEET_REF =
  /^(?:\d{1,25}|https?:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/\S+\/status(?:es)?\/\d{1,25}\S*)$/i;
/** Most list members a `listId` search filter reads. */
const LIST_MEMBERS_SCAN = 5_000;

/** The newest and oldest tweet ids a search walk has returned so far (its diagnostic's `newestId`/`oldestId`). */
function idRange(before: Totals, items: readonly Tweet[]): Totals {
  let newest = typeof before.newestId === 'string' ? before.newestId : undefined;
  let oldest = typeof before.oldestId === 'string' ? before.oldestId : undefined;
  for (const { id } of items) {
    if (newest === undefined || compareIds(id, newest) > 0) newest = id;
    if (oldest === undefined || compareIds(id, oldest) < 0) oldest = id;
  }
  return { ...(newest && { newestId: newest }), ...(oldest && { oldestId: oldest }) };
}

/** Public tweet reads (spec 4.10): batch, search, single lookup, and the lists hanging off a tweet. */
export const tweetHandlers = defineReadHandlers({
  getBatchTweets: async (ctx) => {
    // Fetched first, then cut to what the balance covers: only tweets actually returned are charged.
    const found = await ctx.services.platform.getTweets(ctx.query.ids);
    const m = meter(ctx);
    const tweets = found.slice(0, found.length ? await m.affordable(found.length) : 0);
    await m.charge(tweets.length);
    return { tweets, has_next_page: false, next_cursor: '' } as const;
  },

  searchTweets: async (ctx) => {
    const q = ctx.query;
    const { platform } = ctx.services;
    const now = ctx.services.clock.now();
    const match = tweetMatcher(q);
    let members: Set<string> | undefined;
    if (q.listId) {
      const listId = q.listId;
      const read = async (p: PageRequest) => (await platform.listMembers(listId, p)) ?? { items: [] };
      members = new Set((await gather(read, LIST_MEMBERS_SCAN, undefined)).items.map((u) => u.id));
    }
    const keep = (t: Tweet) => match(t) && (!members || members.has(t.author?.id ?? ''));
    const text = q.advancedQuery ? `${q.q} ${q.advancedQuery}` : q.q;
    // A status URL as `q` answers that tweet; all digits answer the tweet with that id when there is one,
    // else they are searched as text (a year, a number).
    const ref = text.trim();
    const direct = TWEET_REF.test(ref) && !q.cursor ? await platform.getTweet(tweetIdOf(ref)) : undefined;
    const hit = direct && 'tweet' in direct ? direct.tweet : undefined;
    const urlOnly = direct !== undefined && !/^\d+$/.test(ref);
    const page = await coveragePage(ctx, {
      mode: q.mode,
      want: q.limit ?? 20,
      cursor: q.cursor,
      keep,
      idOf: (t) => t.id,
      totals: idRange,
      read: async (p) => {
        if (hit || urlOnly) return { items: hit ? [hit] : [] };
        const search = { ...toTweetFilters(q, now), q: text, queryType: q.queryType ?? 'Latest' } as const;
        return platform.searchTweets(search, p);
      },
    });
    return {
      ...pageB('tweets', page.items, page.nextCursor),
      ...(page.diagnostic && { diagnostic: { ...page.diagnostic, ...page.totals } }),
    };
  },

  lookupTweet: async (ctx) => {
    const tweet = await paidCall(ctx, () => requireTweet(ctx.services.platform, ctx.params.id));
    return { tweet, ...(tweet.author && { author: tweet.author }) };
  },

  getTweetFavoriters: async (ctx) => {
    const { platform } = ctx.services;
    const tweet = await requireTweet(platform, ctx.params.id);
    const filters = toUserFilters(ctx.query);
    return userPage(ctx, ctx.query, ctx.query.pageSize, (p) =>
      platform.favoriters(tweet.id, filters, p, callerAsUser(ctx)),
    );
  },

  getTweetRetweeters: async (ctx) => {
    const { platform } = ctx.services;
    const tweet = await requireTweet(platform, ctx.params.id);
    const filters = toUserFilters(ctx.query);
    return userPage(ctx, ctx.query, ctx.query.pageSize, (p) => platform.retweeters(tweet.id, filters, p));
  },

  getTweetQuotes: async (ctx) => {
    const q = ctx.query;
    const { platform } = ctx.services;
    const tweet = await requireTweet(platform, ctx.params.id);
    const filters = toTweetFilters(q, ctx.services.clock.now());
    // Quote tweets that are also replies are listed only when asked for.
    if (!q.includeReplies && !filters.replies) filters.replies = 'exclude';
    const page = await paidPage(ctx, {
      want: q.pageSize,
      cursor: q.cursor,
      keep: tweetMatcher(q),
      read: (p) => platform.quotes(tweet.id, filters, p),
    });
    return pageB('tweets', page.items, page.nextCursor);
  },

  getTweetThread: async (ctx) => {
    const q = ctx.query;
    const { platform } = ctx.services;
    const tweet = await requireTweet(platform, ctx.params.id);
    const filters = toTweetFilters(q, ctx.services.clock.now());
    const [own, extra] = [platformFilters(filters, false), tweetMatcher(q)];
    const page = await paidPage(ctx, {
      want: q.pageSize,
      cursor: q.cursor,
      keep: (t: Tweet) => own(t) && extra(t),
      read: (p) => platform.thread(tweet.id, p),
    });
    return pageB('tweets', page.items, page.nextCursor);
  },
});
