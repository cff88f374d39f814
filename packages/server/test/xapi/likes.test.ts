import { HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AsUser, UserReader } from '../../src/core/platform/platform.js';
import { extractionRunner } from '../../src/features/extractions/runtime.js';
import { encodeSession } from '../../src/platform/xapi/oauth.js';
import { LIKES_SCOPES } from '../../src/platform/xapi/xapi-platform.js';
import type { TestServer } from '../helpers/server.js';
import { connectAccount, useXapiServer } from './accounts.js';
import { includes, photoTweet } from './fixtures/tweets.js';
import { followersPage1, twitterDev } from './fixtures/users.js';
import xFactsTable from './fixtures/x-api-facts.json' with { type: 'json' };
import {
  pageOf,
  platform,
  rejection,
  StrictTweet,
  StrictUser,
  seen,
  USER_TOKENS,
  useXServer,
  xget,
} from './helpers.js';

const server = useXServer();

/** A user token granted exactly the scopes the server documents for likes: X's facts check the rest. */
const LIKER = 'user-access-likes';
USER_TOKENS[LIKER] = LIKES_SCOPES;
/** A token approved before `like.read` was asked for. */
const OLD_GRANT = 'user-access-no-like-read';
USER_TOKENS[OLD_GRANT] = ['tweet.read', 'users.read', 'like.write'];

const OAUTH = { clientId: 'test-client-id', redirectUri: 'http://127.0.0.1:9/api/v1/x/oauth/callback' };
const TWEET = '1460323595637919744';
const USER = '2244994945';

function sessionOf(accessToken: string, scope: readonly string[]) {
  return encodeSession({
    accessToken,
    refreshToken: 'r',
    expiresAt: Date.now() + 7_200_000,
    scope: [...scope],
  });
}

/** An `AsUser` with one connected account, recording the reads it ran. */
function asAccount(accessToken: string, scope: readonly string[] = LIKES_SCOPES) {
  const runs: string[] = [];
  const reader: UserReader = {
    username: 'jack',
    session: sessionOf(accessToken, scope),
    run: async (read) => {
      runs.push('run');
      return read();
    },
  };
  const asUser: AsUser = async () => reader;
  return { asUser, runs };
}

/** What X's facts table says of the two endpoints (path → the tokens it takes). */
const facts = new Map(
  (
    xFactsTable.operations as {
      method: string;
      path: string;
      tokens: { kind: string; scopes?: string[] }[];
    }[]
  )
    .filter((o) => o.path === '/2/users/{id}/liked_tweets' || o.path === '/2/tweets/{id}/liking_users')
    .map((o) => [o.path, o.tokens]),
);

describe('the documented scopes are the ones X asks for', () => {
  it('both endpoints take a user token only, with like.read, tweet.read and users.read', () => {
    expect([...facts.keys()].sort()).toEqual(['/2/tweets/{id}/liking_users', '/2/users/{id}/liked_tweets']);
    for (const tokens of facts.values()) {
      expect(tokens.map((t) => t.kind)).not.toContain('BearerToken');
      const oauth2 = tokens.find((t) => t.kind === 'OAuth2UserToken');
      expect([...(oauth2?.scopes ?? [])].sort()).toEqual([...LIKES_SCOPES].sort());
    }
  });
});

