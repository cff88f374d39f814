import { HttpError } from '../../core/http/errors.js';
import { type PageReader, pageB } from '../../core/paging/gather.js';
import type { ReplyNode, Tweet } from '../../core/platform/platform.js';
import { defineReadHandlers } from '../../core/reads/define.js';
import { toTweetFilters, tweetMatcher } from '../../core/reads/filters.js';
import { requireTweet } from '../../core/reads/lookups.js';
import { tweetMatcher as platformFilters } from '../../platform/xapi/filters.js';
import { coveragePage } from './walks/page.js';
import type { Totals } from './walks/types.js';

/** Default and most replies a `mode=complete` read collects, and the platform pages it may read. */
const COMPLETE_DEFAULT = 1_000;
const COMPLETE_MAX_PAGES = 250;
/** Deepest reply level a tree walk follows: a larger `maxDepth` is read as this. */
export const MAX_REPLY_DEPTH = 100;

type Sort = 'relevance' | 'latest' | 'oldest' | 'likes';
type Scope = 'all' | 'direct' | 'nested';

/** The page in the asked order; the platform lists direct replies newest first, so `sort` orders within the page. */
function sorted(items: Tweet[], sort: Sort | undefined): Tweet[] {
  if (sort === 'oldest') return [...items].reverse();
  if (sort === 'likes') return [...items].sort((a, b) => (b.likeCount ?? 0) - (a.likeCount ?? 0));
  return items;
}

/** Stop reasons after which a `mode=complete` answer holds what was asked: every reply, or `limit` of them. */
const FINISHED: ReadonlySet<string> = new Set(['exhausted', 'result_limit']);

/**
 * 424 `replies_incomplete` (reference `IncompleteTweetReplies`): the walk stopped before the conversation
 * or `limit` was reached (deadline, page budget, a stalled or failing platform). The body carries everything
 * the answer collected (and charged), the diagnostic, and `next_cursor` to continue the same walk.
 */
function incomplete(body: Record<string, unknown>, stop: string): HttpError {
  return new HttpError(
    'replies_incomplete',
    `the replies walk stopped early (${stop}); the replies collected so far are in this answer, and ` +
      'next_cursor continues the walk',
    body,
  );
}

function invalidOptions(message: string): HttpError {
  return new HttpError('invalid_reply_options', message);
}

/**
 * The replies a request walks. `scope` defaults to `direct`, or to `all` when `maxDepth` asks for more than
 * one level. Contradictions are 400 `invalid_reply_options`: `scope=direct` with `maxDepth` above 1,
 * `scope=nested` with `maxDepth=1` (nested replies start at level 2), and `sort=likes` on a tree (the tree
 * has its own order; likes order direct replies only).
 */
export function replyScope(q: {
  scope?: Scope | undefined;
  maxDepth?: number | undefined;
  sort?: Sort | undefined;
}): {
  scope: Scope;
  maxDepth: number;
} {
  const deep = q.maxDepth !== undefined && q.maxDepth > 1;
  const scope = q.scope ?? (deep ? 'all' : 'direct');
  if (scope === 'direct' && deep) {
    throw invalidOptions('maxDepth above 1 needs scope=all or scope=nested: direct replies are level 1');
  }
  if (scope === 'nested' && q.maxDepth === 1) {
    throw invalidOptions('scope=nested starts at level 2 (replies to replies): maxDepth must be at least 2');
  }
  if (scope !== 'direct' && q.sort === 'likes') {
    throw invalidOptions(
      'sort=likes orders direct replies only; a reply tree is in thread order (oldest or latest)',
    );
  }
  return { scope, maxDepth: Math.min(q.maxDepth ?? MAX_REPLY_DEPTH, MAX_REPLY_DEPTH) };
}

/** Reply counts of a walk so far: direct and nested replies returned, deepest level reached. */
function replyTotals(before: Totals, items: readonly ReplyNode[]): Totals {
  const count = (key: string) => (typeof before[key] === 'number' ? (before[key] as number) : 0);
  const direct = items.filter((n) => n.depth === 1).length;
  return {
    directReplyCount: count('directReplyCount') + direct,
    nestedReplyCount: count('nestedReplyCount') + items.length - direct,
    maxDepthReached: Math.max(count('maxDepthReached'), ...items.map((n) => n.depth)),
  };
}

