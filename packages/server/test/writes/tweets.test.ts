import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorEngineOf } from '../../src/features/monitors/feature.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';
import { setBalance } from '../reads/fixtures.js';
import { connectThroughApi, newSimUser } from '../x-accounts/helpers.js';
import { noOp, ok, pollAction, read, refused, userIds, write } from './helpers.js';

/**
 * Tweet writes on the simulated platform, end to end through HTTP: a connected account posts, and the post
 * is what the reads (and so the monitors) see; replies, quotes, media, community posts, long posts, deletes,
 * likes and reposts; the idempotency of retried writes; the 422 refusals with their codes.
 */
describe.each(ENGINES)('tweet writes (%s)', (engine) => {
  let t: TestServer;
  let ownerId: string;
  let writer: { id: string; xUserId: string; xUsername: string };
  let otherTweet: string;
  let lockedTweet: string;
  beforeAll(async () => {
    t = await startTestServer(engine);
    ownerId = (t as TestServer & { accountId: string }).accountId;
    await setBalance(t, ownerId, 1_000_000);
    const user = await newSimUser(t, 'writer');
    writer = await connectThroughApi(t, user.username);
    const jack = await t.request('POST', '/sim/tweets', {
      body: { author: 'jack', text: 'hello from jack' },
    });
    otherTweet = jack.body.id;
    const locked = await t.request('POST', '/sim/tweets', {
      body: { author: 'locked_account', text: 'private' },
    });
    lockedTweet = locked.body.id;
  });
  afterAll(async () => t?.close());

  it('posts a tweet that the tweet lookup and the author timeline read', async () => {
    const before = await t.server.services.credits.balance(ownerId);
    const action = await ok(t, 'POST', '/api/v1/x/tweets', {
      account: `@${writer.xUsername}`,
      text: 'Shipping today',
    });
    expect(action).toMatchObject({
      object: 'x_write_action',
      action: 'create_tweet',
      chargedCredits: '10',
      billing: { status: 'charged', charged: true, chargedCredits: '10', plannedCredits: '10' },
      request: { hash: expect.stringMatching(/^[0-9a-f]{64}$/), payload: { text: 'Shipping today' } },
      account: { id: writer.id, username: writer.xUsername },
      target: null,
      targetId: null,
      result: { type: 'tweet', id: expect.stringMatching(/^\d+$/) },
      nextAction: null,
      sendDispatched: true,
      pollAfterMs: null,
    });
    expect(action.tweetId).toBe(action.result.id);
    expect(action.statusUrl).toMatch(new RegExp(`/api/v1/x/write-actions/${action.id}$`));
    expect(await t.server.services.credits.balance(ownerId)).toBe(before - 10n);

    const lookup = await read(t, `/api/v1/x/tweets/${action.tweetId}`);
    expect(lookup.tweet).toMatchObject({
      id: action.tweetId,
      text: 'Shipping today',
      author: { id: writer.xUserId },
    });
    const timeline = await read(t, `/api/v1/x/users/${writer.xUsername}/tweets`);
    expect(timeline.tweets.map((tw: { id: string }) => tw.id)).toContain(action.tweetId);

    const status = await pollAction(t, action.id);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ id: action.id, status: 'success', tweetId: action.tweetId });
    const missing = await t.request('GET', '/api/v1/x/write-actions/wa_nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('not_found');
  });

  it('posts a tweet that an account monitor on the author reports as an event', async () => {
    const monitor = await t.request('POST', '/api/v1/monitors', {
      body: { username: writer.xUsername, eventTypes: ['tweet.new'] },
    });
    expect(monitor.status).toBe(201);
    const action = await ok(t, 'POST', '/api/v1/x/tweets', { account: writer.id, text: 'Monitored post' });
    t.clock.advance(1_000);
    await monitorEngineOf(t.server.app)?.checkOnce();
    const events = await read(t, `/api/v1/events?monitorId=${monitor.body.id}`);
    expect(events.events.map((e: { data: { id: string } }) => e.data.id)).toContain(action.tweetId);
  });

  it('replays a retried write with the same key: one tweet, one charge; another body is 409', async () => {
    const key = randomUUID();
    const body = { account: writer.id, text: `Retry me ${key}` };
    const first = await write(t, 'POST', '/api/v1/x/tweets', body, { idempotencyKey: key });
    expect(first.status).toBe(200);
    const again = await write(
      t,
      'POST',
      '/api/v1/x/tweets',
      { text: body.text, account: body.account },
      {
        idempotencyKey: key,
      },
    );
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, tweetId: first.body.tweetId, idempotent: true });
    const rows = await t.server.services.database.db
      .selectFrom('sim_tweets')
      .select('id')
      .where('text', '=', body.text)
      .execute();
    expect(rows).toHaveLength(1);
    const charges = await t.server.services.database.db
      .selectFrom('credit_ledger')
      .select('id')
      .where('request_id', '=', first.body.requestId)
      .execute();
    expect(charges).toHaveLength(1);

    const conflict = await write(
      t,
      'POST',
      '/api/v1/x/tweets',
      { ...body, text: 'something else' },
      {
        idempotencyKey: key,
      },
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({
      error: 'idempotency_conflict',
      id: first.body.id,
      requestHash: first.body.request.hash,
    });
    const otherOperation = await write(
      t,
      'POST',
      `/api/v1/x/tweets/${otherTweet}/like`,
      { account: writer.id },
      {
        idempotencyKey: key,
      },
    );
    expect(otherOperation.status).toBe(409);

    const missing = await write(t, 'POST', '/api/v1/x/tweets', body, { idempotencyKey: null });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('missing_idempotency_key');
    const invalid = await write(t, 'POST', '/api/v1/x/tweets', body, { idempotencyKey: 'has space' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe('invalid_idempotency_key');
  });

  it('posts replies, quotes, media and community posts', async () => {
    const reply = await ok(t, 'POST', '/api/v1/x/tweets', {
      account: writer.xUsername,
      text: 'Nice one',
      reply_to_tweet_id: otherTweet,
    });
    expect(reply.target).toEqual({ type: 'tweet', id: otherTweet });
    const replied = await read(t, `/api/v1/x/tweets/${reply.tweetId}`);
    expect(replied.tweet).toMatchObject({ isReply: true, inReplyToId: otherTweet });

    const quote = await ok(t, 'POST', '/api/v1/x/tweets', {
      account: writer.xUsername,
      text: `Look at this https://x.com/jack/status/${otherTweet}`,
    });
    const quoted = await read(t, `/api/v1/x/tweets/${quote.tweetId}`);
    expect(quoted.tweet).toMatchObject({ text: 'Look at this', quoted_tweet: { id: otherTweet } });

    const media = await ok(t, 'POST', '/api/v1/x/tweets', {
      account: writer.xUsername,
      media: ['https://images.example.com/launch.png', 'https://images.example.com/clip.mp4'],
    });
    const withMedia = await read(t, `/api/v1/x/tweets/${media.tweetId}`);
    expect(withMedia.tweet.media.map((m: { type: string }) => m.type)).toEqual(['photo', 'video']);
    expect(withMedia.tweet.media[0].mediaUrl).toBe('https://images.example.com/launch.png');

    const community = await t.server.services.database.db
      .selectFrom('sim_communities')
      .select('id')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await refused(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: writer.xUsername, text: 'hi all', community_id: community.id },
      422,
      'x_rejected',
    );
    await ok(t, 'POST', `/api/v1/x/communities/${community.id}/join`, { account: writer.xUsername });
    const post = await ok(t, 'POST', '/api/v1/x/tweets', {
      account: writer.xUsername,
      text: 'hi all',
      community_id: community.id,
    });
    const posts = await read(t, `/api/v1/x/communities/${community.id}/tweets`);
    expect(posts.tweets.map((tw: { id: string }) => tw.id)).toContain(post.tweetId);
  });

  it('refuses long text, duplicates, missing and protected targets with their codes', async () => {
    const long = 'x'.repeat(300);
    await refused(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: writer.id, text: long },
      422,
      'x_content_too_long',
    );
    await refused(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: writer.id, text: long, is_note_tweet: true },
      422,
      'x_account_feature_required',
    );
    await refused(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: writer.id, text: 'x'.repeat(25_001) },
      400,
      'invalid_input',
    );
    await ok(t, 'POST', '/api/v1/x/tweets', { account: writer.id, text: 'Same words' });
    const dup = await refused(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: writer.id, text: 'Same words' },
      422,
      'x_duplicate_action',
    );
    expect(dup).toMatchObject({
      object: 'x_write_action',
      status: 'failed',
      terminal: true,
      safeToRetry: false,
      nextAction: { type: 'fix_request' },
    });
    const failed = await pollAction(t, dup.id);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({
      status: 'failed',
      error: 'x_duplicate_action',
      charged: false,
      billing: { status: 'not_charged' },
    });
    await refused(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: writer.id, text: 'to nobody', reply_to_tweet_id: '1' },
      422,
      'x_target_not_found',
    );
    await refused(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: writer.id, text: 'let me in', reply_to_tweet_id: lockedTweet },
      422,
      'x_reply_not_allowed',
    );
    await refused(t, 'POST', '/api/v1/x/tweets', { account: writer.id }, 400, 'invalid_input');
    await refused(
      t,
      'POST',
      '/api/v1/x/tweets',
      { account: writer.id, media: ['https://images.example.com/file.txt'] },
      422,
      'media_download_failed',
    );
  });

  it('posts a long note tweet from a verified account', async () => {
    const demo = await connectThroughApi(t, 'xsvc_demo');
    const text = `${'long '.repeat(100)}end`;
    const action = await ok(t, 'POST', '/api/v1/x/tweets', { account: demo.id, text, is_note_tweet: true });
    const tweet = await read(t, `/api/v1/x/tweets/${action.tweetId}`);
    expect(tweet.tweet.text).toBe(text);
  });

  it('deletes an own tweet (10 credits), and refuses another account’s or a missing one', async () => {
    const posted = await ok(t, 'POST', '/api/v1/x/tweets', { account: writer.id, text: 'short-lived' });
    const before = await t.server.services.credits.balance(ownerId);
    const del = await ok(t, 'DELETE', `/api/v1/x/tweets/${posted.tweetId}`, { account: writer.id });
    expect(del).toMatchObject({
      action: 'delete_tweet',
      chargedCredits: '10',
      target: { type: 'tweet', id: posted.tweetId },
    });
    expect(await t.server.services.credits.balance(ownerId)).toBe(before - 10n);
    const gone = await t.request('GET', `/api/v1/x/tweets/${posted.tweetId}`);
    expect(gone.status).toBe(404);
    await refused(
      t,
      'DELETE',
      `/api/v1/x/tweets/${posted.tweetId}`,
      { account: writer.id },
      422,
      'x_target_not_found',
    );
    await refused(t, 'DELETE', `/api/v1/x/tweets/${otherTweet}`, { account: writer.id }, 422, 'x_rejected');
    await refused(t, 'DELETE', '/api/v1/x/tweets/abc', { account: writer.id }, 400, 'invalid_input');
  });

  it('likes and unlikes: the favoriters read follows; repeating is 200', async () => {
    const like = await ok(t, 'POST', `/api/v1/x/tweets/${otherTweet}/like`, { account: writer.id });
    expect(like.result).toEqual({ type: 'state_change', state: 'liked' });
    expect(userIds(await read(t, `/api/v1/x/tweets/${otherTweet}/favoriters`))).toContain(writer.xUserId);
    await noOp(t, 'POST', `/api/v1/x/tweets/${otherTweet}/like`, { account: writer.id });
    const lookup = await read(t, `/api/v1/x/tweets/${otherTweet}`);
    expect(lookup.tweet.likeCount).toBe(1);
    const unlike = await ok(t, 'DELETE', `/api/v1/x/tweets/${otherTweet}/like`, { account: writer.id });
    expect(unlike.result).toEqual({ type: 'state_change', state: 'not_liked' });
    expect(userIds(await read(t, `/api/v1/x/tweets/${otherTweet}/favoriters`))).not.toContain(writer.xUserId);
    await noOp(t, 'DELETE', `/api/v1/x/tweets/${otherTweet}/like`, { account: writer.id });
    await refused(t, 'POST', '/api/v1/x/tweets/1/like', { account: writer.id }, 422, 'x_target_not_found');
    await refused(t, 'DELETE', '/api/v1/x/tweets/1/like', { account: writer.id }, 422, 'x_target_not_found');
    await refused(
      t,
      'POST',
      `/api/v1/x/tweets/${lockedTweet}/like`,
      { account: writer.id },
      422,
      'x_account_protected',
    );
  });

  it('retweets and undoes it: the retweeters read follows', async () => {
    await ok(t, 'POST', `/api/v1/x/tweets/${otherTweet}/retweet`, { account: writer.id });
    await noOp(t, 'POST', `/api/v1/x/tweets/${otherTweet}/retweet`, { account: writer.id });
    expect(userIds(await read(t, `/api/v1/x/tweets/${otherTweet}/retweeters`))).toEqual([writer.xUserId]);
    const timeline = await read(t, `/api/v1/x/users/${writer.xUsername}/tweets`);
    expect(
      timeline.tweets.some(
        (tw: { retweeted_tweet?: { id: string } }) => tw.retweeted_tweet?.id === otherTweet,
      ),
    ).toBe(true);
    await ok(t, 'DELETE', `/api/v1/x/tweets/${otherTweet}/retweet`, { account: writer.id });
    expect(userIds(await read(t, `/api/v1/x/tweets/${otherTweet}/retweeters`))).toEqual([]);
    await noOp(t, 'DELETE', `/api/v1/x/tweets/${otherTweet}/retweet`, { account: writer.id });
    await refused(t, 'POST', '/api/v1/x/tweets/1/retweet', { account: writer.id }, 422, 'x_target_not_found');
    await refused(
      t,
      'DELETE',
      '/api/v1/x/tweets/1/retweet',
      { account: writer.id },
      422,
      'x_target_not_found',
    );
    await refused(
      t,
      'POST',
      `/api/v1/x/tweets/${lockedTweet}/retweet`,
      { account: writer.id },
      422,
      'x_account_protected',
    );
  });
});
