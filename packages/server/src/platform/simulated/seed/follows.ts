import type { Prng } from '../prng.js';
import { type Edges, type SeedUser, weightedSampler } from './model.js';

/** A set of pairs of indexes (follower and followee, tweet and user), for de-duplicating relations. */
export class PairSet {
  private readonly sets = new Map<number, Set<number>>();
  has(a: number, b: number): boolean {
    return this.sets.get(a)?.has(b) ?? false;
  }
  /** Adds the pair; false when it was already there. */
  add(a: number, b: number): boolean {
    let set = this.sets.get(a);
    if (!set) {
      set = new Set();
      this.sets.set(a, set);
    }
    if (set.has(b)) return false;
    set.add(b);
    return true;
  }
}

/**
 * The follow graph: each account follows a heavy-tailed number of others, chosen in proportion to their
 * popularity, so a few accounts (the fixed ones among them) have very many followers.
 */
export function generateFollows(
  prng: Prng,
  users: readonly SeedUser[],
  now: number,
): { edges: Edges; pairs: PairSet } {
  const edges: Edges = { from: [], to: [], at: [] };
  const pairs = new PairSet();
  const pickTarget = weightedSampler(
    prng,
    users.map((u) => u.popularity),
  );
  const cap = Math.max(5, Math.floor(users.length / 3));
  for (const u of users) {
    const wanted = Math.min(cap, prng.pareto(4, 1.5, 2_000));
    let tries = wanted * 3;
    let made = 0;
    while (made < wanted && tries-- > 0) {
      const t = pickTarget();
      if (t === u.index || !pairs.add(u.index, t)) continue;
      const target = users[t] as SeedUser;
      edges.from.push(u.index);
      edges.to.push(t);
      edges.at.push(followTime(prng, u, target, now));
      made++;
    }
  }
  return { edges, pairs };
}

/** A time after both accounts existed. */
export function followTime(prng: Prng, a: SeedUser, b: SeedUser, now: number): number {
  const start = Math.max(a.createdAt, b.createdAt);
  return Math.floor(start + (now - start) * prng.next() ** 0.5);
}
