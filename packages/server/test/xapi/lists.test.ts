import { describe, expect, it } from 'vitest';
import { listMembers, listMemberships, listNotFound, listTweets } from './fixtures/lists.js';
import { trendsByWoeid } from './fixtures/trends.js';
import { pageOf, platform, StrictTweet, StrictUser, seen, useXServer, xget } from './helpers.js';

const server = useXServer();
const LIST = '1451305624956858369';
const MISSING = '1111111111111111111';

describe('lists', () => {
  it('maps list memberships with their owner and passes the cursor through', async () => {
    server.use(xget('/2/users/2244994945/list_memberships', listMemberships));
    const page = await platform().listMemberships('2244994945', pageOf(20, 'lm1'));
    expect(seen[0]?.searchParams.get('pagination_token')).toBe('lm1');
    expect(seen[0]?.searchParams.get('expansions')).toBe('owner_id');
    expect(page.nextCursor).toBe('1714209892546977900');
    expect(page.items[0]).toMatchObject({
      id: LIST,
      name: 'Test List',
      description: 'A list for testing',
      memberCount: 12,
      subscriberCount: 5,
      createdAt: '2021-10-21T21:12:03.000Z',
      owner: { id: '2244994945', username: 'TwitterDev' },
    });
    expect(page.items[1]).toMatchObject({
      description: '',
      memberCount: 1,
      owner: { id: '999', unavailable: true },
    });
    for (const l of page.items) StrictUser.parse(l.owner);
  });

  it('reads a list’s members, followers and posts', async () => {
    server.use(
      xget(`/2/lists/${LIST}/members`, listMembers),
      xget(`/2/lists/${LIST}/followers`, listMembers),
      xget(`/2/lists/${LIST}/tweets`, listTweets),
    );
    const p = platform();
    const members = await p.listMembers(LIST, pageOf(20));
    expect(members?.items.map((u) => u.username)).toEqual(['birdwatch', 'TwitterThailand']);
    expect(members?.nextCursor).toBe('5676935732641845249');
    const followers = await p.listFollowers(LIST, pageOf(20, members?.nextCursor));
    expect(seen[1]?.searchParams.get('pagination_token')).toBe('5676935732641845249');
    for (const u of [...(members?.items ?? []), ...(followers?.items ?? [])]) StrictUser.parse(u);
    const tweets = await p.listTweets(LIST, pageOf(20));
    expect(tweets?.items.map((t) => t.author?.username)).toEqual(['TwitterDev']);
    for (const t of tweets?.items ?? []) StrictTweet.parse(t);
    expect(tweets).not.toHaveProperty('nextCursor');
  });

  it('answers undefined for a list X does not know', async () => {
    server.use(
      xget(`/2/lists/${MISSING}/members`, listNotFound),
      xget(`/2/lists/${MISSING}/tweets`, listNotFound),
    );
    expect(await platform().listMembers(MISSING, pageOf(20))).toBeUndefined();
    expect(await platform().listTweets(MISSING, pageOf(20))).toBeUndefined();
    expect(await platform().listFollowers('not-a-list', pageOf(20))).toBeUndefined();
    expect(seen).toHaveLength(2);
  });

  it('answers an empty page for an empty list', async () => {
    server.use(xget(`/2/lists/${LIST}/members`, { meta: { result_count: 0 } }));
    expect(await platform().listMembers(LIST, pageOf(20))).toEqual({ items: [] });
  });
});

describe('trends', () => {
  it('maps the documented trends of a WOEID with their rank, query and post volume', async () => {
    server.use(xget('/2/trends/by/woeid/26062', trendsByWoeid));
    const trends = await platform().trends(26062);
    expect(trends).toHaveLength(8);
    expect(trends[0]).toEqual({ name: 'Europe', description: '232,408 posts', rank: 1, query: 'Europe' });
    expect(trends[4]).toEqual({ name: 'St James', description: '5,565 posts', rank: 5, query: 'St%20James' });
    expect(seen[0]?.searchParams.get('trend.fields')).toBe('trend_name,tweet_count');
  });
});
