import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';
import { ledgerRows, network } from './fixtures.js';

/**
 * A conversation built with the control endpoints (each post one minute after the previous one):
 *
 *   root (jack)
 *   ├─ a            ├─ b            └─ c (protected author: hidden)
 *   │  └─ a1        │  └─ b1           └─ c1
 *   │     └─ a1x
 */
interface Tree {
  root: string;
  a: string;
  a1: string;
  a1x: string;
  b: string;
  b1: string;
  c: string;
  c1: string;
}

describe.each(ENGINES)('nested replies: the reply tree with maxDepth (%s)', (engine) => {
  let t: TestServer;
  let tree: Tree;
  let ownerId: string;

  async function post(author: string, text: string, inReplyToId?: string): Promise<string> {
    t.clock.advance(60_000);
    const r = await t.request('POST', '/sim/tweets', {
      body: { author, text, ...(inReplyToId && { inReplyToId }) },
    });
    expect(r.status).toBe(201);
    return r.body.id as string;
  }

  beforeAll(async () => {
    t = await startTestServer(engine);
    ownerId = (await network(t)).ownerId;
    const made = await t.request('POST', '/sim/users', {
      body: { username: 'locked_tree', protected: true },
    });
    expect(made.status).toBe(201);
    const root = await post('jack', 'a question for the tree');
    const a = await post('xsvc_demo', 'first answer', root);
    const b = await post('newsroom', 'second answer', root);
    const a1 = await post('jack', 'reply to the first answer', a);
    const c = await post('locked_tree', 'a hidden answer', root);
    const b1 = await post('xsvc_demo', 'reply to the second answer', b);
    const a1x = await post('newsroom', 'three levels down', a1);
    const c1 = await post('jack', 'reply to the hidden answer', c);
    tree = { root, a, a1, a1x, b, b1, c, c1 };
  });
  afterAll(async () => t?.close());

  const replies = async (query: string, status = 200) => {
    const r = await t.request('GET', `/api/v1/x/tweets/${tree.root}/replies?${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    return r.body;
  };
  const ids = (list: { id: string }[]) => list.map((x) => x.id);

  it('scope=all walks the tree in thread order: direct replies in tweets, deeper ones in nested_replies', async () => {
    const all = await replies('scope=all');
    expect(ids(all.tweets)).toEqual([tree.a, tree.b]);
    // Pre-order: a's sub-thread, then b's, then the hidden c's reply (c itself is not shown).
    expect(ids(all.nested_replies)).toEqual([tree.a1, tree.a1x, tree.b1, tree.c1]);
    expect(all.nested_replies[1].inReplyToId).toBe(tree.a1);
    expect(all.has_next_page).toBe(false);
  });

  it('stops at maxDepth, and maxDepth alone implies scope=all', async () => {
    const two = await replies('maxDepth=2');
    expect(ids(two.tweets)).toEqual([tree.a, tree.b]);
    expect(ids(two.nested_replies)).toEqual([tree.a1, tree.b1, tree.c1]);
    const one = await replies('scope=all&maxDepth=1');
    expect(ids(one.tweets)).toEqual([tree.a, tree.b]);
    expect(one.nested_replies).toEqual([]);
  });

  it('scope=nested leaves the direct replies out; sort=latest puts newer siblings first', async () => {
    const nested = await replies('scope=nested');
    expect(ids(nested.tweets)).toEqual([tree.a1, tree.a1x, tree.b1, tree.c1]);
    expect(nested.nested_replies).toBeUndefined();
    const latest = await replies('scope=all&sort=latest');
    expect(ids(latest.tweets)).toEqual([tree.b, tree.a]);
    expect(ids(latest.nested_replies)).toEqual([tree.c1, tree.b1, tree.a1, tree.a1x]);
  });

  it('walks the tree under a reply, not its whole conversation', async () => {
    const r = await t.request('GET', `/api/v1/x/tweets/${tree.a}/replies?scope=all`);
    expect(ids(r.body.tweets)).toEqual([tree.a1]);
    expect(ids(r.body.nested_replies)).toEqual([tree.a1x]);
  });

  it('pages the walk: every reply exactly once, charged once', async () => {
    const before = (await ledgerRows(t, ownerId, 'getTweetReplies')).length;
    const pages: string[][][] = [];
    let cursor = '';
    do {
      const page = await replies(
        `scope=all&pageSize=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      pages.push([ids(page.tweets), ids(page.nested_replies)]);
      cursor = page.next_cursor;
    } while (cursor);
    // Two replies a page, in thread order; a sub-thread continues on the next page (join by inReplyToId).
    expect(pages).toEqual([
      [[tree.a], [tree.a1]],
      [[tree.b], [tree.a1x]],
      [[], [tree.b1, tree.c1]],
    ]);
    const rows = (await ledgerRows(t, ownerId, 'getTweetReplies')).slice(before);
    expect(rows.reduce((n, r) => n + Number(r.units), 0)).toBe(6);
  });

  it('reports the counts and the deepest level in complete mode', async () => {
    const complete = await replies('scope=all&mode=complete&limit=100');
    expect(complete.diagnostic).toMatchObject({
      mode: 'coverage',
      complete: true,
      stopReason: 'exhausted',
      directReplyCount: 2,
      nestedReplyCount: 4,
      maxDepthReached: 3,
    });
  });

  it('applies filters to each reply, never to the walk', async () => {
    const jack = await replies('scope=all&fromUser=jack');
    expect(jack.tweets).toEqual([]);
    expect(ids(jack.nested_replies)).toEqual([tree.a1, tree.c1]);
  });

  it('refuses contradictory options with invalid_reply_options', async () => {
    for (const q of ['scope=direct&maxDepth=2', 'scope=nested&maxDepth=1', 'scope=all&sort=likes']) {
      const r = await replies(q, 400);
      expect(r.error).toBe('invalid_reply_options');
    }
    expect((await replies('maxDepth=0', 400)).error).toBe('invalid_input');
  });

  it("refuses a cursor of another tweet's tree", async () => {
    const first = await replies('scope=all&pageSize=1');
    const other = await t.request(
      'GET',
      `/api/v1/x/tweets/${tree.a}/replies?scope=all&cursor=${encodeURIComponent(first.next_cursor)}`,
    );
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('invalid_input');
  });
});