describe('liked posts and liking users on the platform', () => {
  it('reads liked posts with the connected account’s token, within the read it runs', async () => {
    const auths: string[] = [];
    server.use(
      xget(`/2/users/${USER}/liked_tweets`, (_url, request) => {
        auths.push(request.headers.get('authorization') ?? '');
        return { data: [photoTweet], includes, meta: { result_count: 1, next_token: 'lk2' } };
      }),
    );
    const { asUser, runs } = asAccount(LIKER);
    const page = await platform({ oauth: OAUTH }).userLikes(USER, pageOf(3), asUser);
    expect(page.items.map((t) => t.id)).toEqual([photoTweet.id]);
    for (const t of page.items) StrictTweet.parse(t);
    expect(page.nextCursor).toBe('lk2');
    // X's floor for liked_tweets is 5 per page.
    expect(seen[0]?.searchParams.get('max_results')).toBe('5');
    expect(auths).toEqual([`Bearer ${LIKER}`]);
    expect(runs).toEqual(['run']);
  });

  it('reads the users who liked a post with the account’s token, the user filters applied', async () => {
    const auths: string[] = [];
    server.use(
      xget(`/2/tweets/${TWEET}/liking_users`, (_url, request) => {
        auths.push(request.headers.get('authorization') ?? '');
        return followersPage1;
      }),
    );
    const { asUser } = asAccount(LIKER);
    const page = await platform({ oauth: OAUTH }).favoriters(
      TWEET,
      { verifiedOnly: true },
      pageOf(20),
      asUser,
    );
    expect(page.items.map((u) => u.username)).toEqual(['XSpaces']);
    for (const u of page.items) StrictUser.parse(u);
    expect(page.nextCursor).toBe(followersPage1.meta.next_token);
    expect(seen[0]?.searchParams.get('pagination_token')).toBeNull();
    expect(auths).toEqual([`Bearer ${LIKER}`]);
  });

  it('passes the cursor through as pagination_token', async () => {
    server.use(xget(`/2/tweets/${TWEET}/liking_users`, followersPage1));
    await platform({ oauth: OAUTH }).favoriters(TWEET, {}, pageOf(20, 'tok-2'), asAccount(LIKER).asUser);
    expect(seen[0]?.searchParams.get('pagination_token')).toBe('tok-2');
  });

  it('without a connected account both are refused naming the user token and its scopes; nothing is sent', async () => {
    const none: AsUser = async () => undefined;
    for (const call of [
      (p: ReturnType<typeof platform>) => p.userLikes(USER, pageOf(5), none),
      (p: ReturnType<typeof platform>) => p.favoriters(TWEET, {}, pageOf(5), none),
      (p: ReturnType<typeof platform>) => p.userLikes(USER, pageOf(5)),
    ]) {
      const err = await rejection(call(platform({ oauth: OAUTH })));
      expect(err.code).toBe('x_api_unavailable');
      expect(err.message).toMatch(
        /only to a user token \(OAuth 2\.0 with like\.read, tweet\.read, users\.read\).*connect one with POST \/api\/v1\/x\/accounts/,
      );
    }
    expect(seen).toHaveLength(0);
  });

  it('an account approved without like.read is refused naming the re-authentication; nothing is sent', async () => {
    const err = await rejection(
      platform({ oauth: OAUTH }).userLikes(
        USER,
        pageOf(5),
        asAccount(OLD_GRANT, USER_TOKENS[OLD_GRANT]).asUser,
      ),
    );
    expect(err.code).toBe('x_api_unavailable');
    expect(err.message).toMatch(/@jack was approved without like\.read: re-authenticate it/);
    expect(seen).toHaveLength(0);
  });
});

