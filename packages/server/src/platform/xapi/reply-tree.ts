import {
  type PageRequest,
  type Platform,
  type PlatformPage,
  PlatformUnavailableError,
  type ReplyNode,
  type ReplyTreeOptions,
  type Tweet,
} from '../../core/platform/platform.js';
import { XApiRequestError } from './client.js';

/** Search pages (of 100 posts) read to gather a conversation: at most 500 posts. */
export const MAX_CONVERSATION_PAGES = 5;
const SEARCH_PAGE_SIZE = 100;

function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function encode(scope: string, id: string): string {
  return Buffer.from(JSON.stringify({ s: scope, id }), 'utf8').toString('base64url');
}

/** The id a cursor of `scope` continues after; X cannot check a cursor of this server's, so this does. */
function decode(scope: string, cursor: string | undefined): string | undefined {
  if (!cursor) return undefined;
  try {
    if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) throw new Error('not base64url');
    const p = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown; id?: unknown };
    if (p.s === scope && typeof p.id === 'string' && /^\d{1,25}$/.test(p.id)) return p.id;
  } catch {
    // Falls through to the one answer for every bad cursor.
  }
  throw new XApiRequestError('cursor: not a cursor of this reply tree', 400, undefined);
}

/**
 * Every post of a conversation the search finds (recent search: the last 7 days; full archive), at most
 * {@link MAX_CONVERSATION_PAGES} pages; a longer conversation is refused with `x_api_unavailable` rather than
 * walked in part.
 */
async function conversation(
  search: (q: string, page: PageRequest) => Promise<PlatformPage<Tweet>>,
  conversationId: string,
): Promise<Tweet[]> {
  const posts: Tweet[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_CONVERSATION_PAGES; pages++) {
    const res = await search(`conversation_id:${conversationId}`, {
      pageSize: SEARCH_PAGE_SIZE,
      ...(cursor && { cursor }),
    });
    posts.push(...res.items);
    if (!res.nextCursor) return posts;
    cursor = res.nextCursor;
  }
  throw new PlatformUnavailableError(
    'x_api_unavailable',
    `the conversation holds more than ${MAX_CONVERSATION_PAGES * SEARCH_PAGE_SIZE} posts: nested replies cannot be walked through the X API's search; read scope=direct`,
  );
}

/**
 * The reply tree of a tweet through the X API v2 (see `Platform.replyTree`). v2 has no replies endpoint:
 * the tree is rebuilt from the posts of the tweet's conversation (a `conversation_id:` recent search, so
 * replies older than 7 days are missing) linked by their `replied_to` reference. Each page re-reads the
 * conversation (at most 500 posts, else `x_api_unavailable`); the cursor names the last reply returned.
 */
export async function xReplyTree(
  platform: Pick<Platform, 'getTweet'>,
  search: (q: string, page: PageRequest) => Promise<PlatformPage<Tweet>>,
  tweetId: string,
  opts: ReplyTreeOptions,
  page: PageRequest,
): Promise<PlatformPage<ReplyNode>> {
  const scope = `xapi:reply_tree:${tweetId}:${opts.order}`;
  const after = decode(scope, page.cursor);
  const found = await platform.getTweet(tweetId);
  if (!('tweet' in found)) return { items: [] };
  const root = found.tweet;
  const posts = await conversation(search, root.conversationId ?? root.id);
  const children = new Map<string, Tweet[]>();
  for (const t of posts) {
    if (!t.inReplyToId || t.id === root.id) continue;
    const list = children.get(t.inReplyToId);
    if (list) list.push(t);
    else children.set(t.inReplyToId, [t]);
  }
  const sign = opts.order === 'oldest' ? 1 : -1;
  const kids = (id: string) =>
    [...(children.get(id) ?? [])].sort((a, b) => sign * compareIds(a.id, b.id)).reverse();
  const walk: ReplyNode[] = [];
  const stack = kids(root.id).map((tweet) => ({ tweet, depth: 1 }));
  for (let node = stack.pop(); node; node = stack.pop()) {
    walk.push(node);
    if (node.depth < opts.maxDepth)
      stack.push(...kids(node.tweet.id).map((tweet) => ({ tweet, depth: node.depth + 1 })));
  }
  const start = after === undefined ? 0 : walk.findIndex((n) => n.tweet.id === after) + 1;
  if (after !== undefined && start === 0) {
    throw new XApiRequestError('cursor: the reply it continues after is no longer found', 400, undefined);
  }
  const size = Math.max(1, Math.floor(page.pageSize) || 20);
  const rest = walk.slice(start).filter((n) => n.depth >= opts.minDepth);
  const items = rest.slice(0, size);
  const last = items.at(-1);
  return rest.length > size && last ? { items, nextCursor: encode(scope, last.tweet.id) } : { items };
}
