/**
 * The testing kit's behaviours beyond plain examples: durable writes that end (configurable), overrides typed
 * per operation and deep-merged onto the example, errors injected by code.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { NotFoundError, RateLimitError, WriteActionFailedError, Xsvc } from '../src/index.js';
import {
  createHandlers,
  deepMerge,
  exampleOf,
  exampleResponse,
  type MockOptions,
} from '../src/testing/index.js';

const server = setupServer(...createHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = new Xsvc({ apiKey: `svc_${'0'.repeat(64)}`, maxRetries: 0 });
const use = (options: MockOptions) => server.use(...createHandlers(options));

describe('durable writes in the testing kit', () => {
  it('reach success at once by default: wait() returns without polling', async () => {
    const started = Date.now();
    const action = await client.tweets.create({ account: 'me', text: 'hi' });
    expect(action.terminal).toBe(true);
    const done = await action.wait({ timeoutMs: 5_000 });
    expect(done.status).toBe('success');
    expect(done.action).toBe('create_tweet');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('end in the configured state after the configured polls', async () => {
    use({ writes: { status: 'failed', polls: 1 } });
    const action = await client.users.follow('jack', { account: 'me' });
    expect(action.terminal).toBe(false);
    const seen: string[] = [];
    const err = await action.wait({ onProgress: (a) => seen.push(a.status) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WriteActionFailedError);
    expect((err as WriteActionFailedError).action.status).toBe('failed');
    expect(seen).toEqual(['failed']);
  });

  it("can stay pending, to test a caller's timeout", async () => {
    use({ writes: { status: 'pending' } });
    const action = await client.tweets.like('1', { account: 'me' });
    await expect(action.wait({ timeoutMs: 300 })).rejects.toThrow(/timed out/);
  });
});

describe('overrides', () => {
  it('are deep-merged onto the example', async () => {
    use({ overrides: { lookupTweet: { tweet: { text: 'mocked' } } } });
    const { tweet } = await client.tweets.get('42');
    const example = exampleOf('lookupTweet');
    expect(tweet.text).toBe('mocked');
    expect(tweet.id).toBe(example.tweet.id);
    expect(tweet.createdAt).toBe(example.tweet.createdAt);
  });

  it('may be functions of the request, whose answer is sent as it is', async () => {
    use({ overrides: { getUser: ({ params, example }) => ({ ...example, username: String(params.id) }) } });
    const answer = await client.users.get('ada');
    expect(answer.username).toBe('ada');
    expect(answer.id).toBe(exampleOf('getUser').id);
    use({ overrides: { getUser: () => ({ username: 'bare' }) } });
    expect(await client.users.get('x')).toEqual({ username: 'bare' });
  });

  it('are typed per operation', () => {
    expectTypeOf<NonNullable<MockOptions['overrides']>['lookupTweet']>().toMatchTypeOf<
      { tweet?: { text?: string } } | ((...a: never[]) => unknown) | undefined
    >();
    // @ts-expect-error: a misspelt field is a compile error, not a silent fallback
    use({ overrides: { lookupTweet: { tweet: { txet: 'typo' } } } });
    // @ts-expect-error: an unknown operation id is a compile error
    use({ overrides: { lookupTweets: {} } });
  });

  it('replace arrays whole and leave the example untouched', () => {
    const merged = deepMerge({ a: [1, 2], b: { c: 1, d: 2 } }, { a: [3], b: { d: 5 } });
    expect(merged).toEqual({ a: [3], b: { c: 1, d: 5 } });
    expect(exampleResponse('lookupTweet')).toEqual(exampleResponse('lookupTweet'));
  });
});

describe('injected errors', () => {
  it('answer by code, with the status and shape of the catalog', async () => {
    use({
      errors: { lookupTweet: 'tweet_not_found', getAccount: { code: 'rate_limited', message: 'slow down' } },
    });
    const err = await client.tweets.get('1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).code).toBe('tweet_not_found');
    const limited = await client.account.get().catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).message).toContain('slow down');
  });
});
