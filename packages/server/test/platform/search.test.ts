import { describe, expect, it } from 'vitest';
import type { Tweet, TweetFilters } from '../../src/core/platform/platform.js';
import { ENGINES, useNetwork, walk } from './network.js';

describe.each(ENGINES)('searchTweets on %s', (engine) => {
  const net = useNetwork(engine);
  const search = async (q: string, filters: TweetFilters = {}, queryType: 'Latest' | 'Top' = 'Latest') =>
    (await walk((page) => net.platform.searchTweets({ q, queryType, ...filters }, page), 100)).items;
  const lower = (s: string | undefined) => s?.toLowerCase();

  it('from:, to:, @mention', async () => {
    const fromJack = await search('from:jack');
    expect(fromJack.length).toBeGreaterThan(3);
    expect(fromJack.every((t) => t.author?.username === 'jack' && !t.isRetweet)).toBe(true);
    expect(fromJack.map((t) => t.id)).toContain('20');
    expect(await search('from:nobody_at_all')).toEqual([]);
    const toDemo = await search('to:@xsvc_demo');
    expect(toDemo.length).toBeGreaterThan(50);
    expect(toDemo.every((t) => t.inReplyToUsername === 'xsvc_demo')).toBe(true);
    const mentions = await search('@XSVC_DEMO');
    expect(mentions.length).toBeGreaterThan(50);
    expect(mentions.every((t) => t.entities?.mentions?.some((m) => lower(m.username) === 'xsvc_demo'))).toBe(
      true,
    );
  });

  it('#hashtag, $cashtag, "exact phrase", -exclude, OR', async () => {
    const tags = await search('#typescript');
    expect(tags.length).toBeGreaterThan(10);
    expect(tags.every((t) => t.entities?.hashtags?.some((h) => lower(h.text) === 'typescript'))).toBe(true);
    const btc = await search('$BTC');
    expect(btc.length).toBeGreaterThan(0);
    expect(btc.every((t) => t.entities?.cashtags?.some((c) => c.text === 'BTC'))).toBe(true);
    const phrase = await search('"setting up my"');
    expect(phrase.map((t) => t.id)).toEqual(['20']);
    const all = await search('#typescript');
    const without = await search('#typescript -satisfies');
    expect(without.length).toBeLessThan(all.length);
    expect(without.every((t) => !/\bsatisfies\b/i.test(t.text))).toBe(true);
    const either = await search('from:jack OR from:newsroom');
    expect(new Set(either.map((t) => t.author?.username))).toEqual(new Set(['jack', 'newsroom']));
  });

  it('lang: and filter: operators, and their negations', async () => {
    const es = await search('lang:es');
    expect(es.length).toBeGreaterThan(10);
    expect(es.every((t) => t.lang === 'es')).toBe(true);
    const checks: [string, (t: Tweet) => boolean][] = [
      ['filter:media', (t) => (t.media?.length ?? 0) > 0],
      ['filter:images', (t) => !!t.media?.some((m) => m.type === 'photo')],
      ['filter:videos', (t) => !!t.media?.some((m) => m.type === 'video' || m.type === 'animated_gif')],
      ['filter:links', (t) => (t.entities?.urls?.length ?? 0) > 0],
      ['filter:replies', (t) => t.isReply === true],
      ['filter:quotes', (t) => t.isQuoteStatus === true],
      ['filter:retweets', (t) => t.isRetweet === true],
      ['-filter:replies', (t) => t.isReply === false],
    ];
    for (const [q, check] of checks) {
      const found = await search(q);
      expect(found.length, q).toBeGreaterThan(0);
      expect(found.every(check), q).toBe(true);
    }
    expect((await search('the')).some((t) => t.isRetweet)).toBe(false);
  });

  it('min_faves:, min_retweets:, min_replies:, since:, until:', async () => {
    const faves = await search('min_faves:5');
    expect(faves.length).toBeGreaterThan(0);
    expect(faves.every((t) => (t.likeCount ?? 0) >= 5)).toBe(true);
    expect((await search('min_retweets:2')).every((t) => (t.retweetCount ?? 0) >= 2)).toBe(true);
    const replied = await search('min_replies:10');
    expect(replied.length).toBeGreaterThan(0);
    expect(replied.every((t) => (t.replyCount ?? 0) >= 10)).toBe(true);
    const window = await search('since:2026-04-01 until:2026-04-20');
    expect(window.length).toBeGreaterThan(0);
    for (const t of window) {
      expect(Date.parse(t.createdAt)).toBeGreaterThanOrEqual(Date.UTC(2026, 3, 1));
      expect(Date.parse(t.createdAt)).toBeLessThan(Date.UTC(2026, 3, 20));
    }
  });

  it('applies the structured filters', async () => {
    const demo = await search('', { fromUser: 'xsvc_demo', replies: 'exclude' });
    expect(demo.length).toBeGreaterThan(3);
    expect(demo.every((t) => t.author?.username === 'xsvc_demo' && !t.isReply)).toBe(true);
    const onlyReplies = await search('', { toUser: 'jack', replies: 'only', minFaves: 0 });
    expect(onlyReplies.every((t) => t.inReplyToUsername === 'jack')).toBe(true);
    const media = await search('', { mediaType: 'images', verifiedOnly: true });
    expect(media.every((t) => t.media?.some((m) => m.type === 'photo'))).toBe(true);
    const retweets = await search('', { retweets: 'only' });
    expect(retweets.length).toBeGreaterThan(0);
    expect(retweets.every((t) => t.isRetweet)).toBe(true);
    const any = await search('', { anyWords: ['#bitcoin', '#ethereum'], language: 'en' });
    expect(
      any.every((t) =>
        t.entities?.hashtags?.some((h) => ['bitcoin', 'ethereum'].includes(h.text.toLowerCase())),
      ),
    ).toBe(true);
    const sinceTime = Date.UTC(2026, 3, 28) / 1000;
    const recent = await search('', { sinceTime, exactPhrase: 'Thoughts?' });
    expect(
      recent.every((t) => Date.parse(t.createdAt) >= sinceTime * 1000 && t.text.includes('Thoughts?')),
    ).toBe(true);
  });

  it('orders Top by engagement', async () => {
    const top = (await net.platform.searchTweets({ q: 'the', queryType: 'Top' }, { pageSize: 30 })).items;
    const s = (t: Tweet) =>
      (t.likeCount ?? 0) + 2 * (t.retweetCount ?? 0) + (t.replyCount ?? 0) + 2 * (t.quoteCount ?? 0);
    for (let i = 1; i < top.length; i++)
      expect(s(top[i] as Tweet)).toBeLessThanOrEqual(s(top[i - 1] as Tweet));
    const latest = (await net.platform.searchTweets({ q: 'the', queryType: 'Latest' }, { pageSize: 30 }))
      .items;
    expect(top.map((t) => t.id)).not.toEqual(latest.map((t) => t.id));
  });
});