/**
 * Replies to a tweet (spec 4.10, reference `getTweetReplies`):
 * - `scope=direct` (default): the platform's direct replies (newest first; `sort` orders each page).
 * - `scope=all`: the reply tree to `maxDepth` levels (default and cap {@link MAX_REPLY_DEPTH}) in thread
 *   order, each reply followed by the replies to it, siblings oldest first (`sort=latest`: newest first).
 *   A page's direct replies are in `tweets`, its deeper ones in `nested_replies`; join them by
 *   `inReplyToId` (a sub-thread may continue on the next page).
 * - `scope=nested`: the same walk without the direct replies: `tweets` holds levels 2 to `maxDepth`.
 * Filters apply to each reply returned, never to the walk (a filtered-out reply's replies still come).
 * `mode=complete` walks with resumable coverage (see `coveragePage`) up to `limit` replies an answer and
 * reports a diagnostic with the counts so far; when the walk stops before that it answers 424
 * `replies_incomplete` carrying the same page (nothing collected is lost; `next_cursor` continues). `includeOriginalPost` puts the tweet itself first on the
 * first page, as context, free of charge; every reply returned costs 1 credit.
 */
export const replyHandlers = defineReadHandlers({
  getTweetReplies: async (ctx) => {
    const q = ctx.query;
    const { platform } = ctx.services;
    const root = await requireTweet(platform, ctx.params.id);
    const { scope, maxDepth } = replyScope(q);
    const filters = toTweetFilters(q, ctx.services.clock.now());
    const [own, extra] = [platformFilters(filters, false), tweetMatcher(q)];
    const keep = ({ tweet: t }: ReplyNode) =>
      extra(t) &&
      (scope === 'direct' || own(t)) &&
      (!q.excludeOriginalAuthor || t.author?.id !== root.author?.id) &&
      (!q.hasMediaOnly || (t.media?.length ?? 0) > 0);
    const read: PageReader<ReplyNode> =
      scope === 'direct'
        ? async (p) => {
            const r = await platform.replies(root.id, filters, p);
            return { items: r.items.map((tweet) => ({ tweet, depth: 1 })), nextCursor: r.nextCursor };
          }
        : (p) =>
            platform.replyTree(
              root.id,
              {
                minDepth: scope === 'nested' ? 2 : 1,
                maxDepth,
                order: q.sort === 'latest' ? 'latest' : 'oldest',
              },
              p,
            );
    const complete = q.mode === 'complete';
    const page = await coveragePage(ctx, {
      mode: q.mode === 'complete' ? 'coverage' : q.mode,
      want: complete ? (q.limit ?? COMPLETE_DEFAULT) : q.pageSize,
      cursor: q.cursor,
      keep,
      idOf: (n) => n.tweet.id,
      totals: replyTotals,
      read,
      ...(complete && { maxPages: COMPLETE_MAX_PAGES }),
    });
    const first = q.includeOriginalPost && !q.cursor ? [root] : [];
    const at = (deep: boolean) => page.items.filter((n) => n.depth > 1 === deep).map((n) => n.tweet);
    const tweets = scope === 'direct' ? sorted(at(false), q.sort) : scope === 'all' ? at(false) : at(true);
    const body = {
      ...pageB('tweets', [...first, ...tweets], page.nextCursor),
      ...(scope === 'all' && { nested_replies: at(true) }),
      ...(page.diagnostic && {
        diagnostic: {
          ...page.diagnostic,
          ...page.totals,
          ...(root.replyCount !== undefined && { expectedReplies: root.replyCount }),
        },
      }),
    };
    const stop = page.diagnostic?.stopReason;
    if (complete && stop !== undefined && !FINISHED.has(stop)) throw incomplete(body, stop);
    return body;
  },
});
