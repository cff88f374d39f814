/**
 * Type tests: they fail the typecheck (run before the tests) when the generated client's types regress.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  Item,
  Monitor,
  Output,
  Page,
  PagePromise,
  Params,
  SearchTweetsParams,
  Tweet,
  TweetSearchPage,
  WriteAction,
} from '../src/index.js';
import { Xsvc } from '../src/index.js';

const client = new Xsvc({
  apiKey: 'svc_x',
  baseUrl: 'http://127.0.0.1:1',
  fetch: (async () => new Response('{}')) as typeof fetch,
});

describe('client types', () => {
  it('types parameters and answers from the contract', () => {
    expectTypeOf(client.account.get).returns.resolves.toHaveProperty('monitorBilling');
    expectTypeOf(client.monitors.create).parameter(0).toHaveProperty('username').toEqualTypeOf<string>();
    expectTypeOf(client.webhooks.resume).parameter(0).toEqualTypeOf<string>();
    // @ts-expect-error: eventTypes must be event types of the contract
    void client.monitors.create({ username: 'jack', eventTypes: ['tweet.nope'] });
    // @ts-expect-error: the locale is one of en, tr, es
    void client.account.update({ locale: 'fr' });
  });

  it('returns pages for listings and write handles for writes', () => {
    expectTypeOf(client.events.list()).toMatchTypeOf<PagePromise<unknown, unknown>>();
    expectTypeOf(client.draws.list).returns.resolves.toMatchTypeOf<Page<unknown, unknown>>();
    expectTypeOf(client.tweets.create).returns.resolves.toEqualTypeOf<WriteAction>();
    expectTypeOf(client.extractions.export).returns.resolves.toEqualTypeOf<Response>();
  });

  it('types the items of listings', async () => {
    for await (const tweet of client.tweets.search({ q: 'x' })) {
      expectTypeOf(tweet.text).toEqualTypeOf<string>();
      break;
    }
    const page = await client.users.followers('jack');
    expectTypeOf<(typeof page.items)[number]['username']>().toEqualTypeOf<string>();
  });

  it('keeps response enums open, so new values do not break callers', () => {
    type Status = Awaited<ReturnType<typeof client.webhooks.list>>['webhooks'][number]['deliveryStatus'];
    expectTypeOf<'needs_attention'>().toMatchTypeOf<Status>();
    expectTypeOf<'a_future_status'>().toMatchTypeOf<Status>();
  });

  it("names every resource and every method's parameters and result", () => {
    expectTypeOf(client.tweets.search).parameter(0).toEqualTypeOf<SearchTweetsParams>();
    expectTypeOf(client.tweets.search).returns.toEqualTypeOf<PagePromise<Tweet, TweetSearchPage>>();
    expectTypeOf(client.monitors.create).returns.resolves.toEqualTypeOf<Monitor>();
    expectTypeOf<Params<'searchTweets'>>().toEqualTypeOf<SearchTweetsParams>();
    expectTypeOf<Output<'searchTweets'>>().toEqualTypeOf<TweetSearchPage>();
    expectTypeOf<Item<'searchTweets'>>().toEqualTypeOf<Tweet>();
  });

  it('accepts undefined for every option, as unset environment variables give', () => {
    void new Xsvc({ apiKey: process.env.XSVC_API_KEY, baseUrl: undefined, headers: { a: undefined } });
    void client.account.get({ signal: undefined, timeoutMs: undefined, idempotencyKey: undefined });
    // @ts-expect-error: a wrong type is still refused
    void new Xsvc({ timeoutMs: '5' });
  });
});
