/** `@xsvc/sdk/testing` as a user would use it: msw's setupServer with the generated handlers. */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../src/contract/operations/index.js';
import { NotFoundError, Xsvc } from '../src/index.js';
import { createHandlers, exampleOf, exampleResponse, mockError } from '../src/testing/index.js';

const server = setupServer(
  ...createHandlers({
    overrides: {
      lookupTweet: { tweet: { id: '42', text: 'mocked', createdAt: '2026-04-29T12:00:00.000Z' } },
      getUser: () => mockError(404, 'user_not_found'),
    },
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('@xsvc/sdk/testing', () => {
  const client = new Xsvc({ apiKey: `svc_${'0'.repeat(64)}` });

  it('answers overrides', async () => {
    const { tweet } = await client.tweets.get('42');
    expect(tweet.text).toBe('mocked');
  });

  it('answers errors in the service shape', async () => {
    await expect(client.users.get('nobody')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('answers every other operation with a schema-valid example, literal paths before parameters', async () => {
    const page = await client.tweets.search({ q: 'hello' });
    expect(Array.isArray(page.items)).toBe(true);
    expect(page.hasMore).toBe(false);
    const account = await client.account.get();
    expect(account.plan).toBe('active');
    const action = await client.tweets.create({ account: 'me', text: 'hi' });
    expect(action.id).toBeTruthy();
  });
});

describe('the default examples read like real data', () => {
  it('a tweet has text, a language, a type, dates and URLs a person would expect', () => {
    const { tweet } = exampleOf('lookupTweet');
    expect(tweet.text).toMatch(/^[A-Z][a-z]+ .+ .+\.$/);
    expect(tweet.lang).toBe('en');
    expect(tweet.type).toBe('tweet');
    expect(tweet.url).toBe('https://x.com/jack/status/1790000000000000001');
    expect(new Date(tweet.createdAt).toISOString()).toBe(tweet.createdAt);
    expect(tweet.author).toMatchObject({ username: 'jack', name: 'Jack Example' });
    expect(tweet.likeCount).toBeGreaterThan(tweet.replyCount ?? 0);
    const user = exampleOf('getUser');
    expect(user).toMatchObject({ username: 'jack', location: 'San Francisco, CA' });
    expect(user.profilePicture).toMatch(/^https:\/\/example\.com\/images\/profile\//);
    expect(exampleOf('listWebhooks').webhooks[0]!.url).toBe('https://example.com/hooks/xsvc');
  });

  it('no example anywhere puts the digits of an id in a text, name, language or type field', () => {
    const bad: string[] = [];
    const walk = (v: unknown, path: string) => {
      if (Array.isArray(v)) {
        for (const [i, x] of v.entries()) walk(x, `${path}[${i}]`);
      } else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) {
          if (
            typeof x === 'string' &&
            /^(text|name|lang|language|type|description|label|title)$/.test(k) &&
            /^\d+$/.test(x)
          )
            bad.push(`${path}.${k}`);
          walk(x, `${path}.${k}`);
        }
    };
    for (const op of operations) walk(exampleResponse(op.id), op.id);
    expect(bad).toEqual([]);
  });

  it('is deterministic: the same example every time', () => {
    for (const op of operations) expect(exampleResponse(op.id), op.id).toEqual(exampleResponse(op.id));
  });

  it('keeps URLs on example.com (or the platform`s own status links), never a real third party', () => {
    const urls: string[] = [];
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
      else if (typeof v === 'string' && /^https?:\/\//.test(v)) urls.push(v);
    };
    for (const op of operations) walk(exampleResponse(op.id));
    for (const u of urls)
      expect(new URL(u).hostname, u).toMatch(/(^|\.)example\.com$|^x\.com$|^127\.0\.0\.1$|^localhost$/);
  });
});
