/**
 * Testing app code with `@xsvc/sdk/testing`: msw answers every operation with a schema-valid example; each
 * test overrides only what it is about (typed per operation, deep-merged), ends writes as it needs and
 * injects errors by code.
 */
import { type Tweet, Xsvc } from '@xsvc/sdk';
import { createHandlers, exampleOf, type MockOptions } from '@xsvc/sdk/testing';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postDigest } from '../src/digest.js';

const BASE = 'http://127.0.0.1:8787';
const server = setupServer(...createHandlers({ baseUrl: BASE }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = new Xsvc({ apiKey: `svc_${'0'.repeat(64)}`, baseUrl: BASE, maxRetries: 0 });
const mock = (options: MockOptions) => server.use(...createHandlers({ baseUrl: BASE, ...options }));

/** A tweet of the example, with the fields this test cares about. */
function tweet(id: string, likeCount: number, text: string): Tweet {
  return { ...exampleOf('searchTweets').tweets[0]!, id, likeCount, text };
}

describe('postDigest', () => {
  it('posts about the most liked tweet and reports the confirmed post', async () => {
    const posted: unknown[] = [];
    mock({
      overrides: {
        searchTweets: {
          tweets: [tweet('1', 3, 'small'), tweet('2', 40, 'the big one'), tweet('3', 7, 'mid')],
        },
        // A function answers the whole body: here the write the mock would answer, with the new tweet's id.
        createTweet: async ({ request, example }) => {
          posted.push(await request.json());
          return { ...example, tweetId: '99' };
        },
      },
    });
    const result = await postDigest(client, 'jack', 'me');
    expect(result).toMatchObject({ outcome: 'posted', tweetId: '99', about: { id: '2' } });
    expect(posted).toEqual([{ account: 'me', text: expect.stringContaining('(40 likes): the big one') }]);
  });

  it('reports a write the platform rejected, after the polls it took', async () => {
    mock({ writes: { status: 'failed', polls: 1 } });
    expect(await postDigest(client, 'jack', 'me')).toEqual({ outcome: 'not_posted', reason: 'failed' });
  });

  it('posts nothing when the account has no recent tweets', async () => {
    mock({ overrides: { searchTweets: { tweets: [] } } });
    expect(await postDigest(client, 'jack', 'me')).toEqual({ outcome: 'nothing_to_post' });
  });

  it('reports an unknown account from the error code', async () => {
    mock({ errors: { searchTweets: 'user_not_found' } });
    expect(await postDigest(client, 'nobody', 'me')).toEqual({ outcome: 'unknown_account' });
  });

  it('lets other errors through', async () => {
    mock({ errors: { createTweet: 'insufficient_credits' } });
    await expect(postDigest(client, 'jack', 'me')).rejects.toMatchObject({ code: 'insufficient_credits' });
  });
});
