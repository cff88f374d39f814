import type { Prng } from '../prng.js';
import type { StoredEntities, StoredMedia, StoredPoll } from '../stored.js';
import type { Topic } from '../vocabulary.js';

/** The sizes of network {@link seedNetwork} can build. */
export type SeedSize = 'tiny' | 'small' | 'default';

/** How many of each thing a size holds. */
export interface SizeProfile {
  users: number;
  tweets: number;
  lists: number;
  communities: number;
  spaces: number;
  jobs: number;
  /** Replies to the demo giveaway tweet (draws have something to draw from). */
  giveawayReplies: number;
}

export const SIZE_PROFILES: Readonly<Record<SeedSize, SizeProfile>> = {
  tiny: { users: 200, tweets: 2_000, lists: 12, communities: 4, spaces: 5, jobs: 20, giveawayReplies: 120 },
  small: {
    users: 2_000,
    tweets: 24_000,
    lists: 80,
    communities: 12,
    spaces: 20,
    jobs: 60,
    giveawayReplies: 800,
  },
  default: {
    users: 25_000,
    tweets: 250_000,
    lists: 1_000,
    communities: 60,
    spaces: 150,
    jobs: 300,
    giveawayReplies: 1_500,
  },
};

/** A user being generated; `index` is its position in {@link SeedNetwork.users}. */
export interface SeedUser {
  index: number;
  id: string;
  username: string;
  name: string;
  description: string;
  location: string;
  url: string;
  profilePicture: string;
  coverPicture: string;
  verified: boolean;
  verifiedType: string | null;
  protected: boolean;
  suspended: boolean;
  createdAt: number;
  lang: string;
  topic: Topic;
  /** Relative chance of being followed, replied to, liked. */
  popularity: number;
  /** Relative chance of acting: tweeting, following, liking. */
  activity: number;
  /** Index of the tweet pinned to the profile. */
  pinned?: number;
  /** Communities the user belongs to (ids). */
  communities: string[];
}

export type TweetKind = 'tweet' | 'reply' | 'quote' | 'retweet';

/** A tweet being generated; references to other tweets are indexes into {@link SeedNetwork.tweets}. */
export interface SeedTweet {
  index: number;
  id: string;
  author: number;
  text: string;
  createdAt: number;
  lang: string;
  source: string;
  kind: TweetKind;
  parent: number;
  quoted: number;
  retweeted: number;
  /** Index of the conversation's first tweet (itself for originals). */
  root: number;
  isNote: boolean;
  media: StoredMedia | null;
  poll: StoredPoll | null;
  entities: StoredEntities;
  community: string | null;
  deleted: boolean;
  article?: { title: string; body: string; preview: string; cover: string | null };
  likes: number;
  retweets: number;
  replies: number;
  quotes: number;
  views: number;
  bookmarks: number;
}

/** Relations kept as parallel arrays (indexes), compact even at hundreds of thousands of rows. */
export interface Edges {
  from: number[];
  to: number[];
  at: number[];
}

/** Everything generated before it is written. */
export interface SeedNetwork {
  readonly prng: Prng;
  readonly now: number;
  readonly profile: SizeProfile;
  readonly users: SeedUser[];
  readonly tweets: SeedTweet[];
  /** follower index → followee index. */
  readonly follows: Edges;
  /** user index → tweet index. */
  readonly likes: Edges;
}

/** Draws indexes in proportion to fixed weights (cumulative sums and a binary search). */
export function weightedSampler(prng: Prng, weights: readonly number[]): () => number {
  const cumulative = new Float64Array(weights.length);
  let total = 0;
  for (let i = 0; i < weights.length; i++) {
    total += weights[i] ?? 0;
    cumulative[i] = total;
  }
  return () => {
    const r = prng.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] as number) <= r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
