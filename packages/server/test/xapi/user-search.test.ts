import { beforeEach, describe, expect, it } from 'vitest';
import type { AsUser, UserReader } from '../../src/core/platform/platform.js';
import { extractionRunner } from '../../src/features/extractions/runtime.js';
import { encodeSession } from '../../src/platform/xapi/oauth.js';
import { LIKES_SCOPES, USER_SEARCH_SCOPES } from '../../src/platform/xapi/xapi-platform.js';
import type { TestServer } from '../helpers/server.js';
import { connectAccount, useXapiServer } from './accounts.js';
import { followersPage1 } from './fixtures/users.js';
import xFactsTable from './fixtures/x-api-facts.json' with { type: 'json' };
import { pageOf, platform, rejection, StrictUser, seen, USER_TOKENS, useXServer, xget } from './helpers.js';

const server = useXServer();

/** A user token granted exactly the scopes the server documents for user search: X's facts check the rest. */
const SEARCHER = 'user-access-search';
USER_TOKENS[SEARCHER] = USER_SEARCH_SCOPES;
/** A token approved without `users.read`. */
const NARROW = 'user-access-no-users-read';
USER_TOKENS[NARROW] = ['tweet.read', 'tweet.write'];
/** A token with the likes scopes, on a newer connection (see the account choice below). */
const LIKER = 'user-access-search-liker';
USER_TOKENS[LIKER] = LIKES_SCOPES;

const OAUTH = { clientId: 'test-client-id', redirectUri: 'http://127.0.0.1:9/api/v1/x/oauth/callback' };

/** An `AsUser` with one connected account, recording the reads it ran and whether the session fit. */
function asAccount(accessToken: string, scope: readonly string[]) {
  const runs: string[] = [];
  const fitted: boolean[] = [];
  const reader: UserReader = {
    username: 'jack',
    session: encodeSession({
      accessToken,
      refreshToken: 'r',
      expiresAt: Date.now() + 7_200_000,
      scope: [...scope],
    }),
    run: async (read) => {
      runs.push('run');
      return read();
    },
  };
  const asUser: AsUser = async (fits) => {
    fitted.push(fits ? fits(reader.session) : true);
    return reader;
  };
  return { asUser, runs, fitted };
}

const searchFacts = (
  xFactsTable.operations as { method: string; path: string; tokens: { kind: string; scopes?: string[] }[] }[]
).find((o) => o.method === 'GET' && o.path === '/2/users/search');

describe('the documented scopes are the ones X asks for', () => {
  it('GET /2/users/search takes a user token only, with tweet.read and users.read', () => {
    expect(searchFacts).toBeDefined();
    const tokens = searchFacts?.tokens ?? [];
    expect(tokens.map((t) => t.kind)).not.toContain('BearerToken');
    const oauth2 = tokens.find((t) => t.kind === 'OAuth2UserToken');
    expect([...(oauth2?.scopes ?? [])].sort()).toEqual([...USER_SEARCH_SCOPES].sort());
  });
});

