import { describe, expect, it } from 'vitest';
import { num } from '../../src/core/db/database.js';
import type { Tweet, UserProfile } from '../../src/core/platform/platform.js';
import { compareIds, SimulatedPlatformError } from '../../src/platform/simulated/index.js';
import { ENGINES, strictTweet, strictUser, useNetwork, walk } from './network.js';

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SimulatedPlatformError);
  expect((err as SimulatedPlatformError).code).toBe(code);
}

describe.each(ENGINES)('SimulatedControl on %s', (engine) => {
  const net = useNetwork(engine);
  const tweet = async (id: string) => {
    const found = await net.platform.getTweet(id);
    if (!('tweet' in found)) throw new Error(`tweet ${id} is ${found.missing}`);
    return found.tweet;
  };

  it('posts a reply that appears in the replies, with counters and a notification', async () => {
    const demo = (await net.platform.getUser('xsvc_demo')) as UserProfile;
    const giveaway = demo.pinnedTweetIds?.[0] as string;
    const before = await tweet(giveaway);
    const maxId = await net.db.db
      .selectFrom('sim_tweets')
      .select('id')
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    net.clock.advance(5_000);
    const reply = await net.control.createTweet({
      author: 'jack',
      text: '@xsvc_demo my tip: #TypeScript strict mode, and ask @newsroom https://example.com/tips',
      inReplyToId: giveaway,
    });
    strictTweet.parse(reply);
    expect(reply).toMatchObject({
      isReply: true,
      inReplyToId: giveaway,
      inReplyToUsername: 'xsvc_demo',
      conversationId: giveaway,
    });
    expect(reply.entities?.mentions?.map((m) => m.username)).toEqual(['xsvc_demo', 'newsroom']);
    expect(reply.entities?.hashtags).toEqual([{ text: 'TypeScript' }]);
    expect(reply.entities?.urls?.[0]?.expandedUrl).toBe('https://example.com/tips');
    expect(compareIds(reply.id, maxId.id)).toBeGreaterThan(0);
    const replies = await net.platform.replies(giveaway, {}, { pageSize: 5 });
    expect(replies.items[0]?.id).toBe(reply.id);
    expect((await tweet(giveaway)).replyCount).toBe((before.replyCount ?? 0) + 1);
    const notes = await net.platform.notifications(demo.id, { pageSize: 5 });
    expect(notes.items[0]).toMatchObject({
      kind: 'reply',
      actor: { username: 'jack' },
      tweet: { id: reply.id },
    });
    const jack = (await net.platform.getUser('jack')) as UserProfile;
    expect((await net.platform.userReplies(jack.id, { pageSize: 1 })).items[0]?.id).toBe(reply.id);
  });

  it('posts note tweets, media, polls, quotes and reposts in the API shape', async () => {
    net.clock.advance(1_000);
    // A new account: nothing in the seed has it reposting or quoting already.
    await net.control.createUser({ username: 'fresh_poster' });
    const long = 'word '.repeat(700).trim();
    const note = await net.control.createTweet({ author: 'blue_creator', text: long });
    expect(note).toMatchObject({ isNoteTweet: true, text: long });
    await rejectsWith(
      net.control.createTweet({ author: 'blue_creator', text: 'x'.repeat(25_001) }),
      'invalid_input',
    );
    const withMedia = await net.control.createTweet({
      author: 'fresh_poster',
      text: 'pictures and a clip',
      media: [{ type: 'photo' }, { type: 'video', url: 'https://cdn.example.com/clip.jpg' }],
    });
    expect(withMedia.media?.map((m) => m.type)).toEqual(['photo', 'video']);
    expect(withMedia.media?.[1]?.mediaUrl).toBe('https://cdn.example.com/clip.jpg');
    const poll = await net.control.createTweet({
      author: 'fresh_poster',
      text: 'Tea or coffee?',
      poll: { options: ['Tea', 'Coffee'] },
    });
    expect(poll.poll).toMatchObject({
      votingStatus: 'open',
      options: [
        { label: 'Tea', votes: 0 },
        { label: 'Coffee', votes: 0 },
      ],
    });
    const quoted = await tweet('20');
    const quote = await net.control.createTweet({
      author: 'fresh_poster',
      text: 'Where it all began',
      quotedTweetId: '20',
    });
    expect(quote).toMatchObject({ isQuoteStatus: true, quoted_tweet: { id: '20' } });
    expect((await tweet('20')).quoteCount).toBe((quoted.quoteCount ?? 0) + 1);
    const repost = await net.control.createTweet({ author: 'fresh_poster', retweetOfId: '20' });
    expect(repost).toMatchObject({
      isRetweet: true,
      retweeted_tweet: { id: '20' },
      text: 'RT @jack: just setting up my twttr',
    });
    expect(repost.retweetedAt).toBe(new Date(net.clock.now()).toISOString());
    expect((await tweet('20')).retweetCount).toBe((quoted.retweetCount ?? 0) + 1);
    await rejectsWith(
      net.control.createTweet({ author: 'fresh_poster', retweetOfId: '20' }),
      'invalid_input',
    );
    for (const t of [note, withMedia, poll, quote, repost]) strictTweet.parse(t);
    const poster = (await net.platform.getUser('fresh_poster')) as UserProfile;
    const timeline = await net.platform.userTweets(poster.id, {}, { pageSize: 4 });
    expect(timeline.items.map((t) => t.id)).toEqual([repost.id, quote.id, poll.id, withMedia.id]);
  });

  it('reports unknown users and tweets with typed errors', async () => {
    await rejectsWith(net.control.createTweet({ author: 'nobody_at_all', text: 'hi' }), 'user_not_found');
    await rejectsWith(
      net.control.createTweet({ author: 'jack', text: 'hi', inReplyToId: '1' }),
      'tweet_not_found',
    );
    await rejectsWith(net.control.createTweet({ author: 'jack', text: '   ' }), 'invalid_input');
    await rejectsWith(net.control.deleteTweet('1'), 'tweet_not_found');
    await rejectsWith(net.control.updateUser('nobody_at_all', { name: 'x' }), 'user_not_found');
    await rejectsWith(net.control.updateUser('jack', { username: 'not valid!' }), 'invalid_input');
    await rejectsWith(net.control.updateUser('jack', { username: 'XSVC_demo' }), 'invalid_input');
  });

  it('renames, changes profiles and bumps the profile version', async () => {
    const version = async (id: string) =>
      num(
        (
          await net.db.db
            .selectFrom('sim_users')
            .select('profile_version')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).profile_version,
      );
    const before = (await net.platform.getUser('blue_creator')) as UserProfile;
    const v0 = await version(before.id);
    const after = await net.control.updateUser('@blue_creator', {
      username: 'Mia_Makes',
      name: 'Mia Makes',
      description: 'New bio',
      location: 'Lisbon',
      url: 'https://mia.example.org',
      profilePicture: 'https://cdn.example.com/mia.png',
      verifiedType: 'business',
    });
    strictUser.parse(after);
    expect(after).toMatchObject({
      id: before.id,
      username: 'Mia_Makes',
      description: 'New bio',
      verifiedType: 'business',
    });
    expect(await net.platform.getUser('blue_creator')).toBeUndefined();
    expect((await net.platform.getUser('https://x.com/mia_makes'))?.id).toBe(before.id);
    expect(await version(before.id)).toBe(v0 + 1);
    await net.control.updateUser(before.id, { name: 'Mia Makes' });
    expect(await version(before.id)).toBe(v0 + 1);
    const own = (await net.platform.userTweets(before.id, {}, { pageSize: 1 })).items[0] as Tweet;
    expect((await net.control.updateUser(before.id, { pinnedTweetId: own.id })).pinnedTweetIds).toEqual([
      own.id,
    ]);
    await rejectsWith(net.control.updateUser(before.id, { pinnedTweetId: '20' }), 'invalid_input');
  });

  it('protecting and suspending change what reads show', async () => {
    const user = (await net.platform.getUser('gov_agency')) as UserProfile;
    const [own] = (await net.platform.userTweets(user.id, {}, { pageSize: 1 })).items as [Tweet];
    expect((await net.platform.getTweet(own.id)) as object).toHaveProperty('tweet');
    await net.control.updateUser('gov_agency', { protected: true });
    expect(await net.platform.getTweet(own.id)).toEqual({ missing: 'protected' });
    expect(
      (await walk((p) => net.platform.searchTweets({ q: 'from:gov_agency', queryType: 'Latest' }, p), 50))
        .items,
    ).toEqual([]);
    await net.control.updateUser('gov_agency', { protected: false, suspended: true });
    expect(await net.platform.getTweet(own.id)).toEqual({ missing: 'author_suspended' });
    expect(await net.platform.getUser('gov_agency')).toMatchObject({
      unavailable: true,
      unavailableReason: 'suspended',
    });
    await rejectsWith(
      net.control.createTweet({ author: 'gov_agency', text: 'still here?' }),
      'invalid_input',
    );
    await net.control.updateUser('gov_agency', { suspended: false });
    expect((await net.platform.getTweet(own.id)) as object).toHaveProperty('tweet');
  });

  it('deletes a tweet: hidden everywhere, counters restored, reposts gone', async () => {
    net.clock.advance(1_000);
    const original = await net.control.createTweet({ author: 'jack', text: 'a unique zebra tweet' });
    const reply = await net.control.createTweet({
      author: 'newsroom',
      text: 'replying to the zebra',
      inReplyToId: original.id,
    });
    const repost = await net.control.createTweet({ author: 'newsroom', retweetOfId: original.id });
    expect((await tweet(original.id)).replyCount).toBe(1);
    const jackBefore = (await net.platform.getUser('jack')) as UserProfile;
    await net.control.deleteTweet(reply.id);
    expect(await net.platform.getTweet(reply.id)).toEqual({ missing: 'deleted' });
    expect((await tweet(original.id)).replyCount).toBe(0);
    expect((await net.platform.replies(original.id, {}, { pageSize: 10 })).items).toEqual([]);
    await net.control.deleteTweet(original.id);
    expect(await net.platform.getTweet(repost.id)).toEqual({ missing: 'deleted' });
    expect(
      (await net.platform.searchTweets({ q: 'zebra', queryType: 'Latest' }, { pageSize: 10 })).items,
    ).toEqual([]);
    expect(((await net.platform.getUser('jack')) as UserProfile).statusesCount).toBe(
      (jackBefore.statusesCount ?? 0) - 1,
    );
    await rejectsWith(net.control.deleteTweet(original.id), 'tweet_not_found');
  });

  it('creates accounts, follows and likes', async () => {
    const created = await net.control.createUser({
      username: 'new_person',
      name: 'New Person',
      description: 'Hello',
    });
    strictUser.parse(created);
    expect(created).toMatchObject({
      username: 'new_person',
      followers: 0,
      verified: false,
      protected: false,
    });
    await rejectsWith(net.control.createUser({ username: 'NEW_person' }), 'invalid_input');
    await net.control.follow('new_person', 'jack');
    await net.control.follow('new_person', 'jack');
    expect(await net.platform.checkFollow(created.id, '12')).toEqual({
      isFollowing: true,
      isFollowedBy: false,
    });
    expect(((await net.platform.getUser('new_person')) as UserProfile).following).toBe(1);
    expect((await net.platform.followers('12', {}, { pageSize: 1 })).items[0]?.id).toBe(created.id);
    const before = await tweet('20');
    await net.control.like('new_person', '20');
    expect((await tweet('20')).likeCount).toBe((before.likeCount ?? 0) + 1);
    expect((await net.platform.favoriters('20', {}, { pageSize: 1 })).items[0]?.id).toBe(created.id);
    expect((await net.platform.userLikes(created.id, { pageSize: 5 })).items.map((t) => t.id)).toEqual([
      '20',
    ]);
    await net.control.unfollow('new_person', 'jack');
    expect(await net.platform.checkFollow(created.id, '12')).toEqual({
      isFollowing: false,
      isFollowedBy: false,
    });
  });

  it('resets the network to a fresh seed', async () => {
    const report = await net.control.resetNetwork({ seed: 'again', size: 'tiny' });
    expect(report).toMatchObject({ skipped: false, seededWith: { size: 'tiny', seed: 'again' } });
    expect(await net.platform.getUser('new_person')).toBeUndefined();
    expect(await net.platform.getUser('blue_creator')).toBeDefined();
    expect((await net.platform.getUser('jack'))?.id).toBe('12');
  });
});
