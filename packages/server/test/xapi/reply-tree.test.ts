import { describe, expect, it } from 'vitest';
import type { ReplyNode } from '../../src/core/platform/platform.js';
import { MAX_CONVERSATION_PAGES } from '../../src/platform/xapi/reply-tree.js';
import { twitter, twitterDev } from './fixtures/users.js';
import { platform, rejection, seen, useXServer, xget } from './helpers.js';

const server = useXServer();

const ROOT = '1700000000000000000';
/** Two days after ROOT (2023-09-08): the conversation is within recent search's 7 days. */
const TREE_NOW = Date.UTC(2023, 8, 10);
/** A post of the conversation of ROOT replying to `parent` (X's shape: a `replied_to` reference). */
function post(id: string, parent: string | undefined, author = twitterDev.id) {
  return {
    id,
    text: `post ${id}`,
    author_id: author,
    conversation_id: ROOT,
    created_at: '2026-04-28T10:00:00.000Z',
    ...(parent && {
      referenced_posts: [{ type: 'replied_to', id: parent }],
      in_reply_to_user_id: twitter.id,
    }),
  };
}

// ROOT ─ r1 ─ r1a ─ r1a1
//      │     └ r1b
//      └ r2
const root = post(ROOT, undefined, twitter.id);
const [r1, r2, r1a, r1b, r1a1] = [
  '1700000000000000010',
  '1700000000000000020',
  '1700000000000000030',
  '1700000000000000040',
  '1700000000000000050',
];
const conversation = [
  post(r1a1 as string, r1a),
  post(r1b as string, r1),
  post(r1a as string, r1),
  post(r2 as string, ROOT),
  post(r1 as string, ROOT),
];
const includes = { users: [twitterDev, twitter] };

/** The root lookup and a recent search that serves the conversation two posts a page (newest first). */
function handlers(pages = conversation) {
  return [
    xget('/2/tweets/:id', (url) =>
      url.pathname.endsWith(ROOT) ? { data: root, includes } : { errors: [{ title: 'Not Found Error' }] },
    ),
    xget('/2/tweets/search/recent', (url) => {
      expect(url.searchParams.get('query')).toBe(`conversation_id:${ROOT}`);
      const at = Number(url.searchParams.get('next_token') ?? 0);
      const next = at + 2 < pages.length ? { next_token: String(at + 2) } : {};
      return { data: pages.slice(at, at + 2), includes, meta: { result_count: 2, ...next } };
    }),
  ];
}

const ids = (nodes: ReplyNode[]) => nodes.map((n) => [n.tweet.id, n.depth]);

describe('reply tree through the X API', () => {
  it("rebuilds the tree from the conversation's posts, in thread order with depths", async () => {
    server.use(...handlers());
    const tree = await platform({ now: () => TREE_NOW }).replyTree(
      ROOT,
      { minDepth: 1, maxDepth: 10, order: 'oldest' },
      { pageSize: 20 },
    );
    expect(ids(tree.items)).toEqual([
      [r1, 1],
      [r1a, 2],
      [r1a1, 3],
      [r1b, 2],
      [r2, 1],
    ]);
    expect(tree.nextCursor).toBeUndefined();
    // The whole conversation was read: 3 search pages of 2.
    expect(seen.filter((u) => u.pathname.endsWith('/search/recent'))).toHaveLength(3);
  });

  it('bounds the depth, skips levels under minDepth, orders siblings latest first, and pages', async () => {
    server.use(...handlers());
    const p = platform({ now: () => TREE_NOW });
    const shallow = await p.replyTree(ROOT, { minDepth: 2, maxDepth: 2, order: 'latest' }, { pageSize: 20 });
    expect(ids(shallow.items)).toEqual([
      [r1b, 2],
      [r1a, 2],
    ]);
    const first = await p.replyTree(ROOT, { minDepth: 1, maxDepth: 10, order: 'oldest' }, { pageSize: 2 });
    expect(ids(first.items)).toEqual([
      [r1, 1],
      [r1a, 2],
    ]);
    const rest = await p.replyTree(
      ROOT,
      { minDepth: 1, maxDepth: 10, order: 'oldest' },
      { pageSize: 10, cursor: first.nextCursor },
    );
    expect(ids(rest.items)).toEqual([
      [r1a1, 3],
      [r1b, 2],
      [r2, 1],
    ]);
  });

  it('refuses a conversation too long to walk, and cursors it did not issue', async () => {
    const long = Array.from({ length: MAX_CONVERSATION_PAGES * 2 + 1 }, (_, i) =>
      post(String(1700000000000001000n + BigInt(i)), ROOT),
    );
    server.use(...handlers(long));
    const err = await rejection(
      platform({ now: () => TREE_NOW }).replyTree(
        ROOT,
        { minDepth: 1, maxDepth: 3, order: 'oldest' },
        { pageSize: 20 },
      ),
    );
    expect(err).toMatchObject({ code: 'x_api_unavailable' });
    expect(err.message).toContain('scope=direct');
    const bad = await rejection(
      platform({ now: () => TREE_NOW }).replyTree(
        ROOT,
        { minDepth: 1, maxDepth: 3, order: 'oldest' },
        { pageSize: 20, cursor: 'abc' },
      ),
    );
    expect(bad).toMatchObject({ status: 400 });
  });
});
