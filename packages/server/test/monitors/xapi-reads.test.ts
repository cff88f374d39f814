import { describe, expect, it } from 'vitest';
import { snowflake, snowflakeTime } from '../../src/core/ids/snowflake.js';
import {
  DEFAULT_SEARCH_QUERY_MAX,
  INDEX_LAG_MS,
  packAuthorQueries,
  searchRequestsFor,
} from '../../src/platform/xapi/monitor-reads.js';
import { includes, photoTweet, replyTweet } from '../xapi/fixtures/tweets.js';
import { twitter, twitterDev } from '../xapi/fixtures/users.js';
import { FIXTURES_NOW, platform, seen, useXServer, xget } from '../xapi/helpers.js';

/** A suspended account in a users lookup answer (partial error, as X reports it). */
const suspended = {
  value: '99',
  detail: 'User has been suspended: [99].',
  title: 'Forbidden',
  resource_type: 'user',
  parameter: 'ids',
  resource_id: '99',
  type: 'https://api.twitter.com/2/problems/resource-not-found',
};

describe('the X API platform’s reads for monitors', () => {
  const server = useXServer();

  it('takes the newest post of a timeline as the watermark', async () => {
    server.use(xget('/2/users/2244994945/tweets', { data: [{ id: '1307025659294674945' }, { id: '12' }] }));
    expect(await platform().newestTweetId('2244994945')).toBe('1307025659294674945');
    expect(seen[0]?.searchParams.get('max_results')).toBe('5');
  });

  it('reads every account through one recent search of packed from: clauses since the watermark, oldest first', async () => {
    server.use(xget('/2/tweets/search/recent', { data: [replyTweet, photoTweet], includes }));
    // A watermark a minute before the older post, two days before now: within recent search's 7 days.
    const posted = snowflakeTime(photoTweet.id);
    const since = snowflake(posted - 60_000);
    const x = platform({ now: () => posted + 2 * 24 * 3600_000 });
    const res = await x.tweetsByAuthorsSince(['2244994945', '783214'], since, 100);
    expect(res.items.map((t) => t.id)).toEqual([photoTweet.id, replyTweet.id]);
    expect(res.nextSinceId).toBeUndefined();
    expect(seen).toHaveLength(1);
    const q = seen[0]?.searchParams;
    expect(q?.get('query')).toBe('from:2244994945 OR from:783214');
    // Read from a little earlier: a post X indexed late is still found.
    expect(q?.get('since_id')).toBe(snowflake(posted - 60_000 - INDEX_LAG_MS));
    expect(q?.get('start_time')).toBeNull();
    expect(q?.get('max_results')).toBe('100');
  });

  it('watches more than 10 accounts: 30 of them in two queries of at most 512 characters', async () => {
    server.use(xget('/2/tweets/search/recent', { data: [], meta: { result_count: 0 } }));
    const ids = Array.from({ length: 30 }, (_, i) => String(1_700_000_000_000_000_000n + BigInt(i)));
    const since = snowflake(FIXTURES_NOW - 60_000);
    await platform({ now: () => FIXTURES_NOW }).tweetsByAuthorsSince(ids, since, 100);
    const queries = seen.map((u) => u.searchParams.get('query') ?? '');
    expect(queries).toHaveLength(2);
    for (const q of queries) expect(q.length).toBeLessThanOrEqual(DEFAULT_SEARCH_QUERY_MAX);
    // 18 clauses of 24 characters and 17 separators: 500 characters; a 19th would make 528.
    expect(queries[0]?.split(' OR ')).toHaveLength(18);
    expect(queries.flatMap((q) => q.split(' OR ')).sort()).toEqual(ids.map((id) => `from:${id}`).sort());
  });

  it('packs up to the query limit exactly, and no further', () => {
    // `from:1 OR from:22` is 17 characters.
    expect(packAuthorQueries(['1', '22'], 17)).toEqual(['from:1 OR from:22']);
    expect(packAuthorQueries(['1', '22'], 16)).toEqual(['from:1', 'from:22']);
    expect(packAuthorQueries(['1', '22', '3'], 17)).toEqual(['from:1 OR from:22', 'from:3']);
    expect(() => packAuthorQueries(['12345'], 9)).toThrow(RangeError);
    // The worst case the budget counts (19-digit ids) never undercounts what the packing sends.
    for (const max of [60, 100, 512, 4096]) {
      const ids = Array.from({ length: 200 }, (_, i) => String(1_000_000_000_000_000_000n + BigInt(i)));
      expect(packAuthorQueries(ids, max).length).toBeLessThanOrEqual(searchRequestsFor(200, 1, max));
    }
    expect(searchRequestsFor(0, 3, 512)).toBe(0);
    expect(searchRequestsFor(18, 1, 512)).toBe(1);
    expect(searchRequestsFor(19, 1, 512)).toBe(2);
    expect(searchRequestsFor(18, 3, 512)).toBe(3);
  });

  it('follows next_token to the last page, and starts 7 days back when the watermark is older', async () => {
    server.use(
      xget('/2/tweets/search/recent', (url) =>
        url.searchParams.get('next_token')
          ? { data: [photoTweet], includes, meta: { result_count: 1 } }
          : { data: [replyTweet], includes, meta: { result_count: 1, next_token: 'b26v89c19zqg8o3f' } },
      ),
    );
    const res = await platform({ now: () => FIXTURES_NOW }).tweetsByAuthorsSince(['2244994945'], '1000', 100);
    expect(res.items.map((t) => t.id)).toEqual([photoTweet.id, replyTweet.id]);
    expect(seen.map((u) => u.searchParams.get('next_token'))).toEqual([null, 'b26v89c19zqg8o3f']);
    const first = seen[0]?.searchParams;
    expect(first?.get('since_id')).toBeNull();
    const start = Date.parse(first?.get('start_time') ?? '');
    expect(FIXTURES_NOW - start).toBeLessThan(7 * 24 * 3600_000);
    expect(FIXTURES_NOW - start).toBeGreaterThan(7 * 24 * 3600_000 - 3600_000);
  });

  it('stamps profiles from the users lookup, suspended ones included, with a digest', async () => {
    server.use(xget('/2/users', { data: [twitterDev, twitter], errors: [suspended] }));
    const first = await platform().profileStamps(['2244994945', '783214', '99']);
    expect([...(first.stamps?.keys() ?? [])].sort()).toEqual(['2244994945', '783214', '99']);
    expect(first.stamps?.get('99')).toBe('suspended');
    const again = await platform().profileStamps(['2244994945', '783214', '99'], first.digest);
    expect(again).toEqual({ digest: first.digest });
    server.use(
      xget('/2/users', { data: [{ ...twitterDev, name: 'Renamed' }, twitter], errors: [suspended] }),
    );
    const changed = await platform().profileStamps(['2244994945', '783214', '99'], first.digest);
    expect(changed.stamps?.get('2244994945')).not.toBe(first.stamps?.get('2244994945'));
    expect(changed.stamps?.get('783214')).toBe(first.stamps?.get('783214'));
  });
});
