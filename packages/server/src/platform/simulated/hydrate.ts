import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import type { Tweet } from '../../core/platform/platform.js';
import { loadCommunityNames, loadTweets, loadUsers, tweetVisibility } from './lookup.js';
import { type MapContext, toTweet } from './mappers.js';
import type { TweetRow, UserRow } from './stored.js';

/**
 * Turns tweet rows into API tweets with a few batched lookups: authors, the quoted and reposted tweets (kept
 * only when visible) and their authors, replied-to usernames and community names. A repost whose original
 * is no longer visible is dropped, as the platform drops it. `knownUsers` are user rows the caller has
 * already read (they are not read again).
 */
export async function hydrateTweets(
  db: Kysely<Database>,
  rows: readonly TweetRow[],
  now: number,
  knownUsers?: ReadonlyMap<string, UserRow>,
): Promise<Tweet[]> {
  if (rows.length === 0) return [];
  const nestedIds: string[] = [];
  for (const r of rows) {
    if (r.quoted_tweet_id !== null) nestedIds.push(r.quoted_tweet_id);
    if (r.retweet_of_id !== null) nestedIds.push(r.retweet_of_id);
  }
  const nestedAll = nestedIds.length ? await loadTweets(db, nestedIds) : new Map<string, TweetRow>();
  const userIds = new Set<string>();
  for (const list of [rows, nestedAll.values()]) {
    for (const r of list) {
      userIds.add(r.author_id);
      if (r.in_reply_to_user_id) userIds.add(r.in_reply_to_user_id);
    }
  }
  const missing = knownUsers ? [...userIds].filter((id) => !knownUsers.has(id)) : [...userIds];
  const users = missing.length ? await loadUsers(db, missing) : new Map<string, UserRow>();
  if (knownUsers) for (const [id, u] of knownUsers) if (userIds.has(id)) users.set(id, u);
  const nested = new Map<string, TweetRow>();
  for (const [id, r] of nestedAll) if (!tweetVisibility(r, users.get(r.author_id))) nested.set(id, r);
  const communityIds: string[] = [];
  for (const list of [rows, nested.values()]) {
    for (const r of list) if (r.community_id) communityIds.push(r.community_id);
  }
  const communities = communityIds.length
    ? await loadCommunityNames(db, communityIds)
    : new Map<string, string>();
  const ctx: MapContext = { users, tweets: nested, communities, now };
  return rows.filter((r) => !r.retweet_of_id || nested.has(r.retweet_of_id)).map((r) => toTweet(r, ctx));
}
