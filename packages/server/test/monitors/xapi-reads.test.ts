import { describe, expect, it } from 'vitest';
import { PlatformUnavailableError } from '../../src/core/platform/platform.js';
import { MAX_TIMELINES_PER_CHECK } from '../../src/platform/xapi/monitor-reads.js';
import { includes, photoTweet, replyTweet } from '../xapi/fixtures/tweets.js';
import { twitter, twitterDev } from '../xapi/fixtures/users.js';
import { platform, rejection, seen, useXServer, xget } from '../xapi/helpers.js';

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

  it('polls each account’s timeline since the watermark and merges them oldest first', async () => {
    server.use(
      xget('/2/users/2244994945/tweets', { data: [replyTweet], includes }),
      xget('/2/users/783214/tweets', { data: [photoTweet], includes }),
    );
    const res = await platform().tweetsByAuthorsSince(['2244994945', '783214'], '1000', 100);
    expect(res.items.map((t) => t.id)).toEqual([photoTweet.id, replyTweet.id]);
    expect(res.nextSinceId).toBeUndefined();
    expect(seen.map((u) => u.searchParams.get('since_id'))).toEqual(['1000', '1000']);
  });

  it('refuses more accounts than the app rate limit can poll every second', async () => {
    const ids = Array.from({ length: MAX_TIMELINES_PER_CHECK + 1 }, (_, i) => String(100 + i));
    const err = await rejection(platform().tweetsByAuthorsSince(ids, '1', 100));
    expect(err).toBeInstanceOf(PlatformUnavailableError);
    expect(err.code).toBe('x_api_rate_limited');
    expect(seen).toHaveLength(0);
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
