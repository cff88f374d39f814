import type { SimRow } from '../bulk-insert.js';
import type { Prng } from '../prng.js';
import { BOOKMARK_FOLDERS } from '../vocabulary.js';
import { idMaker } from './collections.js';
import { FIXED_ACCOUNTS } from './fixed-accounts.js';
import { type Edges, type SeedTweet, type SeedUser, weightedSampler } from './model.js';

const LIKES_PER_TWEET = 2.2;

/**
 * Likes: each tweet gets a heavy-tailed number, larger for popular authors, scaled so the network averages
 * {@link LIKES_PER_TWEET} per tweet; `forced` likes (the giveaway's) come first. Sets `likes` on tweets.
 */
export function generateLikes(
  prng: Prng,
  users: readonly SeedUser[],
  tweets: readonly SeedTweet[],
  forced: readonly [number, number][],
  now: number,
): Edges {
  const edges: Edges = { from: [], to: [], at: [] };
  // Likes are made tweet by tweet, so one set of the current tweet's likers (reused) de-duplicates them;
  // the forced likes of a tweet seed its set.
  const forcedBy = new Map<number, number[]>();
  for (const [ti, ui] of forced) {
    const list = forcedBy.get(ti);
    if (list) list.push(ui);
    else forcedBy.set(ti, [ui]);
  }
  const likers = new Set<number>();
  const createdAt = Float64Array.from(users, (u) => u.createdAt);
  const like = (t: SeedTweet, u: number) => {
    if (u === t.author || likers.has(u)) return;
    likers.add(u);
    const start = Math.max(t.createdAt, createdAt[u] as number);
    edges.from.push(u);
    edges.to.push(t.index);
    edges.at.push(Math.min(now, Math.floor(start + 1_000 + (now - start) * prng.next() ** 6)));
    t.likes++;
  };
  const begin = (t: SeedTweet) => {
    likers.clear();
    for (const u of forcedBy.get(t.index) ?? []) like(t, u);
  };
  const meanPopularity = users.reduce((s, u) => s + u.popularity, 0) / users.length;
  const eligible = tweets.filter((t) => t.kind !== 'retweet' && !t.deleted);
  const raw = eligible.map(
    (t) => ((users[t.author] as SeedUser).popularity / meanPopularity) ** 0.6 * prng.pareto(1, 1.6, 200),
  );
  const scale =
    (LIKES_PER_TWEET * eligible.length) /
    Math.max(
      1,
      raw.reduce((s, r) => s + r, 0),
    );
  const cap = Math.max(3, Math.floor(users.length * 0.4));
  const pickLiker = weightedSampler(
    prng,
    users.map((u) => (u.suspended ? 0 : u.activity)),
  );
  for (const [i, t] of eligible.entries()) {
    begin(t);
    const wanted = Math.min(cap, Math.floor((raw[i] as number) * scale + prng.next()));
    for (let tries = wanted * 3; t.likes < wanted && tries > 0; tries--) like(t, pickLiker());
  }
  return edges;
}

/** Views and the bookmark count shown on tweets, from their engagement (bookmark rows included). */
export function fillViews(prng: Prng, tweets: readonly SeedTweet[]): void {
  for (const t of tweets) {
    if (t.kind === 'retweet') continue;
    const engagement = t.likes + 2 * t.retweets + t.replies + t.quotes;
    t.views = Math.floor((engagement + 1) * (20 + 180 * prng.next()) + prng.pareto(5, 1.2, 5_000));
    t.bookmarks += Math.floor(t.likes * 0.1 * prng.next());
  }
}

/**
 * Bookmarks of the fixed accounts and about 3% of the others, some filed in folders. Folder names have no
 * table of their own: they are returned as `sim_meta` rows (`bookmark_folders:<userId>`).
 */
export function generateBookmarks(
  prng: Prng,
  users: readonly SeedUser[],
  tweets: readonly SeedTweet[],
  now: number,
) {
  const rows: SimRow<'sim_bookmarks'>[] = [];
  const meta: SimRow<'sim_meta'>[] = [];
  const folderId = idMaker();
  const candidates = tweets.filter((t) => t.kind !== 'retweet' && !t.deleted);
  if (!candidates.length) return { rows, meta };
  for (const u of users) {
    if (u.index >= FIXED_ACCOUNTS.length && !prng.chance(0.03)) continue;
    const folders = prng
      .sample(BOOKMARK_FOLDERS, u.index < FIXED_ACCOUNTS.length ? 3 : prng.int(0, 2))
      .map((name) => ({
        id: folderId(u.createdAt + 60_000),
        name,
      }));
    if (folders.length) meta.push({ key: `bookmark_folders:${u.id}`, value: JSON.stringify(folders) });
    const seen = new Set<number>();
    for (let n = prng.int(5, 40); n > 0; n--) {
      const t = prng.pick(candidates);
      if (seen.has(t.index)) continue;
      seen.add(t.index);
      t.bookmarks++;
      const start = Math.max(t.createdAt, u.createdAt);
      rows.push({
        user_id: u.id,
        tweet_id: t.id,
        folder_id: folders.length && prng.chance(0.6) ? prng.pick(folders).id : null,
        created_at: Math.floor(start + (now - start) * prng.next()),
      });
    }
  }
  return { rows, meta };
}
