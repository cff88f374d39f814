import { num } from '../../core/db/database.js';
import type { PageRequest, PlatformPage, ReplyNode, ReplyTreeOptions } from '../../core/platform/platform.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { InvalidCursorError } from './errors.js';
import { hydrateTweets } from './hydrate.js';
import { compareIds } from './ids.js';
import { chunks, loadTweets } from './lookup.js';
import { pageSize } from './paging.js';
import type { ReadContext } from './read-context.js';
import { parseTweetRef } from './refs.js';

/** One reply of the tree: where it hangs, when it was posted, whether it may be shown. */
interface TreeNode {
  id: string;
  parentId: string;
  createdAt: number;
  depth: number;
  visible: boolean;
}

/**
 * Loads the reply tree under `rootId` level by level (one indexed `in_reply_to_id in (…)` query per level
 * and chunk), down to `maxDepth`. Returns the replies to each tweet, keyed by the replied-to id.
 */
async function loadLevels(
  ctx: ReadContext,
  rootId: string,
  maxDepth: number,
): Promise<Map<string, TreeNode[]>> {
  const children = new Map<string, TreeNode[]>();
  let level = [rootId];
  for (let depth = 1; depth <= maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const chunk of chunks(level)) {
      const rows = await ctx.db
        .selectFrom('sim_tweets as t')
        .innerJoin('sim_users as a', 'a.id', 't.author_id')
        .select(['t.id', 't.in_reply_to_id', 't.created_at', 't.deleted', 'a.suspended', 'a.protected'])
        .where('t.in_reply_to_id', 'in', chunk)
        .where('t.kind', '<>', 'retweet')
        .execute();
      for (const r of rows) {
        const parentId = r.in_reply_to_id ?? '';
        const node: TreeNode = {
          id: r.id,
          parentId,
          createdAt: num(r.created_at),
          depth,
          visible: !num(r.deleted) && !num(r.suspended) && !num(r.protected),
        };
        const list = children.get(parentId);
        if (list) list.push(node);
        else children.set(parentId, [node]);
        next.push(r.id);
      }
    }
    level = next;
  }
  return children;
}

/** The tree in thread order: each reply followed by the replies to it, siblings by time (then id). */
function preOrder(children: Map<string, TreeNode[]>, rootId: string, order: 'oldest' | 'latest'): TreeNode[] {
  const sign = order === 'oldest' ? 1 : -1;
  const sortedKids = (id: string) =>
    [...(children.get(id) ?? [])].sort(
      (a, b) => sign * (a.createdAt - b.createdAt || compareIds(a.id, b.id)),
    );
  const out: TreeNode[] = [];
  const stack = sortedKids(rootId).reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    out.push(node);
    stack.push(...sortedKids(node.id).reverse());
  }
  return out;
}

/**
 * A page of the reply tree of a tweet (see `Platform.replyTree`). The cursor names the last reply returned,
 * so the walk continues after it in thread order even when replies are added meanwhile: new replies that
 * sort after the cursor are returned, ones that sort before it are not (as with every keyset listing).
 */
export async function replyTreePage(
  ctx: ReadContext,
  tweetId: string,
  opts: ReplyTreeOptions,
  page: PageRequest,
): Promise<PlatformPage<ReplyNode>> {
  const rootId = parseTweetRef(tweetId) ?? '';
  const scope = `tweets:reply_tree:${rootId}:${opts.order}`;
  const after = decodeCursor(scope, page.cursor);
  if (!rootId || opts.maxDepth < 1) return { items: [] };
  const walk = preOrder(await loadLevels(ctx, rootId, opts.maxDepth), rootId, opts.order);
  let start = 0;
  if (after) {
    const at = walk.findIndex((n) => n.id === after[1]);
    if (at < 0) throw new InvalidCursorError('invalid cursor: the reply it continues after is gone');
    start = at + 1;
  }
  const size = pageSize(page);
  const picked: TreeNode[] = [];
  let more = false;
  for (let i = start; i < walk.length; i++) {
    const node = walk[i] as TreeNode;
    if (!node.visible || node.depth < opts.minDepth) continue;
    if (picked.length === size) {
      more = true;
      break;
    }
    picked.push(node);
  }
  const rows = await loadTweets(
    ctx.db,
    picked.map((n) => n.id),
  );
  const tweets = await hydrateTweets(
    ctx.db,
    picked.flatMap((n) => rows.get(n.id) ?? []),
    ctx.clock.now(),
  );
  const byId = new Map(tweets.map((t) => [t.id, t]));
  const items = picked.flatMap((n) => {
    const tweet = byId.get(n.id);
    return tweet ? [{ tweet, depth: n.depth }] : [];
  });
  const last = picked.at(-1);
  return more && last ? { items, nextCursor: encodeCursor(scope, [last.createdAt, last.id]) } : { items };
}
