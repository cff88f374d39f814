import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Tweet } from '../platform.js';
import { chunks, loadTweets, loadUsers, tweetVisibility } from './lookup.js';
import { type MapContext, toTweet } from './mappers.js';
import type { TweetRow } from './stored.js';

/**
 * Turns tweet rows into API tweets with a few batched lookups: authors, the quoted and reposted tweets (kept
 * only when visible) and their authors, replied-to usernames and community names. A repost whose original
 * is no longer visible is dropped, as the platform drops it.
 */
export async function hydrateTweets(
  db: Kysely<Database>,
  rows: readonly TweetRow[],
  now: number,
): Promise<Tweet[]> {
  if (rows.length === 0) return [];
  const nestedIds = rows.flatMap((r) =>
    [r.quoted_tweet_id, r.retweet_of_id].filter((id): id is string => id !== null),
  );
  const nestedAll = await loadTweets(db, nestedIds);
  const userIds = new Set<string>();
  for (const r of [...rows, ...nestedAll.values()]) {
    userIds.add(r.author_id);
    if (r.in_reply_to_user_id) userIds.add(r.in_reply_to_user_id);
  }
  const users = await loadUsers(db, userIds);
  const nested = new Map<string, TweetRow>();
  for (const [id, r] of nestedAll) if (!tweetVisibility(r, users.get(r.author_id))) nested.set(id, r);
  const communityIds = [...rows, ...nested.values()].flatMap((r) => (r.community_id ? [r.community_id] : []));
  const communities = new Map<string, string>();
  for (const chunk of chunks([...new Set(communityIds)])) {
    const found = await db
      .selectFrom('sim_communities')
      .select(['id', 'name'])
      .where('id', 'in', chunk)
      .execute();
    for (const c of found) communities.set(c.id, c.name);
  }
  const ctx: MapContext = { users, tweets: nested, communities, now };
  return rows.filter((r) => !r.retweet_of_id || nested.has(r.retweet_of_id)).map((r) => toTweet(r, ctx));
}
