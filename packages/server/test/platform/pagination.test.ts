import { describe, expect, it } from 'vitest';
import { num } from '../../src/core/db/database.js';
import type { Tweet, UserProfile } from '../../src/core/platform/platform.js';
import { ENGINES, useNetwork, walk } from './network.js';

const score = (t: Tweet) =>
  (t.likeCount ?? 0) + 2 * (t.retweetCount ?? 0) + (t.replyCount ?? 0) + 2 * (t.quoteCount ?? 0);

function expectUnique(items: readonly { id: string }[]): void {
  expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
}

describe.each(ENGINES)('pagination on %s', (engine) => {
  const net = useNetwork(engine);

  it('walks every follower exactly once', async () => {
    const jack = (await net.platform.getUser('jack')) as UserProfile;
    const { items, pages } = await walk((page) => net.platform.followers(jack.id, {}, page), 7);
    expectUnique(items);
    const expected = await net.db.db
      .selectFrom('sim_follows as f')
      .innerJoin('sim_users as u', 'u.id', 'f.follower_id')
      .select('u.id')
      .where('f.followee_id', '=', jack.id)
      .where('u.suspended', '=', 0)
      .execute();
    expect(items.map((u) => u.id).sort()).toEqual(expected.map((r) => r.id).sort());
    expect(pages).toBe(Math.max(1, Math.ceil(items.length / 7)));
  });

  it('walks the replies of the giveaway exactly once, newest first', async () => {
    const demo = (await net.platform.getUser('xsvc_demo')) as UserProfile;
    const giveaway = demo.pinnedTweetIds?.[0] as string;
    const { items } = await walk((page) => net.platform.replies(giveaway, {}, page), 9);
    expectUnique(items);
    const expected = await net.db.db
      .selectFrom('sim_tweets as t')
      .innerJoin('sim_users as a', 'a.id', 't.author_id')
      .select('t.id')
      .where('t.in_reply_to_id', '=', giveaway)
      .where('t.deleted', '=', 0)
      .where('a.suspended', '=', 0)
      .where('a.protected', '=', 0)
      .execute();
    expect(items.length).toBe(expected.length);
    expect(items.length).toBeGreaterThan(50);
    expect(items.every((t) => t.inReplyToId === giveaway)).toBe(true);
    for (let i = 1; i < items.length; i++) {
      expect(Date.parse((items[i] as Tweet).createdAt)).toBeLessThanOrEqual(
        Date.parse((items[i - 1] as Tweet).createdAt),
      );
    }
  });

  it('walks a search exactly once in Latest and in Top order', async () => {
    const latest = await walk(
      (page) => net.platform.searchTweets({ q: 'filter:media', queryType: 'Latest' }, page),
      13,
    );
    expectUnique(latest.items);
    const expected = await net.db.db
      .selectFrom('sim_tweets as t')
      .innerJoin('sim_users as a', 'a.id', 't.author_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('t.media', 'is not', null)
      .where('t.kind', '<>', 'retweet')
      .where('t.deleted', '=', 0)
      .where('a.suspended', '=', 0)
      .where('a.protected', '=', 0)
      .executeTakeFirstOrThrow();
    expect(latest.items.length).toBe(num(expected.n as number));
    const top = await walk(
      (page) => net.platform.searchTweets({ q: 'filter:media', queryType: 'Top' }, page),
      13,
    );
    expectUnique(top.items);
    expect(top.items.map((t) => t.id).sort()).toEqual(latest.items.map((t) => t.id).sort());
    for (let i = 1; i < top.items.length; i++)
      expect(score(top.items[i] as Tweet)).toBeLessThanOrEqual(score(top.items[i - 1] as Tweet));
  });

  it('walks a post-filtered search (whole words, exclusions) exactly once', async () => {
    const { items } = await walk(
      (page) => net.platform.searchTweets({ q: 'the -great', queryType: 'Latest' }, page),
      5,
    );
    expectUnique(items);
    const rows = await net.db.db
      .selectFrom('sim_tweets as t')
      .innerJoin('sim_users as a', 'a.id', 't.author_id')
      .select(['t.id', 't.text'])
      .where('t.kind', '<>', 'retweet')
      .where('t.deleted', '=', 0)
      .where('a.suspended', '=', 0)
      .where('a.protected', '=', 0)
      .execute();
    const word = (w: string) => new RegExp(`(^|[^\\p{L}\\p{N}_])${w}($|[^\\p{L}\\p{N}_])`, 'iu');
    const expected = rows.filter((r) => word('the').test(r.text) && !word('great').test(r.text));
    expect(items.map((t) => t.id).sort()).toEqual(expected.map((r) => r.id).sort());
    expect(items.length).toBeGreaterThan(20);
  });

  it('stays exact while tweets are posted between pages', async () => {
    const demo = (await net.platform.getUser('xsvc_demo')) as UserProfile;
    const before = await walk(
      (page) => net.platform.userTweets(demo.id, { includeReplies: true }, page),
      100,
    );
    const seen: Tweet[] = [];
    const first = await net.platform.userTweets(demo.id, { includeReplies: true }, { pageSize: 3 });
    seen.push(...first.items);
    net.clock.advance(60_000);
    await net.control.createTweet({ author: 'xsvc_demo', text: 'posted while someone was paging' });
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await net.platform.userTweets(demo.id, { includeReplies: true }, { pageSize: 3, cursor });
      seen.push(...page.items);
      cursor = page.nextCursor;
    }
    expectUnique(seen);
    expect(seen.map((t) => t.id)).toEqual(before.items.map((t) => t.id));
  });

  it('walks a conversation oldest first and list members by account age', async () => {
    const demo = (await net.platform.getUser('xsvc_demo')) as UserProfile;
    const thread = (await net.platform.userTweets(demo.id, {}, { pageSize: 50 })).items.find((t) =>
      t.text.includes('thread'),
    );
    const { items } = await walk((page) => net.platform.thread(thread?.id as string, page), 2);
    expectUnique(items);
    expect(items[0]?.id).toBe(thread?.id);
    for (let i = 1; i < items.length; i++) {
      expect(Date.parse((items[i] as Tweet).createdAt)).toBeGreaterThanOrEqual(
        Date.parse((items[i - 1] as Tweet).createdAt),
      );
    }
    const list = await net.db.db
      .selectFrom('sim_lists')
      .select('id')
      .where('owner_id', '=', demo.id)
      .executeTakeFirstOrThrow();
    const members = await walk(async (page) => net.platform.listMembers(list.id, page), 2);
    expectUnique(members.items);
    expect(members.items.length).toBeGreaterThanOrEqual(6);
  });
});
