import { schemas, strictify } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../src/core/auth/accounts.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';

const TweetShape = strictify(schemas.TweetSchema);
const ProfileShape = strictify(schemas.UserProfileSchema);

/** A key of a second, non-owner account. */
async function otherKey(t: TestServer): Promise<string> {
  const db = t.server.services.database.db;
  const account = await createAccount(db, {
    email: 'someone@example.com',
    isOwner: false,
    credits: 0n,
    now: t.clock.now(),
  });
  return (await createApiKey(db, { accountId: account.id, name: 'other', now: t.clock.now() })).fullKey;
}

/** What the reads see of a tweet: `GET /api/v1/x/tweets/{id}`, and the platform lookup behind it. */
async function readTweet(t: TestServer, id: string) {
  const lookup = await t.server.services.platform.getTweet(id);
  const api = await t.request('GET', `/api/v1/x/tweets/${id}`);
  return { lookup, api };
}

describe.each(ENGINES)('/sim control endpoints (%s)', (engine) => {
  let t: TestServer;
  let other: string;
  beforeAll(async () => {
    t = await startTestServer(engine);
    other = await otherKey(t);
  });
  afterAll(async () => t?.close());

  it('is reserved to the owner: 401 without credentials, 403 forbidden for another account', async () => {
    const anonymous = await t.request('POST', '/sim/users', { key: null, body: { username: 'nobody_1' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('unauthenticated');
    for (const [method, url] of [
      ['POST', '/sim/users'],
      ['PATCH', '/sim/users/jack'],
      ['POST', '/sim/tweets'],
      ['DELETE', '/sim/tweets/1'],
      ['POST', '/sim/reset'],
    ] as const) {
      const r = await t.request(method, url, { key: other, body: {} });
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.body.error).toBe('forbidden');
    }
    expect(await t.server.services.platform.getUser('nobody_1')).toBeUndefined();
  });

  it('creates a user that the reads return', async () => {
    const r = await t.request('POST', '/sim/users', {
      body: {
        username: 'sim_maker',
        name: 'Sim Maker',
        description: 'made by a test',
        verifiedType: 'business',
      },
    });
    expect(r.status).toBe(201);
    expect(ProfileShape.safeParse(r.body).success).toBe(true);
    expect(r.body).toMatchObject({ username: 'sim_maker', name: 'Sim Maker' });
    const seen = await t.server.services.platform.getUser('sim_maker');
    expect(seen).toMatchObject({ id: r.body.id, name: 'Sim Maker', description: 'made by a test' });
    const api = await t.request('GET', '/api/v1/x/users/sim_maker');
    expect(api.status).toBe(200);
    expect(JSON.stringify(api.body)).toContain('"Sim Maker"');
  });

  it('changes any profile field, renames, protects and suspends', async () => {
    await t.request('POST', '/sim/users', { body: { username: 'sim_patchee' } });
    const r = await t.request('PATCH', '/sim/users/sim_patchee', {
      body: { username: 'sim_renamed', location: 'Lisbon', protected: true },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ username: 'sim_renamed', location: 'Lisbon' });
    expect(await t.server.services.platform.getUser('sim_patchee')).toBeUndefined();
    expect(await t.server.services.platform.getUser('sim_renamed')).toMatchObject({ location: 'Lisbon' });
    expect((await t.request('PATCH', '/sim/users/sim_renamed', { body: { suspended: true } })).status).toBe(
      200,
    );
    // A suspended author cannot post.
    const post = await t.request('POST', '/sim/tweets', { body: { author: 'sim_renamed', text: 'hello' } });
    expect(post.status).toBe(400);
    expect(post.body.error).toBe('invalid_input');
  });

  it('posts tweets, replies, quotes and reposts in the API shape; the reads see them', async () => {
    const post = await t.request('POST', '/sim/tweets', {
      body: { author: 'sim_maker', text: 'first post #sim', lang: 'en' },
    });
    expect(post.status).toBe(201);
    expect(TweetShape.safeParse(post.body).error?.issues).toBeUndefined();
    expect(post.body.text).toBe('first post #sim');
    const read = await readTweet(t, post.body.id);
    expect(read.lookup).toMatchObject({ tweet: { id: post.body.id, text: 'first post #sim' } });
    expect(read.api.status).toBe(200);
    expect(read.api.body.tweet).toMatchObject({ id: post.body.id, text: 'first post #sim' });

    const reply = await t.request('POST', '/sim/tweets', {
      body: { author: 'jack', text: 'a reply', inReplyToId: post.body.id },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.inReplyToId).toBe(post.body.id);
    const quote = await t.request('POST', '/sim/tweets', {
      body: {
        author: 'jack',
        text: 'a quote',
        quotedTweetId: post.body.id,
        poll: { options: ['yes', 'no'] },
      },
    });
    expect(quote.status).toBe(201);
    const repost = await t.request('POST', '/sim/tweets', {
      body: { author: 'jack', retweetOfId: post.body.id },
    });
    expect(repost.status).toBe(201);
    const media = await t.request('POST', '/sim/tweets', {
      body: { author: 'sim_maker', text: 'pic', media: [{ type: 'photo' }] },
    });
    expect(media.status).toBe(201);
    const after = await t.server.services.platform.getTweet(post.body.id);
    expect(after).toMatchObject({ tweet: { replyCount: 1, quoteCount: 1, retweetCount: 1 } });
  });

  it('deletes a tweet: the reads then report it deleted', async () => {
    const post = await t.request('POST', '/sim/tweets', { body: { author: 'sim_maker', text: 'to delete' } });
    const del = await t.request('DELETE', `/sim/tweets/${post.body.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    const read = await readTweet(t, post.body.id);
    expect(read.lookup).toEqual({ missing: 'deleted' });
    expect(read.api.status).toBe(404);
    expect(read.api.body.error).toBe('tweet_not_found');
    const again = await t.request('DELETE', `/sim/tweets/${post.body.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('tweet_not_found');
  });

  it('follows and likes', async () => {
    const before = await t.server.services.platform.getUser('sim_maker');
    expect(
      (await t.request('POST', '/sim/users/jack/following', { body: { target: 'sim_maker' } })).status,
    ).toBe(200);
    const after = await t.server.services.platform.getUser('sim_maker');
    expect(after?.followers).toBe((before?.followers ?? 0) + 1);
    expect((await t.request('DELETE', '/sim/users/jack/following/sim_maker')).status).toBe(200);
    expect((await t.server.services.platform.getUser('sim_maker'))?.followers).toBe(before?.followers);
    const post = await t.request('POST', '/sim/tweets', { body: { author: 'sim_maker', text: 'like me' } });
    expect(
      (await t.request('POST', '/sim/users/jack/likes', { body: { tweetId: post.body.id } })).status,
    ).toBe(200);
    expect(await t.server.services.platform.getTweet(post.body.id)).toMatchObject({
      tweet: { likeCount: 1 },
    });
  });

  it('refuses bad input with 400 and a code naming the field; unknown users and tweets with 404', async () => {
    const noAuthor = await t.request('POST', '/sim/tweets', { body: { text: 'who am I' } });
    expect(noAuthor.status).toBe(400);
    expect(noAuthor.body.error).toBe('invalid_input');
    expect(noAuthor.body.message).toContain('author');
    const badMedia = await t.request('POST', '/sim/tweets', {
      body: { author: 'jack', text: 'x', media: [{ type: 'sticker' }] },
    });
    expect(badMedia.status).toBe(400);
    expect(badMedia.body.message).toContain('media.0.type');
    const badName = await t.request('POST', '/sim/users', { body: { username: 'has space' } });
    expect(badName.status).toBe(400);
    expect(badName.body.error).toBe('invalid_input');
    const badJson = await t.request('POST', '/sim/users', { rawBody: '{"username":' });
    expect(badJson.status).toBe(400);
    expect(badJson.body.error).toBe('invalid_json');
    const badSize = await t.request('POST', '/sim/reset', { body: { seed: 1, size: 'huge' } });
    expect(badSize.status).toBe(400);
    expect(badSize.body.message).toContain('size');
    const ghost = await t.request('PATCH', '/sim/users/no_such_user_9', { body: { name: 'x' } });
    expect(ghost.status).toBe(404);
    expect(ghost.body.error).toBe('user_not_found');
    const ghostAuthor = await t.request('POST', '/sim/tweets', {
      body: { author: 'no_such_user_9', text: 'x' },
    });
    expect(ghostAuthor.status).toBe(404);
    expect(ghostAuthor.body.error).toBe('user_not_found');
    const ghostReply = await t.request('POST', '/sim/tweets', {
      body: { author: 'jack', text: 'x', inReplyToId: '1' },
    });
    expect(ghostReply.status).toBe(404);
    expect(ghostReply.body.error).toBe('tweet_not_found');
  });

  it('resets and reseeds the network: what the control added is gone, the fixed accounts are back', async () => {
    const r = await t.request('POST', '/sim/reset', { body: { seed: 'another seed', size: 'tiny' } });
    expect(r.status).toBe(200);
    expect(r.body.seededWith).toMatchObject({ size: 'tiny', seed: 'another seed' });
    expect(r.body.counts.sim_users).toBeGreaterThan(0);
    expect(await t.server.services.platform.getUser('sim_maker')).toBeUndefined();
    expect(await t.server.services.platform.getUser('jack')).toBeDefined();
  });
});

describe('/sim in xapi mode', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { platform: 'xapi', xBearerToken: 'test-token' });
  });
  afterAll(async () => t?.close());

  it('is not mounted', async () => {
    for (const [method, url] of [
      ['POST', '/sim/users'],
      ['POST', '/sim/tweets'],
      ['POST', '/sim/reset'],
    ] as const) {
      const r = await t.request(method, url, { body: {} });
      expect(r.status).toBe(404);
      expect(r.body.error).toBe('not_found');
    }
  });
});
