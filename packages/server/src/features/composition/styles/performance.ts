import type { schemas } from '@xsvc/sdk/contract';
import { meter } from '../../../core/billing/metering.js';
import type { HandlerContext } from '../../../core/http/handler.js';
import type { Tweet } from '../../../core/platform/platform.js';
import { type StyleRow, styleTweets } from './repository.js';

/** Ids of platform tweets (custom sample tweets, `custom-1`..., have no engagement to read). */
const PLATFORM_ID = /^\d{1,25}$/;

/** The engagement counts of a platform tweet, leaving out the ones it does not carry. */
function counts(t: Tweet): Partial<schemas.StylePerformanceTweet> {
  const out: Partial<schemas.StylePerformanceTweet> = {};
  if (t.likeCount !== undefined) out.likeCount = t.likeCount;
  if (t.retweetCount !== undefined) out.retweetCount = t.retweetCount;
  if (t.replyCount !== undefined) out.replyCount = t.replyCount;
  if (t.quoteCount !== undefined) out.quoteCount = t.quoteCount;
  if (t.viewCount !== undefined) out.viewCount = t.viewCount;
  if (t.bookmarkCount !== undefined) out.bookmarkCount = t.bookmarkCount;
  return out;
}

/**
 * The current engagement of a style's tweets, read from the platform (1 credit per tweet measured, the
 * operation's per-result price). Fewer tweets are measured when credits cannot cover them all (spec 8.2);
 * tweets not measured (custom ones, deleted ones, unaffordable ones) are listed without counts, and
 * `tweetCount` is the number measured. None affordable, with something to measure, is 402.
 */
export async function measureStyle(ctx: HandlerContext, row: StyleRow): Promise<schemas.StylePerformance> {
  const tweets = styleTweets(row);
  const ids = tweets.filter((t) => PLATFORM_ID.test(t.id)).map((t) => t.id);
  const m = meter(ctx);
  const affordable = ids.length ? await m.affordable(ids.length) : 0;
  const found = affordable ? await ctx.services.platform.getTweets(ids.slice(0, affordable)) : [];
  const byId = new Map(found.map((t) => [t.id, t]));
  await m.charge(byId.size);
  return {
    xUsername: row.username_lower,
    tweetCount: byId.size,
    tweets: tweets.map((t) => {
      const live = byId.get(t.id);
      return live ? { ...t, ...counts(live) } : t;
    }),
  };
}
