import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { PlatformUnavailableError } from '../../src/core/platform/platform.js';
import { MAX_FOLLOW_SCAN, parseUserRef } from '../../src/platform/xapi/index.js';
import { invalidRequest } from './fixtures/errors.js';
import {
  followersPage1,
  followersPage2,
  suhem,
  twitter,
  twitterDev,
  userNotFound,
  userSuspended,
} from './fixtures/users.js';
import { pageOf, platform, rejection, StrictUser, seen, useXServer, xget } from './helpers.js';

const server = useXServer();

function userHandlers() {
  const byId: Record<string, unknown> = {
    [twitterDev.id]: twitterDev,
    [twitter.id]: twitter,
    [suhem.id]: suhem,
  };
  return [
    xget('/2/users/by/username/:username', (url) => {
      const name = url.pathname.split('/').pop();
      if (name === 'TwitterDev') return { data: twitterDev };
      if (name === 'suspendedone') return userSuspended;
      return userNotFound;
    }),
    xget('/2/users/:id', (url) => {
      const id = url.pathname.split('/').pop() ?? '';
      if (!/^\d+$/.test(id))
        return HttpResponse.json(invalidRequest(`The \`id\` query parameter value [${id}] is invalid`), {
          status: 400,
        });
      return byId[id] ? { data: byId[id] } : userNotFound;
    }),
    xget('/2/users', (url) => ({
      data: (url.searchParams.get('ids') ?? '').split(',').flatMap((id) => (byId[id] ? [byId[id]] : [])),
    })),
  ];
}

describe('user lookups', () => {
  it('maps a documented user to the strict UserProfile', async () => {
    server.use(...userHandlers());
    const u = await platform().getUser('TwitterDev');
    expect(StrictUser.parse(u)).toEqual({
      id: '2244994945',
      username: 'TwitterDev',
      name: 'Twitter Dev',
      description: twitterDev.description,
      followers: 513958,
      following: 2039,
      verified: false,
      isBlueVerified: false,
      verifiedType: 'business',
      profilePicture: twitterDev.profile_image_url,
      profileBannerUrl: twitterDev.profile_banner_url,
      location: '127.0.0.1',
      url: 'https://developer.twitter.com/en/community',
      createdAt: '2013-12-14T04:35:55.000Z',
      statusesCount: 3635,
      favouritesCount: 2100,
      protected: false,
      pinnedTweetIds: ['1255542774432063488'],
      withheldInCountries: ['DE'],
    });
    expect(seen[0]?.searchParams.get('user.fields')).toContain('public_metrics');
  });

  it('resolves ids, @usernames and profile URLs', async () => {
    server.use(...userHandlers());
    const p = platform();
    for (const ref of [
      '@TwitterDev',
      'https://x.com/TwitterDev',
      'twitter.com/TwitterDev/status/1',
      '2244994945',
      'https://x.com/i/user/2244994945',
    ]) {
      expect((await p.getUser(ref))?.id, ref).toBe('2244994945');
    }
    expect(seen.map((u) => u.pathname)).toEqual([
      '/2/users/by/username/TwitterDev',
      '/2/users/by/username/TwitterDev',
      '/2/users/by/username/TwitterDev',
      '/2/users/2244994945',
      '/2/users/2244994945',
    ]);
  });

  it('answers undefined for unknown users and unusable references, without a request for the latter', async () => {
    server.use(...userHandlers());
    expect(await platform().getUser('nobody_here_123')).toBeUndefined();
    expect(await platform().getUser('1999999999')).toBeUndefined();
    expect(await platform().getUser('not a user!')).toBeUndefined();
    expect(await platform().getUser('https://x.com/i/lists/1')).toBeUndefined();
    expect(seen).toHaveLength(2);
    expect(parseUserRef('https://example.com/jack')).toBeUndefined();
  });

  it('tells a suspended account from a missing one', async () => {
    server.use(...userHandlers());
    const u = await platform().getUser('suspendedone');
    expect(u).toMatchObject({ username: 'suspendedone', unavailable: true, unavailableReason: 'suspended' });
    StrictUser.parse(u);
  });

  it('looks users up in batches of 100 ids, skipping what cannot be an id', async () => {
    server.use(...userHandlers());
    const ids = [
      twitterDev.id,
      twitter.id,
      'jack',
      ...Array.from({ length: 110 }, (_, i) => String(5000 + i)),
      twitter.id,
    ];
    const users = await platform().getUsers(ids);
    expect(users.map((u) => u.username)).toEqual(['TwitterDev', 'X']);
    expect(seen.map((u) => u.searchParams.get('ids')?.split(',').length)).toEqual([100, 12]);
  });
});

describe('followers and following', () => {
  it('round-trips the pagination token', async () => {
    server.use(
      xget('/2/users/2244994945/followers', (url) =>
        url.searchParams.get('pagination_token') ? followersPage2 : followersPage1,
      ),
    );
    const p = platform();
    const first = await p.followers('2244994945', {}, pageOf(20));
    expect(first.items.map((u) => u.username)).toEqual(['suhemparack', 'XSpaces']);
    expect(first.nextCursor).toBe('DFEDBNRFT3MHCZZZ');
    const second = await p.followers('2244994945', {}, pageOf(20, first.nextCursor));
    expect(seen[1]?.searchParams.get('pagination_token')).toBe('DFEDBNRFT3MHCZZZ');
    expect(second.items.map((u) => u.username)).toEqual(['DevPlatform']);
    expect(second).not.toHaveProperty('nextCursor');
    for (const u of [...first.items, ...second.items]) StrictUser.parse(u);
  });

  it('clamps the page size to what the endpoint accepts and filters the page', async () => {
    server.use(xget('/2/users/2244994945/following', followersPage1));
    const page = await platform().following(
      '2244994945',
      { minFollowers: 1000, maxFollowers: 5_000_000 },
      pageOf(5000),
    );
    expect(seen[0]?.searchParams.get('max_results')).toBe('1000');
    expect(page.items.map((u) => u.username)).toEqual(['XSpaces']);
  });
});

describe('checkFollow', () => {
  it('pages small following lists in both directions', async () => {
    server.use(
      ...userHandlers(),
      xget(`/2/users/${suhem.id}/following`, {
        data: [
          { id: '1', name: 'a', username: 'a' },
          { id: twitter.id, name: 'X', username: 'X' },
        ],
        meta: { result_count: 2 },
      }),
      xget(`/2/users/${twitter.id}/following`, {
        data: [{ id: '2', name: 'b', username: 'b' }],
        meta: { result_count: 1 },
      }),
    );
    expect(await platform().checkFollow(suhem.id, twitter.id)).toEqual({
      isFollowing: true,
      isFollowedBy: false,
    });
    expect(seen.find((u) => u.pathname.endsWith('/following'))?.searchParams.get('max_results')).toBe(
      String(MAX_FOLLOW_SCAN),
    );
  });

  it('throws x_api_unavailable rather than paging a large following list', async () => {
    server.use(...userHandlers());
    const err = await rejection(platform().checkFollow(twitterDev.id, twitter.id));
    expect(err).toBeInstanceOf(PlatformUnavailableError);
    expect(err.code).toBe('x_api_unavailable');
  });

  it('answers false both ways when a user does not exist', async () => {
    server.use(...userHandlers());
    expect(await platform().checkFollow(suhem.id, '1999999999')).toEqual({
      isFollowing: false,
      isFollowedBy: false,
    });
  });
});
