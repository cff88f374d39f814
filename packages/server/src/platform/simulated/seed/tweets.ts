import { articleText } from '../content.js';
import { displayUrl } from '../entities.js';
import { SnowflakeIds } from '../ids.js';
import type { Prng } from '../prng.js';
import { FIXED_ACCOUNTS, GIVEAWAY_TIPS } from './fixed-accounts.js';
import { followTime, PairSet } from './follows.js';
import {
  type Edges,
  HOUR,
  type SeedTweet,
  type SeedUser,
  type SizeProfile,
  weightedSampler,
} from './model.js';
import { TweetFactory } from './tweet-factory.js';

/** The tweets, plus the engagement the scripted tweets were promised (likes are made later). */
export interface GeneratedTweets {
  tweets: SeedTweet[];
  /** Tweet indexes in creation order, which is also id order (legacy ids aside). */
  order: Int32Array;
  /** Index of each scripted tweet by its key (`giveaway`, `jack_first`, …). */
  scripted: Map<string, number>;
  /** Users who must like a tweet: [tweet index, user index]. */
  forcedLikes: [number, number][];
}

const EARLIEST_TWEET = Date.UTC(2019, 0, 1);

/**
 * Every tweet of the network: the fixed accounts' scripted tweets (with the replies they were promised),
 * then originals with self-threads, replies (threads several levels deep), quotes and retweets, drawn so
 * that popular accounts get most of the engagement. Ends by assigning snowflake ids in time order and the
 * reply, quote and retweet counters. `onMade` hears how many tweets exist, every few thousand (progress).
 */