describe('user search on the platform', () => {
  it('searches with the connected account’s token, next_token as the cursor, the filters applied', async () => {
    const auths: string[] = [];
    server.use(
      xget('/2/users/search', (_url, request) => {
        auths.push(request.headers.get('authorization') ?? '');
        return followersPage1;
      }),
    );
    const { asUser, runs, fitted } = asAccount(SEARCHER, USER_SEARCH_SCOPES);
    const page = await platform({ oauth: OAUTH }).searchUsers(
      'open source',
      { verifiedOnly: true },
      pageOf(20, 'nt-2'),
      asUser,
    );
    expect(page.items.map((u) => u.username)).toEqual(['XSpaces']);
    for (const u of page.items) StrictUser.parse(u);
    expect(page.nextCursor).toBe(followersPage1.meta.next_token);
    expect(seen[0]?.searchParams.get('query')).toBe('open source');
    expect(seen[0]?.searchParams.get('next_token')).toBe('nt-2');
    expect(seen[0]?.searchParams.get('pagination_token')).toBeNull();
    expect(seen[0]?.searchParams.get('max_results')).toBe('20');
    expect(auths).toEqual([`Bearer ${SEARCHER}`]);
    expect(runs).toEqual(['run']);
    expect(fitted).toEqual([true]);
  });

  it('without a connected account it is refused naming the user token and its scopes; nothing is sent', async () => {
    const none: AsUser = async () => undefined;
    for (const asUser of [none, undefined]) {
      const err = await rejection(platform({ oauth: OAUTH }).searchUsers('jack', {}, pageOf(5), asUser));
      expect(err.code).toBe('x_api_unavailable');
      expect(err.message).toMatch(
        /user search is served by the X API v2 only to a user token \(OAuth 2\.0 with tweet\.read, users\.read\).*connect one with POST \/api\/v1\/x\/accounts/,
      );
    }
    expect(seen).toHaveLength(0);
  });

  it('an account approved without users.read does not fit and is refused naming the scope; nothing is sent', async () => {
    const { asUser, fitted } = asAccount(NARROW, USER_TOKENS[NARROW] ?? []);
    const err = await rejection(platform({ oauth: OAUTH }).searchUsers('jack', {}, pageOf(5), asUser));
    expect(err.code).toBe('x_api_unavailable');
    expect(err.message).toMatch(/@jack was approved without users\.read: re-authenticate it/);
    expect(fitted).toEqual([false]);
    expect(seen).toHaveLength(0);
  });

  it('search text X does not take is refused naming X’s rule before any account is looked up', async () => {
    const { asUser, fitted } = asAccount(SEARCHER, USER_SEARCH_SCOPES);
    for (const q of ['from:jack', 'café', 'x'.repeat(51)]) {
      const err = await rejection(platform({ oauth: OAUTH }).searchUsers(q, {}, pageOf(5), asUser));
      expect(err.code, q).toBe('x_api_unavailable');
      expect(err.message, q).toMatch(/takes 1 to 50 letters, digits, spaces, _ and ' only/);
    }
    expect(fitted).toEqual([]);
    expect(seen).toHaveLength(0);
  });
});

describe('GET /x/users/search on xapi', () => {
  const xapiServer = useXapiServer();
  let t: TestServer;

  async function connect(username: string, accessToken: string, scope: readonly string[]) {
    await connectAccount(t, { xUserId: String(200 + (t.clock.now() % 1000)), username, accessToken, scope });
    t.clock.advance(1);
  }

  beforeEach(async () => {
    t = xapiServer();
    await t.server.services.database.db.deleteFrom('x_accounts').execute();
  });

  it('answers with the first connected account whose approval has the scopes, skipping an older one without', async () => {
    await connect('narrow', NARROW, USER_TOKENS[NARROW] ?? []);
    await connect('jack', SEARCHER, USER_SEARCH_SCOPES);
    const auths: string[] = [];
    server.use(
      xget('/2/users/search', (_url, request) => {
        auths.push(request.headers.get('authorization') ?? '');
        return { ...followersPage1, meta: { result_count: 2 } };
      }),
    );
    const res = await t.request('GET', '/api/v1/x/users/search?q=spaces');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.users.map((u: { username: string }) => u.username)).toEqual(
      followersPage1.data.map((u) => u.username),
    );
    expect(auths).toEqual([`Bearer ${SEARCHER}`]);
  });

  it('with only an account approved without the scopes answers naming it; nothing is sent', async () => {
    await connect('narrow', NARROW, USER_TOKENS[NARROW] ?? []);
    const res = await t.request('GET', '/api/v1/x/users/search?q=spaces');
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('x_api_unavailable');
    expect(res.body.message).toMatch(/@narrow was approved without users\.read/);
    expect(seen).toHaveLength(0);
  });

  it('without a connected account answers 502 x_api_unavailable naming the limitation', async () => {
    const res = await t.request('GET', '/api/v1/x/users/search?q=spaces');
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('x_api_unavailable');
    expect(res.body.message).toMatch(/only to a user token .*tweet\.read, users\.read/);
    expect(seen).toHaveLength(0);
  });

  it('a people_search extraction reads as the owner’s connected account; without one it fails naming why', async () => {
    const auths: string[] = [];
    server.use(
      xget('/2/users/search', (_url, request) => {
        auths.push(request.headers.get('authorization') ?? '');
        return { ...followersPage1, meta: { result_count: 2 } };
      }),
    );
    const runner = extractionRunner(t.server.services.database);
    const extract = async () => {
      const created = await t.request('POST', '/api/v1/extractions', {
        body: { toolType: 'people_search', searchQuery: 'spaces' },
      });
      expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
      await runner.idle();
      return (await t.request('GET', `/api/v1/extractions/${created.body.id}`)).body.job;
    };
    const refused = await extract();
    expect(refused).toMatchObject({ status: 'failed' });
    expect(refused.errorMessage).toMatch(/only to a user token/);
    await connect('jack', LIKER, LIKES_SCOPES);
    expect(await extract()).toMatchObject({ status: 'completed', totalResults: 2 });
    expect(auths).toEqual([`Bearer ${LIKER}`]);
  });
});
