import { meter, paidPage } from '../../core/billing/metering.js';
import type { HandlerContext } from '../../core/http/handler.js';
import { notFound } from '../../core/http/platform-errors.js';
import type { PageRequest, PlatformPage, Tweet, TweetFilters } from '../../core/platform/platform.js';
import { defineReadHandlers } from '../../core/reads/define.js';
import { unixSeconds } from '../../core/reads/filters.js';
import { requireReadableUser, requireTweet, tweetIdOf } from '../../core/reads/lookups.js';
import { tweetMatcher as platformFilters } from '../../platform/xapi/filters.js';
import { type Analyzed, analyze, type Post } from './viral-analysis.js';
import { summarize } from './viral-summary.js';

/** The request body, as the contract parsed it (exactly one source). */
interface Body {
  tweetIds?: string[];
  texts?: string[];
  query?: string | undefined;
  username?: string | undefined;
  listId?: string | undefined;
  quotesOf?: string | undefined;
  repliesTo?: string | undefined;
  sinceTime?: string | number | undefined;
  untilTime?: string | number | undefined;
  limit?: number;
  queryType?: 'Latest' | 'Top' | undefined;
  cursor?: string | undefined;
  baseline?:
    | {
        id?: string | undefined;
        tweet?: { id: string } | undefined;
        answers: Record<string, string | number | null>;
      }[]
    | undefined;
}

interface Unanalyzed {
  id: string;
  status: string;
  reason: string;
}

/** What one source gave: posts to analyze (already paid for), posts left out, the search's continuation. */
interface Collected {
  posts: Post[];
  unanalyzed: Unanalyzed[];
  nextCursor: string | undefined;
  targets: Record<string, unknown>;
}

const NOT_ANALYZED: Record<string, string> = {
  deleted: 'the tweet was deleted',
  author_suspended: 'the author is suspended',
  protected: 'the tweet belongs to a protected account',
  not_found: 'no tweet with this id',
};
const NO_CREDITS = 'not enough credits to analyze it';

/** Drafts: as many as credits cover, ids `text:1`, `text:2`, ... in request order. */
async function fromTexts(ctx: HandlerContext, texts: string[]): Promise<Collected> {
  const n = await meter(ctx).affordable(texts.length);
  const drafts = texts.map((text, i) => ({ kind: 'draft' as const, id: `text:${i + 1}`, text }));
  return {
    posts: drafts.slice(0, n),
    unanalyzed: drafts.slice(n).map((d) => ({ id: d.id, status: 'skipped', reason: NO_CREDITS })),
    nextCursor: undefined,
    targets: { source: 'texts', requested: texts.length },
  };
}

/** Published posts by id or URL: the visible ones as far as credits cover; the others say why not. */
async function fromTweetIds(ctx: HandlerContext, refs: string[]): Promise<Collected> {
  const { platform } = ctx.services;
  const wanted = [...new Map(refs.map((ref) => [tweetIdOf(ref), ref])).entries()];
  const found = new Map((await platform.getTweets(wanted.map(([id]) => id))).map((t) => [t.id, t]));
  const unanalyzed: Unanalyzed[] = [];
  const visible: Tweet[] = [];
  for (const [id, ref] of wanted) {
    const tweet = found.get(id);
    if (tweet) visible.push(tweet);
    else {
      const lookup = await platform.getTweet(id);
      const status = 'missing' in lookup ? lookup.missing : 'not_found';
      unanalyzed.push({ id: ref, status, reason: NOT_ANALYZED[status] ?? status });
    }
  }
  const n = visible.length ? await meter(ctx).affordable(visible.length) : 0;
  for (const t of visible.slice(n)) unanalyzed.push({ id: t.id, status: 'skipped', reason: NO_CREDITS });
  return {
    posts: visible.slice(0, n).map((tweet) => ({ kind: 'tweet', tweet })),
    unanalyzed,
    nextCursor: undefined,
    targets: { source: 'tweetIds', requested: refs.length },
  };
}

/**
 * The search source: every search field combined. Quotes of a post, replies to a post or a list's tweets
 * are the listing when named (in that order of preference); otherwise the platform search. The account and
 * time window narrow any of them; `query` words must all appear in a listing's tweets. A protected account
 * is 403 `x_account_protected`, free.
 */
async function fromSearch(ctx: HandlerContext, body: Body): Promise<Collected> {
  const { platform } = ctx.services;
  const user = body.username ? await requireReadableUser(platform, body.username) : undefined;
  const filters: TweetFilters = {
    ...(user && { fromUser: user.username }),
    ...(body.sinceTime !== undefined && { sinceTime: unixSeconds(body.sinceTime) }),
    ...(body.untilTime !== undefined && { untilTime: unixSeconds(body.untilTime) }),
  };
  const words = (body.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const matches = platformFilters(filters, false);
  const inListing = (t: Tweet) => matches(t) && words.every((w) => t.text.toLowerCase().includes(w));
  let read: (p: PageRequest) => Promise<PlatformPage<Tweet>>;
  let keep: (t: Tweet) => boolean = () => true;
  if (body.quotesOf || body.repliesTo) {
    const target = await requireTweet(platform, (body.quotesOf ?? body.repliesTo) as string);
    read = (p) =>
      body.quotesOf ? platform.quotes(target.id, filters, p) : platform.replies(target.id, filters, p);
    keep = inListing;
  } else if (body.listId) {
    const listId = body.listId;
    read = async (p) => {
      const page = await platform.listTweets(listId, p);
      if (!page) throw notFound('list', listId);
      return page;
    };
    keep = inListing;
  } else {
    read = (p) =>
      platform.searchTweets({ ...filters, q: body.query ?? '', queryType: body.queryType ?? 'Latest' }, p);
  }
  const page = await paidPage(ctx, { want: body.limit ?? 20, cursor: body.cursor, read, keep });
  const fields = ['query', 'username', 'listId', 'quotesOf', 'repliesTo', 'sinceTime', 'untilTime'] as const;
  const given = Object.fromEntries(fields.flatMap((f) => (body[f] === undefined ? [] : [[f, body[f]]])));
  return {
    posts: page.items.map((tweet) => ({ kind: 'tweet', tweet })),
    unanalyzed: [],
    nextCursor: page.nextCursor,
    targets: { source: 'search', ...given, read: page.items.length },
  };
}

/** `POST /x/analysis/viral-score` (spec 4.11); the rules are in `viral-rules.ts`. 2 credits per analyzed post. */
export const viralHandlers = defineReadHandlers({
  viralScore: async (ctx) => {
    const body = ctx.body as Body;
    const collected = body.texts
      ? await fromTexts(ctx, body.texts)
      : body.tweetIds
        ? await fromTweetIds(ctx, body.tweetIds)
        : await fromSearch(ctx, body);
    const baseline = body.baseline && {
      empty: body.baseline.length === 0,
      rows: new Map(body.baseline.map((r) => [(r.id ?? r.tweet?.id) as string, r.answers])),
    };
    const results: Analyzed[] = collected.posts.map((p) => analyze(p, baseline));
    // The search source was charged by its paged read; the others are charged here, for what was analyzed.
    if (body.texts || body.tweetIds) await meter(ctx).charge(results.length);
    return {
      results,
      unanalyzed: collected.unanalyzed,
      analysisSummary: summarize(results, {
        skipped: collected.unanalyzed.length,
        targets: collected.targets,
        accountSearch: !body.texts && !body.tweetIds && body.username !== undefined,
        baseline: baseline !== undefined,
      }),
      has_next_page: collected.nextCursor !== undefined,
      next_cursor: collected.nextCursor ?? '',
    };
  },
});
