import type { FeatureServer } from './helpers.js';

/** A target for every tool, picked from the seeded network (and a few posts made through `/sim`). */
export type ToolTargets = Record<string, Record<string, unknown>>;

async function must(t: FeatureServer, url: string, body: unknown) {
  const r = await t.request('POST', url, { body });
  if (r.status >= 300) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * One request body per tool type, each naming a target with something to collect: seeded tweets with the
 * most replies, quotes, reposts and likes; `jack`, who is made sure to have a verified follower, a mention,
 * a like and a media post; a community with a post found by a unique word; a list with followers; a space.
 */
export async function toolTargets(t: FeatureServer): Promise<ToolTargets> {
  const db = t.server.services.database.db;
  const top = async (column: 'reply_count' | 'quote_count' | 'retweet_count' | 'like_count') =>
    (
      await db
        .selectFrom('sim_tweets')
        .select('id')
        .where('deleted', '=', 0)
        .where('kind', '=', 'tweet')
        .orderBy(column, 'desc')
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
  await must(t, '/sim/users', {
    username: 'ext_fan',
    verifiedType: 'blue',
    createdAt: '2020-01-01T00:00:00Z',
  });
  await must(t, '/sim/users/ext_fan/following', { target: 'jack' });
  await must(t, '/sim/tweets', { author: 'ext_fan', text: 'hello @jack, nice post' });
  await must(t, '/sim/tweets', { author: 'jack', text: 'a photo', media: [{ type: 'photo' }] });
  await must(t, '/sim/users/jack/likes', { tweetId: await top('like_count') });
  const community = (
    await db.selectFrom('sim_communities').select('id').orderBy('id').executeTakeFirstOrThrow()
  ).id;
  await must(t, '/sim/tweets', {
    author: 'ext_fan',
    text: 'zebracorn sighting today',
    communityId: community,
  });
  const list = (
    await db
      .selectFrom('sim_list_members')
      .select('list_id')
      .where('role', '=', 'follower')
      .orderBy('list_id')
      .executeTakeFirstOrThrow()
  ).list_id;
  const space = (await db.selectFrom('sim_spaces').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const article = (
    await db.selectFrom('sim_articles').select('tweet_id').orderBy('tweet_id').executeTakeFirstOrThrow()
  ).tweet_id;
  const replied = await top('reply_count');
  return {
    article_extractor: { targetTweetId: article },
    community_extractor: { targetCommunityId: community },
    community_moderator_explorer: { targetCommunityId: community },
    community_post_extractor: { targetCommunityId: community },
    community_search: { searchQuery: 'zebracorn' },
    favoriters: { targetTweetId: await top('like_count') },
    follower_explorer: { targetUsername: '@jack' },
    following_explorer: { targetUsername: 'jack' },
    list_follower_explorer: { targetListId: list },
    list_member_extractor: { targetListId: list },
    list_post_extractor: { targetListId: list },
    mention_extractor: { targetUsername: 'jack' },
    people_search: { searchQuery: 'jack' },
    post_extractor: { targetUsername: 'jack', includeReplies: true },
    quote_extractor: { targetTweetId: await top('quote_count') },
    reply_extractor: { targetTweetId: replied },
    repost_extractor: { targetTweetId: await top('retweet_count') },
    space_explorer: { targetSpaceId: space },
    thread_extractor: { targetTweetId: replied },
    tweet_search_extractor: { searchQuery: 'photo', fromUser: '@jack', queryType: 'Latest' },
    user_likes: { targetUsername: 'jack' },
    user_media: { targetUsername: 'jack' },
    verified_follower_explorer: { targetUsername: 'jack' },
  };
}
