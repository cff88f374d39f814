import { type SimColumns, type SimRow, type SimTable, toColumns } from '../bulk-insert.js';
import { Prng } from '../prng.js';
import { encodeEntities } from '../stored.js';
import { generateCommunities, generateLists, generateSpaces } from './collections.js';
import { fillViews, generateBookmarks, generateLikes } from './engagement.js';
import { generateFollows } from './follows.js';
import { generateJobs } from './jobs.js';
import { idRanks, pairOrder } from './key-order.js';
import { generateDms, generateNotifications } from './messages.js';
import { type Edges, type SeedSize, type SeedTweet, type SeedUser, SIZE_PROFILES } from './model.js';
import { generateTrends } from './trends.js';
import { generateTweets } from './tweets.js';
import { generateUsers } from './users.js';

/** What a seed is made from: the same three always give the same network. */
export interface SeedOptions {
  size: SeedSize;
  seed: string | number;
  /** The network's present (epoch ms): tweets and follows happen before it. */
  now: number;
}

/**
 * The steps of {@link generateNetwork}, in order. Generating the default network is synchronous work of
 * several seconds, so it reports each step's progress as it goes (a start-up progress bar moves meanwhile).
 */
export const GENERATE_STEPS = ['users', 'follows', 'tweets', 'likes', 'collections', 'rows'] as const;

/** One step of {@link generateNetwork}. */
export type GenerateStep = (typeof GENERATE_STEPS)[number];

/** Hears how far a step of {@link generateNetwork} is: `fraction` of it done, 0 to 1 (1 when it ends). */
export type GenerateListener = (step: GenerateStep, fraction: number) => void;

/** The rows of every sim_* table (but `sim_meta`'s markers), ready to insert; the three biggest as columns. */
export type NetworkRows = {
  [T in Exclude<SimTable, 'sim_follows' | 'sim_likes' | 'sim_tweets'>]: SimRow<T>[];
} & {
  sim_tweets: SimColumns<'sim_tweets'>;
  sim_follows: SimColumns<'sim_follows'>;
  sim_likes: SimColumns<'sim_likes'>;
};

/**
 * Generates a whole network in memory, deterministically from `seed`, `size` and `now`: no I/O, so it is
 * testable on its own and the database work is only the inserts.
 */
export function generateNetwork(options: SeedOptions, onStep: GenerateListener = () => {}): NetworkRows {
  const profile = SIZE_PROFILES[options.size];
  const root = new Prng(`xsvc:${options.size}:${options.seed}`);
  const { now } = options;
  const users = generateUsers(root.fork('users'), profile.users, now);
  onStep('users', 1);
  const follows = generateFollows(root.fork('follows'), users, now);
  onStep('follows', 1);
  const communities = generateCommunities(root.fork('communities'), users, profile.communities, now);
  const { tweets, order, forcedLikes } = generateTweets(
    root.fork('tweets'),
    users,
    profile,
    now,
    follows,
    (n) => onStep('tweets', Math.min(1, n / profile.tweets)),
  );
  onStep('tweets', 1);
  const likes = generateLikes(root.fork('likes'), users, tweets, forcedLikes, now);
  onStep('likes', 1);
  const bookmarks = generateBookmarks(root.fork('bookmarks'), users, tweets, now);
  fillViews(root.fork('views'), tweets);
  pinTweets(root.fork('pins'), users, tweets);
  const lists = generateLists(root.fork('lists'), users, profile.lists, now);
  const spaces = generateSpaces(root.fork('spaces'), users, profile.spaces, now);
  onStep('collections', 1);

  // Rows go in primary-key order (see key-order.ts); tweets are in id order when in creation order.
  const userIds = users.map((u) => u.id);
  const tweetIds = tweets.map((t) => t.id);
  const userRanks = idRanks(userIds);
  const tweetRanks = new Int32Array(tweets.length);
  for (let i = 0; i < order.length; i++) tweetRanks[order[i] as number] = i;
  const tweetColumns = toColumns(
    'sim_tweets',
    (function* () {
      for (const [n, i] of order.entries()) {
        if (n % 8192 === 0) onStep('rows', (0.5 * n) / order.length);
        yield tweetRow(tweets[i] as SeedTweet, userIds, tweets);
      }
    })(),
  );
  const followPairs = pairColumns(follows.edges, userIds, userIds, userRanks, userRanks);
  onStep('rows', 0.7);
  const likePairs = pairColumns(likes, userIds, tweetIds, userRanks, tweetRanks);
  onStep('rows', 0.9);
  const rows: NetworkRows = {
    sim_users: userRows(users, tweets, follows.edges, likes),
    sim_tweets: tweetColumns,
    sim_follows: {
      follower_id: followPairs.first,
      followee_id: followPairs.second,
      created_at: followPairs.at,
    },
    sim_likes: { user_id: likePairs.first, tweet_id: likePairs.second, created_at: likePairs.at },
    sim_bookmarks: bookmarks.rows,
    sim_lists: lists.lists,
    sim_list_members: lists.members,
    sim_communities: communities.communities,
    sim_community_members: communities.members,
    sim_articles: tweets.flatMap((t) =>
      t.article
        ? [
            {
              tweet_id: t.id,
              title: t.article.title,
              body_text: t.article.body,
              preview_text: t.article.preview,
              cover_image_url: t.article.cover,
            },
          ]
        : [],
    ),
    sim_spaces: spaces.spaces,
    sim_space_participants: spaces.participants,
    sim_trends: generateTrends(root.fork('trends')),
    sim_jobs: generateJobs(root.fork('jobs'), users, profile.jobs, now),
    sim_dms: generateDms(root.fork('dms'), users, now),
    sim_notifications: generateNotifications(root.fork('notifications'), users, tweets, follows.edges, likes),
    sim_meta: bookmarks.meta,
  };
  onStep('rows', 1);
  return rows;
}

