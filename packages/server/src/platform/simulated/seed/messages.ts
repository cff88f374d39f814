import type { SimRow } from '../bulk-insert.js';
import { languagePack } from '../content.js';
import { SnowflakeIds } from '../ids.js';
import type { Prng } from '../prng.js';
import { FIXED_ACCOUNTS } from './fixed-accounts.js';
import { DAY, type Edges, type SeedTweet, type SeedUser } from './model.js';

/**
 * Direct messages: each fixed account talks with a few accounts, and a share of the others talk in pairs.
 * Ids follow time, like the platform's.
 */
export function generateDms(prng: Prng, users: readonly SeedUser[], now: number): SimRow<'sim_dms'>[] {
  const messages: Omit<SimRow<'sim_dms'>, 'id'>[] = [];
  const converse = (a: SeedUser, b: SeedUser, count: number) => {
    let at = now - prng.int(1, 60) * DAY;
    for (let n = 0; n < count && at < now; n++) {
      const [from, to] = prng.chance(0.5) ? [a, b] : [b, a];
      const p = languagePack(from.lang);
      messages.push({
        sender_id: from.id,
        recipient_id: to.id,
        text: prng.chance(0.5) ? prng.pick(p.replies) : prng.pick(p.closers),
        created_at: at,
      });
      at += prng.int(1, 600) * 60_000;
    }
  };
  const others = users.slice(FIXED_ACCOUNTS.length);
  if (!others.length) return [];
  for (let f = 0; f < FIXED_ACCOUNTS.length && f < users.length; f++) {
    for (const partner of prng.sample(others, 8)) converse(users[f] as SeedUser, partner, prng.int(2, 12));
  }
  for (let n = Math.floor(users.length / 8); n > 0; n--) {
    const a = prng.pick(others);
    const b = prng.pick(others);
    if (a !== b) converse(a, b, prng.int(1, 6));
  }
  messages.sort((x, y) => x.created_at - y.created_at);
  const ids = new SnowflakeIds();
  return messages.map((m) => ({ id: ids.next(m.created_at), ...m }));
}

type Candidate = [at: number, kind: string, actor: number, tweet: number];

/**
 * Notifications of the fixed accounts and about 2% of the others, made from what really happened to them:
 * follows, likes, replies, quotes, retweets and mentions; the newest few hundred per account.
 */
export function generateNotifications(
  prng: Prng,
  users: readonly SeedUser[],
  tweets: readonly SeedTweet[],
  follows: Edges,
  likes: Edges,
): SimRow<'sim_notifications'>[] {
  const tracked = new Map<number, Candidate[]>();
  const isTracked = new Uint8Array(users.length);
  for (const u of users) {
    if (u.index < FIXED_ACCOUNTS.length || prng.chance(0.02)) {
      tracked.set(u.index, []);
      isTracked[u.index] = 1;
    }
  }
  const add = (user: number, c: Candidate) => {
    if (isTracked[user] && c[2] !== user) tracked.get(user)?.push(c);
  };
  for (let i = 0; i < follows.from.length; i++) {
    const to = follows.to[i] as number;
    if (isTracked[to]) add(to, [follows.at[i] as number, 'follow', follows.from[i] as number, -1]);
  }
  for (let i = 0; i < likes.from.length; i++) {
    const t = tweets[likes.to[i] as number] as SeedTweet;
    if (isTracked[t.author]) add(t.author, [likes.at[i] as number, 'like', likes.from[i] as number, t.index]);
  }
  const byId = new Map(users.map((u) => [u.id, u.index]));
  for (const t of tweets) {
    if (t.deleted) continue;
    const parent = tweets[t.parent];
    if (parent) add(parent.author, [t.createdAt, 'reply', t.author, t.index]);
    const quoted = tweets[t.quoted];
    if (quoted) add(quoted.author, [t.createdAt, 'quote', t.author, t.index]);
    const original = tweets[t.retweeted];
    if (original) add(original.author, [t.createdAt, 'retweet', t.author, original.index]);
    if (t.kind !== 'retweet') {
      for (const m of t.entities.mentions ?? []) {
        const mentioned = m.id === undefined ? undefined : byId.get(m.id);
        if (mentioned !== undefined && mentioned !== parent?.author)
          add(mentioned, [t.createdAt, 'mention', t.author, t.index]);
      }
    }
  }
  const rows: Omit<SimRow<'sim_notifications'>, 'id'>[] = [];
  for (const [user, candidates] of tracked) {
    candidates.sort((a, b) => b[0] - a[0]);
    const keep = candidates.slice(0, user < FIXED_ACCOUNTS.length ? 300 : 50);
    for (const [at, kind, actor, tweet] of keep) {
      rows.push({
        user_id: (users[user] as SeedUser).id,
        kind,
        actor_id: (users[actor] as SeedUser).id,
        tweet_id: tweet >= 0 ? (tweets[tweet] as SeedTweet).id : null,
        created_at: at,
      });
    }
  }
  rows.sort((a, b) => a.created_at - b.created_at);
  const ids = new SnowflakeIds();
  return rows.map((r) => ({ id: ids.next(r.created_at), ...r }));
}
