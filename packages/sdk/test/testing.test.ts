/** `@xsvc/sdk/testing` as a user would use it: msw's setupServer with the generated handlers. */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, Xsvc } from '../src/index.js';
import { createHandlers, mockError } from '../src/testing/index.js';

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
