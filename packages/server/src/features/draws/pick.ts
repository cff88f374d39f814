import { randomInt } from 'node:crypto';

/** A random integer in [0, n): `crypto.randomInt`, which is unbiased (rejection sampling). */
export type RandomIndex = (n: number) => number;

/**
 * Draws up to `count` entries of distinct authors from `pool`, uniformly at random: each draw picks one
 * remaining entry with equal probability (so an author with several eligible entries has that many
 * chances), then removes every entry of the winner's author. Returns the picks in draw order.
 */
export function pickDistinctAuthors<E extends { authorId: string }>(
  pool: readonly E[],
  count: number,
  random: RandomIndex = randomInt,
): E[] {
  let remaining = [...pool];
  const picks: E[] = [];
  while (picks.length < count && remaining.length > 0) {
    const pick = remaining[random(remaining.length)] as E;
    picks.push(pick);
    remaining = remaining.filter((e) => e.authorId !== pick.authorId);
  }
  return picks;
}