describe('GET /x/users/{id}/likes and /x/tweets/{id}/favoriters on xapi', () => {
  const xapiServer = useXapiServer();
  let t: TestServer;

  /** Connects `username` (a new X user id each time), one millisecond after the one before. */
  async function connect(
    username: string,
    accessToken: string,
    health: 'healthy' | 'needsReauth',
    scope: readonly string[] = LIKES_SCOPES,
  ) {
    await connectAccount(t, {
      xUserId: String(100 + (t.clock.now() % 1000)),
      username,
      accessToken,
      scope,
      health,
    });
    t.clock.advance(1);
  }

  beforeEach(async () => {
    t = xapiServer();
    await t.server.services.database.db.deleteFrom('x_accounts').execute();
  });

  const lookups = () => [
    xget('/2/users/:id', { data: { ...twitterDev, id: USER } }),
    xget('/2/tweets/:id', { data: { ...photoTweet, id: TWEET }, includes }),
  ];

  it('answers with the caller’s connected account, skipping one that needs re-authentication', async () => {
    await connect('stale', 'revoked-token', 'needsReauth');
    await connect('jack', LIKER, 'healthy');
    const auths: string[] = [];
    const record = (answer: object) => (_url: URL, request: Request) => {
      auths.push(request.headers.get('authorization') ?? '');
      return answer;
    };
    server.use(
      ...lookups(),
      xget(
        `/2/users/${USER}/liked_tweets`,
        record({ data: [photoTweet], includes, meta: { result_count: 1 } }),
      ),
      xget(`/2/tweets/${TWEET}/liking_users`, record({ ...followersPage1, meta: { result_count: 2 } })),
    );
    const likes = await t.request('GET', `/api/v1/x/users/${USER}/likes`);
    expect(likes.status, JSON.stringify(likes.body)).toBe(200);
    expect(likes.body.tweets.map((tw: { id: string }) => tw.id)).toEqual([photoTweet.id]);
    const likers = await t.request('GET', `/api/v1/x/tweets/${TWEET}/favoriters`);
    expect(likers.status, JSON.stringify(likers.body)).toBe(200);
    expect(likers.body.users.map((u: { username: string }) => u.username)).toEqual(
      followersPage1.data.map((u) => u.username),
    );
    expect(auths).toEqual([`Bearer ${LIKER}`, `Bearer ${LIKER}`]);
  });

  it('reads as the first account approved with like.read, not an older one approved without it', async () => {
    await connect('old', OLD_GRANT, 'healthy', USER_TOKENS[OLD_GRANT]);
    await connect('jack', LIKER, 'healthy');
    const auths: string[] = [];
    server.use(
      ...lookups(),
      xget(`/2/tweets/${TWEET}/liking_users`, (_url, request) => {
        auths.push(request.headers.get('authorization') ?? '');
        return { ...followersPage1, meta: { result_count: 2 } };
      }),
    );
    const likers = await t.request('GET', `/api/v1/x/tweets/${TWEET}/favoriters`);
    expect(likers.status, JSON.stringify(likers.body)).toBe(200);
    expect(auths).toEqual([`Bearer ${LIKER}`]);
  });

  it('with only accounts approved without like.read answers naming the oldest and the scope', async () => {
    await connect('old', OLD_GRANT, 'healthy', USER_TOKENS[OLD_GRANT]);
    server.use(...lookups());
    const res = await t.request('GET', `/api/v1/x/users/${USER}/likes`);
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('x_api_unavailable');
    expect(res.body.message).toMatch(/@old was approved without like\.read: re-authenticate it/);
    expect(seen.map((u) => u.pathname)).not.toContain(`/2/users/${USER}/liked_tweets`);
  });

  it('without a connected account answers 502 x_api_unavailable naming the limitation', async () => {
    server.use(...lookups());
    const res = await t.request('GET', `/api/v1/x/users/${USER}/likes`);
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('x_api_unavailable');
    expect(res.body.message).toMatch(/only to a user token .*like\.read/);
    expect(seen.map((u) => u.pathname)).not.toContain(`/2/users/${USER}/liked_tweets`);
  });

  it('a read xapi refuses before sending anything leaves the connection healthy', async () => {
    await connect('jack', LIKER, 'healthy');
    const res = await t.request('GET', '/api/v1/x/notifications?account=jack');
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('x_api_unavailable');
    expect((await t.request('GET', '/api/v1/x/accounts')).body.accounts[0].health).toBe('healthy');
    expect(seen).toHaveLength(0);
  });

  it('a favoriters extraction reads as the owner’s connected account; without one it fails naming why', async () => {
    const auths: string[] = [];
    server.use(
      ...lookups(),
      xget(`/2/tweets/${TWEET}/liking_users`, (_url, request) => {
        auths.push(request.headers.get('authorization') ?? '');
        return { ...followersPage1, meta: { result_count: 2 } };
      }),
    );
    const runner = extractionRunner(t.server.services.database);
    const extract = async () => {
      const created = await t.request('POST', '/api/v1/extractions', {
        body: { toolType: 'favoriters', targetTweetId: TWEET },
      });
      expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
      await runner.idle();
      return (await t.request('GET', `/api/v1/extractions/${created.body.id}`)).body.job;
    };
    const refused = await extract();
    expect(refused).toMatchObject({ status: 'failed' });
    expect(refused.errorMessage).toMatch(/only to a user token/);
    await connect('jack', LIKER, 'healthy');
    expect(await extract()).toMatchObject({ status: 'completed', totalResults: 2 });
    expect(auths).toEqual([`Bearer ${LIKER}`]);
  });

  it('X refusing the account’s token makes it needsReauth and answers account_needs_reauth', async () => {
    await connect('jack', LIKER, 'healthy');
    server.use(
      ...lookups(),
      xget(`/2/tweets/${TWEET}/liking_users`, () =>
        HttpResponse.json({ title: 'Unauthorized' }, { status: 401 }),
      ),
    );
    const res = await t.request('GET', `/api/v1/x/tweets/${TWEET}/favoriters`);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('account_needs_reauth');
    expect((await t.request('GET', '/api/v1/x/accounts')).body.accounts[0].health).toBe('needsReauth');
  });
});