export function generateTweets(
  prng: Prng,
  users: SeedUser[],
  profile: SizeProfile,
  now: number,
  follows: { edges: Edges; pairs: PairSet },
  onMade: (count: number) => void = () => {},
): GeneratedTweets {
  const tweets: SeedTweet[] = [];
  const pickActive = weightedSampler(
    prng,
    users.map((u) => (u.suspended ? 0 : u.activity)),
  );
  const pickPopular = weightedSampler(
    prng,
    users.map((u) => (u.suspended || u.protected ? 0 : u.popularity)),
  );
  const factory = new TweetFactory(prng, users, tweets, pickPopular);
  const start = Math.max(EARLIEST_TWEET, now - 730 * 24 * HOUR);
  const byAuthor: number[][] = users.map(() => []);
  const originalsByAuthor: number[][] = users.map(() => []);
  const publicOriginals: number[] = [];
  const publicTweets: number[] = [];
  const replyIndexes: number[] = [];
  const retweeted = new PairSet();
  const forcedLikes: [number, number][] = [];
  const scripted = new Map<string, number>();

  const createdAt = Float64Array.from(users, (u) => u.createdAt);
  const timeFor = (u: SeedUser) => {
    const from = Math.max(start, u.createdAt + HOUR);
    return Math.floor(now - (now - from) * prng.next() ** 1.6);
  };
  // A time a while after `t` (exponential delay), never before `start` (replies to legacy tweets are recent).
  const after = (t: number, meanMinutes = 240) =>
    Math.min(
      now,
      Math.max(t, start) + 30_000 + Math.floor(60_000 * meanMinutes * -Math.log(1 - prng.next() * 0.999)),
    );
  const track = (t: SeedTweet) => {
    if (tweets.length % 4096 === 0) onMade(tweets.length);
    const author = users[t.author] as SeedUser;
    if (t.kind !== 'retweet') byAuthor[t.author]?.push(t.index);
    if (t.kind === 'tweet' || t.kind === 'quote') {
      originalsByAuthor[t.author]?.push(t.index);
      if (!author.protected && !author.suspended) publicOriginals.push(t.index);
    }
    if (t.kind !== 'retweet' && !author.protected && !author.suspended) publicTweets.push(t.index);
    if (t.kind === 'reply') replyIndexes.push(t.index);
    return t;
  };
  const someoneElse = (not: number, before: number): SeedUser | undefined => {
    for (let tries = 0; tries < 20; tries++) {
      const i = pickActive();
      if (i !== not && (createdAt[i] as number) < before) return users[i];
    }
    return undefined;
  };

  // 1. Scripted tweets of the fixed accounts and their promised replies.
  const promised: [number, number | 'giveaway'][] = [];
  for (const [fi, account] of FIXED_ACCOUNTS.entries()) {
    const author = users[fi] as SeedUser;
    for (const s of account.tweets) {
      const at = s.legacy?.at ?? now - s.ageHours * HOUR;
      const t = track(
        factory.original(author, at, {
          plain: true,
          text: s.text,
          ...(s.note && { note: s.note }),
          ...(s.media && { media: s.media }),
          ...(s.poll && { poll: s.poll }),
          ...(s.link && { link: s.link }),
          ...(s.article && { article: s.article }),
        }),
      );
      if (s.legacy) t.id = s.legacy.id;
      t.deleted = s.deleted ?? false;
      scripted.set(s.key, t.index);
      if (s.pinned) author.pinned = t.index;
      let last = t;
      for (const text of s.thread ?? []) {
        last = track(factory.threadReply(author, last, last.createdAt + prng.int(1, 5) * 60_000, text));
      }
      if (s.replies) promised.push([t.index, s.replies]);
    }
  }
  for (const [index, promise] of promised) {
    const target = tweets[index] as SeedTweet;
    if (promise === 'giveaway') giveaway(target);
    else {
      for (let n = 0; n < promise; n++) {
        const u = someoneElse(target.author, now - HOUR);
        if (u) track(factory.reply(u, target, after(Math.max(target.createdAt, u.createdAt), 120)));
      }
    }
  }

  function giveaway(target: SeedTweet): void {
    const host = users[target.author] as SeedUser;
    const order = prng.sample(
      users.filter(
        (u) => u.index !== host.index && u.index >= FIXED_ACCOUNTS.length && u.createdAt < target.createdAt,
      ),
      profile.giveawayReplies,
    );
    for (const u of order) {
      const text = `@${host.username} ${prng.pick(GIVEAWAY_TIPS)}${prng.chance(0.6) ? ' #TypeScript' : ''}`;
      const at = after(target.createdAt, 600);
      track(factory.reply(u, target, at, text));
      // Some enter twice; draws count them once.
      if (prng.chance(0.05))
        track(factory.reply(u, target, after(at, 60), `@${host.username} ${factory.reaction(u)}`));
      if (prng.chance(0.6) && follows.pairs.add(u.index, host.index)) {
        follows.edges.from.push(u.index);
        follows.edges.to.push(host.index);
        follows.edges.at.push(followTime(prng, u, host, at));
      }
      if (prng.chance(0.4) && retweeted.add(target.index, u.index)) {
        track(factory.retweet(u, target, after(at, 30)));
      }
      if (prng.chance(0.7)) forcedLikes.push([target.index, u.index]);
    }
  }

  // 2. Originals, a few of them opening self-threads.
  const originals = Math.round(profile.tweets * 0.55) - tweets.length;
  for (let n = 0; n < originals; n++) {
    const author = users[pickActive()] as SeedUser;
    // Verified accounts publish the occasional article.
    const article =
      author.verified && prng.chance(0.02) ? articleText(prng, author.lang, author.topic) : undefined;
    let t = track(factory.original(author, timeFor(author), article ? { article } : {}));
    if (prng.chance(0.04) && !t.isNote) {
      for (let k = prng.int(1, 4); k > 0; k--) {
        const at = Math.min(now, t.createdAt + prng.int(1, 15) * 60_000);
        t = track(factory.threadReply(author, t, at));
      }
    }
  }

  // 3. Replies: mostly to popular accounts, a fifth of them deeper in existing threads.
  const repliesTarget = Math.round(profile.tweets * 0.8) - tweets.length;
  // A tweet of a popular account (three times in four) or any public tweet; `originals` leaves out replies.
  const popularTweet = (originals = false): SeedTweet | undefined => {
    const own = (originals ? originalsByAuthor : byAuthor)[pickPopular()] ?? [];
    const all = originals ? publicOriginals : publicTweets;
    const idx = own.length && prng.chance(0.75) ? prng.pick(own) : all.length ? prng.pick(all) : -1;
    const t = tweets[idx];
    const author = t && users[t.author];
    return t && author && !author.protected && !author.suspended && !t.deleted ? t : undefined;
  };
  for (let n = 0; n < repliesTarget; n++) {
    const target = prng.chance(0.2) && replyIndexes.length ? tweets[prng.pick(replyIndexes)] : popularTweet();
    if (!target || target.deleted) continue;
    const targetAuthor = users[target.author] as SeedUser;
    if (targetAuthor.protected || targetAuthor.suspended) continue;
    const u = someoneElse(target.author, now - HOUR);
    if (!u) continue;
    track(factory.reply(u, target, after(Math.max(target.createdAt, u.createdAt))));
  }

  // 4. Quotes.
  const quotes = Math.round(profile.tweets * 0.06);
  for (let n = 0; n < quotes; n++) {
    const target = popularTweet();
    const u = target && someoneElse(target.author, now - HOUR);
    if (target && u) track(factory.quote(u, target, after(Math.max(target.createdAt, u.createdAt))));
  }

  // 5. Retweets fill the rest, each account retweeting a tweet at most once.
  for (let guard = profile.tweets * 3; tweets.length < profile.tweets && guard > 0; guard--) {
    const target = popularTweet(true);
    if (!target) continue;
    const u = someoneElse(target.author, now - HOUR);
    if (!u || !retweeted.add(target.index, u.index)) continue;
    track(factory.retweet(u, target, after(Math.max(target.createdAt, u.createdAt), 600)));
  }

  // 6. A few deletions; a retweet goes with its tweet.
  for (const t of tweets) {
    if (t.author >= FIXED_ACCOUNTS.length && t.kind !== 'retweet' && prng.chance(0.004)) t.deleted = true;
  }
  for (const t of tweets) if (t.kind === 'retweet' && tweets[t.retweeted]?.deleted) t.deleted = true;

  const order = assignIds(tweets);
  for (const t of tweets) {
    if (t.article) {
      for (const u of t.entities.urls ?? []) {
        if (u.expandedUrl.endsWith('/pending')) {
          u.expandedUrl = `https://x.com/i/article/${t.id}`;
          u.displayUrl = displayUrl(u.expandedUrl);
        }
      }
    }
    if (t.deleted) continue;
    const parent = tweets[t.parent];
    if (parent) parent.replies++;
    const quoted = tweets[t.quoted];
    if (quoted) quoted.quotes++;
    const original = tweets[t.retweeted];
    if (original) original.retweets++;
  }
  return { tweets, order, scripted, forcedLikes };
}

/** Snowflake ids in creation order (legacy tweets keep theirs), so a later tweet has a larger id. */
function assignIds(tweets: readonly SeedTweet[]): Int32Array {
  const times = Float64Array.from(tweets, (t) => t.createdAt);
  const order = Int32Array.from(tweets, (t) => t.index).sort(
    (a, b) => (times[a] as number) - (times[b] as number) || a - b,
  );
  const ids = new SnowflakeIds();
  for (const i of order) {
    const t = tweets[i] as SeedTweet;
    if (!t.id) t.id = ids.next(t.createdAt);
  }
  return order;
}
