import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';
import { balanceOf, createSimUser, otherAccount, ownerId, postTweet, setAccount } from './helpers.js';

const DAY = 24 * 3_600_000;

describe.each(ENGINES)('styles (%s)', (engine) => {
  let t: TestServer;
  let owner: string;
  /** The original tweets of @stylist, newest first. */
  let originals: string[];

  beforeAll(async () => {
    t = await startTestServer(engine);
    owner = await ownerId(t);
    await setAccount(t, owner, { credits: 10_000, plan: 'active' });
    await createSimUser(t, 'Stylist');
    await createSimUser(t, 'other_voice');
    const first = await postTweet(t, { author: 'stylist', text: 'How we ship small releases every day' });
    t.clock.advance(60_000);
    const second = await postTweet(t, {
      author: 'stylist',
      text: 'Three lessons from a year of weekly demos',
    });
    t.clock.advance(60_000);
    // Not originals: a reply and a repost (both by @stylist).
    await postTweet(t, { author: 'stylist', text: 'Agreed with this', inReplyToId: first.id });
    await postTweet(t, { author: 'stylist', retweetOfId: second.id });
    t.clock.advance(60_000);
    const quote = await postTweet(t, { author: 'stylist', text: 'This is the way', quotedTweetId: first.id });
    await postTweet(t, { author: 'other_voice', text: 'Someone else entirely' });
    originals = [quote.id, second.id, first.id];
  });
  afterAll(() => t.close());

  it('analyzes exactly the recent original tweets (201), charged per tweet read', async () => {
    const before = await balanceOf(t, owner);
    const r = await t.request('POST', '/api/v1/styles', { body: { username: 'Stylist' } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.xUsername).toBe('stylist');
    expect(r.body.isOwnAccount).toBe(false);
    expect(r.body.tweetCount).toBe(3);
    expect(r.body.tweets.map((tw: { id: string }) => tw.id)).toEqual(originals);
    expect(r.body.tweets.every((tw: { authorUsername: string }) => tw.authorUsername === 'Stylist')).toBe(
      true,
    );
    expect(r.body.fetchedAt).toBe(new Date(t.clock.now()).toISOString());
    expect(before - (await balanceOf(t, owner))).toBe(3n);
  });

  it('answers the fresh cache with 200 and no charge, then refetches after 7 days (201)', async () => {
    const first = await t.request('GET', '/api/v1/styles/stylist');
    const before = await balanceOf(t, owner);
    t.clock.advance(7 * DAY - 1);
    const cached = await t.request('POST', '/api/v1/styles', { body: { username: 'stylist' } });
    expect(cached.status).toBe(200);
    expect(cached.body.fetchedAt).toBe(first.body.fetchedAt);
    expect(await balanceOf(t, owner)).toBe(before);

    const fresh = await postTweet(t, { author: 'stylist', text: 'A new thought after a week' });
    t.clock.advance(1);
    const refetched = await t.request('POST', '/api/v1/styles', { body: { username: 'stylist' } });
    expect(refetched.status).toBe(201);
    expect(refetched.body.tweets[0].id).toBe(fresh.id);
    expect(refetched.body.tweetCount).toBe(4);
    expect(refetched.body.fetchedAt).toBe(new Date(t.clock.now()).toISOString());
    expect(before - (await balanceOf(t, owner))).toBe(4n);
    const list = await t.request('GET', '/api/v1/styles');
    expect(list.body.styles.filter((s: { xUsername: string }) => s.xUsername === 'stylist')).toHaveLength(1);
  });

  it('marks the account’s own linked identity', async () => {
    const link = await t.request('PUT', '/api/v1/account/x-identity', { body: { username: '@stylist' } });
    expect(link.status).toBe(200);
    const r = await t.request('GET', '/api/v1/styles/@Stylist');
    expect(r.status).toBe(200);
    expect(r.body.isOwnAccount).toBe(true);
    const list = await t.request('GET', '/api/v1/styles');
    expect(list.body.styles).toEqual([
      expect.objectContaining({ xUsername: 'stylist', isOwnAccount: true, tweetCount: 4 }),
    ]);
    expect(list.body.styles[0].tweets).toBeUndefined();
  });

  it('refuses bad and unknown usernames', async () => {
    const bad = await t.request('POST', '/api/v1/styles', { body: { username: '@stylist' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_input');
    const long = await t.request('POST', '/api/v1/styles', { body: { username: 'a'.repeat(16) } });
    expect(long.body.error).toBe('invalid_input');
    const missing = await t.request('POST', '/api/v1/styles', { body: { username: 'nobody_here_x' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('user_not_found');
  });

  it('answers 402 codes: no credits for a fetch, and no cache without a subscription', async () => {
    await setAccount(t, owner, { credits: 0 });
    const broke = await t.request('POST', '/api/v1/styles', { body: { username: 'other_voice' } });
    expect(broke.status).toBe(402);
    expect(broke.body.error).toBe('insufficient_credits');

    await setAccount(t, owner, { credits: 10_000, plan: 'inactive' });
    const none = await t.request('POST', '/api/v1/styles', { body: { username: 'other_voice' } });
    expect(none.status).toBe(402);
    expect(none.body.error).toBe('no_cached_style');
    // A lapsed subscription with a cache, even a stale one, still answers 200.
    t.clock.advance(8 * DAY);
    const stale = await t.request('POST', '/api/v1/styles', { body: { username: 'stylist' } });
    expect(stale.status).toBe(200);
    expect(stale.body.tweetCount).toBe(4);
    await setAccount(t, owner, { plan: 'active' });
  });

  it('compares two cached styles, 404 when one is missing, 400 for a bad name', async () => {
    const made = await t.request('POST', '/api/v1/styles', { body: { username: 'other_voice' } });
    expect(made.status).toBe(201);
    const r = await t.request('GET', '/api/v1/styles/compare?username1=stylist&username2=@Other_Voice');
    expect(r.status).toBe(200);
    expect(r.body.style1.xUsername).toBe('stylist');
    expect(r.body.style2.xUsername).toBe('other_voice');
    expect(r.body.style2.tweets.map((tw: { text: string }) => tw.text)).toEqual(['Someone else entirely']);
    const missing = await t.request('GET', '/api/v1/styles/compare?username1=stylist&username2=nocache');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('style_not_found');
    const bad = await t.request('GET', '/api/v1/styles/compare?username1=stylist&username2=not-valid');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_input');
  });

  it('measures the current engagement of the tweets, per tweet measured', async () => {
    const tweetId = originals[2] as string;
    const like = await t.request('POST', '/sim/users/other_voice/likes', { body: { tweetId } });
    expect(like.status).toBeLessThan(300);
    const live = await t.request('GET', `/api/v1/x/tweets/${tweetId}`);
    const before = await balanceOf(t, owner);
    const r = await t.request('GET', '/api/v1/styles/stylist/performance');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.tweetCount).toBe(4);
    const measured = r.body.tweets.find((tw: { id: string }) => tw.id === tweetId);
    expect(measured.likeCount).toBe(live.body.tweet.likeCount);
    expect(measured.likeCount).toBeGreaterThanOrEqual(1);
    expect(before - (await balanceOf(t, owner))).toBe(4n);
  });

  it('answers the 402 and 404 codes of performance', async () => {
    await setAccount(t, owner, { plan: 'inactive' });
    const inactive = await t.request('GET', '/api/v1/styles/stylist/performance');
    expect([inactive.status, inactive.body.error]).toEqual([402, 'subscription_inactive']);
    await setAccount(t, owner, { plan: 'none' });
    const none = await t.request('GET', '/api/v1/styles/stylist/performance');
    expect([none.status, none.body.error]).toEqual([402, 'no_subscription']);
    await setAccount(t, owner, { plan: 'active', credits: 0 });
    const broke = await t.request('GET', '/api/v1/styles/stylist/performance');
    expect([broke.status, broke.body.error]).toEqual([402, 'insufficient_credits']);
    await setAccount(t, owner, { credits: 10_000 });
    const missing = await t.request('GET', '/api/v1/styles/nocache/performance');
    expect([missing.status, missing.body.error]).toEqual([404, 'style_not_found']);
  });

  it('saves a custom style from sample tweets and validates it', async () => {
    const r = await t.request('PUT', '/api/v1/styles/My_Voice', {
      body: { label: 'My voice', tweets: [{ text: 'Ship it.' }, { text: 'Small steps, every day.' }] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.xUsername).toBe('my_voice');
    expect(r.body.tweets.map((tw: { text: string }) => tw.text)).toEqual([
      'Ship it.',
      'Small steps, every day.',
    ]);
    const perf = await t.request('GET', '/api/v1/styles/my_voice/performance');
    expect(perf.status).toBe(200);
    expect(perf.body.tweetCount).toBe(0);
    const badId = await t.request('PUT', '/api/v1/styles/not-a-name', {
      body: { label: 'x', tweets: [{ text: 'a' }] },
    });
    expect([badId.status, badId.body.error]).toEqual([400, 'invalid_input']);
    const empty = await t.request('PUT', '/api/v1/styles/my_voice', { body: { label: 'x', tweets: [] } });
    expect([empty.status, empty.body.error]).toEqual([400, 'invalid_input']);
  });

  it('keeps styles per account, and deletes by username (204) then 404', async () => {
    const other = await otherAccount(t);
    const hidden = await t.request('GET', '/api/v1/styles/stylist', { key: other.key });
    expect([hidden.status, hidden.body.error]).toEqual([404, 'style_not_found']);
    const list = await t.request('GET', '/api/v1/styles', { key: other.key });
    expect(list.body.styles).toEqual([]);
    const notTheirs = await t.request('DELETE', '/api/v1/styles/stylist', { key: other.key });
    expect(notTheirs.status).toBe(404);

    const del = await t.request('DELETE', '/api/v1/styles/@STYLIST');
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    const again = await t.request('DELETE', '/api/v1/styles/stylist');
    expect([again.status, again.body.error]).toEqual([404, 'style_not_found']);
    const gone = await t.request('GET', '/api/v1/styles/stylist');
    expect(gone.status).toBe(404);
    const noAuth = await t.request('GET', '/api/v1/styles', { key: null });
    expect(noAuth.status).toBe(401);
  });
});
