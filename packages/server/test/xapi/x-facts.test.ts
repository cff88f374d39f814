import { describe, expect, it } from 'vitest';
import { checkXRequest, findOperation, operation, X_FACTS } from './x-facts.js';

const tokens = { appToken: 'app', userTokens: { 'user-likes': ['like.read', 'tweet.read', 'users.read'] } };

function check(method: string, url: string, authorization: string | null = 'Bearer app') {
  const headers = new Headers(authorization ? { authorization } : {});
  return checkXRequest({ method, url: `http://x.test${url}`, headers }, tokens);
}

describe("X's facts table", () => {
  it('holds every operation of the description, with token kinds and field lists', () => {
    expect(X_FACTS.operations.length).toBeGreaterThanOrEqual(171);
    expect(operation('getPostsById')).toMatchObject({ method: 'GET', path: '/2/tweets/{id}' });
    expect(operation('createPosts').tokens.map((t) => t.kind)).not.toContain('BearerToken');
    const fields = operation('getPostsById').parameters.find((p) => p.name === 'post.fields');
    expect(fields?.schema.items?.enum).toContain('note_post');
    expect(fields?.schema.items?.enum).not.toContain('author_id');
  });

  it('prefers the literal template: /2/users/by/username/{username} is not /2/users/{id}/...', () => {
    expect(findOperation('GET', '/2/users/by/username/jack')?.op.operationId).toBe('getUsersByUsername');
    expect(findOperation('GET', '/2/tweets/search/recent')?.op.operationId).toBe('searchPostsRecent');
  });
});

describe('checkXRequest', () => {
  it('passes a request X allows', () => {
    const res = check(
      'GET',
      '/2/tweets/20?post.fields=created_at,note_post&expansions=author_id,referenced_posts',
    );
    expect(res.problems).toEqual([]);
    expect(res.op?.operationId).toBe('getPostsById');
  });

  it('refuses an unknown path and a method X has not there', () => {
    expect(check('GET', '/2/nowhere').problems[0]).toMatch(/no operation at \/2\/nowhere/);
    expect(check('PUT', '/2/tweets/20').problems[0]).toMatch(/no PUT \/2\/tweets\/20 \(only DELETE, GET\)/);
  });

  it('refuses a parameter the operation does not take and a value outside its list', () => {
    expect(check('GET', '/2/tweets/20?tweet.fields=created_at').problems).toEqual([
      'getPostsById has no query parameter tweet.fields',
    ]);
    expect(check('GET', '/2/tweets/20?expansions=referenced_tweets.id').problems[0]).toMatch(
      /query parameter expansions: "referenced_tweets.id" is not one of/,
    );
    expect(check('GET', '/2/users/1?user.fields=pinned_tweet_id').problems).toHaveLength(1);
    expect(check('GET', '/2/tweets/20?post.fields=id,id').problems).toEqual([
      'query parameter post.fields: repeats a value',
    ]);
  });

  it('checks bounds, patterns, dates and required parameters', () => {
    expect(check('GET', '/2/tweets/search/recent?query=x&max_results=5').problems).toEqual([
      'query parameter max_results: 5 < 10',
    ]);
    expect(check('GET', '/2/tweets/abc').problems[0]).toMatch(/path parameter id: abc does not match/);
    expect(check('GET', '/2/tweets/search/recent?query=x&start_time=yesterday').problems[0]).toMatch(
      /not an RFC 3339 date-time/,
    );
    expect(check('GET', '/2/tweets/search/recent').problems).toEqual([
      'searchPostsRecent needs query parameter query',
    ]);
  });

  it('checks the kind of token and the scopes of a user token', () => {
    expect(check('GET', '/2/tweets/20/liking_users').problems[0]).toMatch(
      /getPostsLikingUsers takes OAuth2UserToken or UserToken, not BearerToken/,
    );
    expect(check('GET', '/2/tweets/20/liking_users', 'Bearer user-likes').problems).toEqual([]);
    expect(check('GET', '/2/tweets/20/liking_users', 'OAuth oauth_consumer_key="k"').problems).toEqual([]);
    expect(check('POST', '/2/tweets', 'Bearer user-likes').problems[0]).toMatch(
      /needs the scopes .*tweet\.write/,
    );
    expect(check('GET', '/2/tweets/20', null).problems).toEqual(['no Authorization token']);
  });
});

describe('checkXRequest with a JSON body', () => {
  const follow = (body: unknown) =>
    checkXRequest(
      {
        method: 'POST',
        url: 'http://x.test/2/users/12/following',
        headers: new Headers({ authorization: 'Bearer user-follows' }),
      },
      { appToken: 'app', userTokens: { 'user-follows': ['follows.write', 'tweet.read', 'users.read'] } },
      body,
    ).problems;

  it('passes a body X allows', () => {
    expect(follow({ target_user_id: '783214' })).toEqual([]);
  });

  it("refuses a body property off X's pattern, as Prism does: the id a mock made up", () => {
    expect(follow({ target_user_id: 'string' })).toEqual([
      'body.target_user_id: string does not match ^[0-9]{1,19}$',
    ]);
  });

  it('refuses a body without a required property', () => {
    expect(follow({})).toEqual(['body.target_user_id is required']);
  });
});