/** About a fifth of the accounts pin one of their originals; the fixed accounts pin their scripted one. */
function pinTweets(prng: Prng, users: SeedUser[], tweets: readonly SeedTweet[]): void {
  const candidates = new Map<number, number[]>();
  for (const t of tweets) {
    if (t.kind === 'tweet' && !t.deleted) {
      const list = candidates.get(t.author);
      if (list) list.push(t.index);
      else candidates.set(t.author, [t.index]);
    }
  }
  for (const u of users) {
    const own = candidates.get(u.index);
    if (u.pinned === undefined && own && prng.chance(0.2)) u.pinned = prng.pick(own);
  }
}

function userRows(
  users: readonly SeedUser[],
  tweets: readonly SeedTweet[],
  follows: Edges,
  likes: Edges,
): SimRow<'sim_users'>[] {
  const n = users.length;
  const followers = new Int32Array(n);
  const following = new Int32Array(n);
  const statuses = new Int32Array(n);
  const media = new Int32Array(n);
  const favourites = new Int32Array(n);
  const inc = (counts: Int32Array, i: number) => {
    counts[i] = (counts[i] ?? 0) + 1;
  };
  for (let i = 0; i < follows.from.length; i++) {
    inc(following, follows.from[i] as number);
    inc(followers, follows.to[i] as number);
  }
  for (const t of tweets) {
    if (t.deleted) continue;
    inc(statuses, t.author);
    if (t.media && t.kind !== 'retweet') inc(media, t.author);
  }
  for (const u of likes.from) inc(favourites, u);
  return users.map((u) => ({
    id: u.id,
    username: u.username,
    username_lower: u.username.toLowerCase(),
    name: u.name,
    description: u.description,
    location: u.location,
    url: u.url,
    profile_picture: u.profilePicture,
    cover_picture: u.coverPicture,
    verified: u.verified ? 1 : 0,
    verified_type: u.verifiedType,
    protected: u.protected ? 1 : 0,
    suspended: u.suspended ? 1 : 0,
    pinned_tweet_id: u.pinned === undefined ? null : (tweets[u.pinned] as SeedTweet).id,
    followers_count: followers[u.index] as number,
    following_count: following[u.index] as number,
    statuses_count: statuses[u.index] as number,
    media_count: media[u.index] as number,
    favourites_count: favourites[u.index] as number,
    created_at: u.createdAt,
    profile_version: 1,
  }));
}

function tweetRow(
  t: SeedTweet,
  userIds: readonly string[],
  tweets: readonly SeedTweet[],
): SimRow<'sim_tweets'> {
  const parent = tweets[t.parent];
  const id = (i: number) => (tweets[i] as SeedTweet | undefined)?.id ?? null;
  return {
    id: t.id,
    author_id: userIds[t.author] as string,
    text: t.text,
    created_at: t.createdAt,
    lang: t.lang,
    source: t.source,
    kind: t.kind,
    conversation_id: (tweets[t.root] as SeedTweet).id,
    in_reply_to_id: parent?.id ?? null,
    in_reply_to_user_id: parent ? (userIds[parent.author] as string) : null,
    quoted_tweet_id: id(t.quoted),
    retweet_of_id: id(t.retweeted),
    is_note: t.isNote ? 1 : 0,
    media: t.media ? JSON.stringify(t.media) : null,
    poll: t.poll ? JSON.stringify(t.poll) : null,
    entities: encodeEntities(t.entities),
    like_count: t.likes,
    retweet_count: t.retweets,
    reply_count: t.replies,
    quote_count: t.quotes,
    view_count: t.views,
    bookmark_count: t.bookmarks,
    community_id: t.community,
    deleted: t.deleted ? 1 : 0,
  };
}

/** Relation edges as id columns, in primary-key order (see key-order.ts). */
function pairColumns(
  edges: Edges,
  firstIds: readonly string[],
  secondIds: readonly string[],
  firstRank: Int32Array,
  secondRank: Int32Array,
): { first: string[]; second: string[]; at: number[] } {
  const order = pairOrder(edges.from, edges.to, firstRank, secondRank);
  const first: string[] = new Array(order.length);
  const second: string[] = new Array(order.length);
  const at: number[] = new Array(order.length);
  for (let n = 0; n < order.length; n++) {
    const i = order[n] as number;
    first[n] = firstIds[edges.from[i] as number] as string;
    second[n] = secondIds[edges.to[i] as number] as string;
    at[n] = edges.at[i] as number;
  }
  return { first, second, at };
}
