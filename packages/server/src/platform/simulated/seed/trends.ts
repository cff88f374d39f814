import { limits } from '@xsvc/sdk/contract';
import type { SimRow } from '../bulk-insert.js';
import type { Prng } from '../prng.js';
import { TOPICS, TREND_PHRASES } from '../vocabulary.js';

/** The supported trend regions (spec 8.3), from the contract. */
export const TREND_WOEIDS: readonly number[] = limits.trendWoeids;

const TRENDS_PER_REGION = 50;

/**
 * 50 ranked trends per region (the most a trends request may ask for): the region's own phrases and the
 * topics' hashtags and cashtags, so that searching a trend's query finds tweets.
 */
export function generateTrends(prng: Prng): SimRow<'sim_trends'>[] {
  const rows: SimRow<'sim_trends'>[] = [];
  const global = TOPICS.flatMap((t) => [
    ...t.hashtags.map((h) => ({ name: `#${h}`, topic: t.name })),
    ...t.cashtags.map((c) => ({ name: `$${c}`, topic: t.name })),
    ...t.words.map((w) => ({ name: w[0]?.toUpperCase() + w.slice(1), topic: t.name })),
  ]);
  for (const woeid of TREND_WOEIDS) {
    const local = (TREND_PHRASES[woeid] ?? []).map((name) => ({ name, topic: 'Trending' }));
    const names = new Set<string>();
    const chosen = [...local, ...prng.sample(global, global.length)].filter((t) => {
      const key = t.name.toLowerCase();
      if (names.has(key)) return false;
      names.add(key);
      return true;
    });
    const ranked = prng.sample(chosen.slice(0, TRENDS_PER_REGION), TRENDS_PER_REGION);
    for (const [i, t] of ranked.entries()) {
      const posts = Math.floor(prng.pareto(2_000, 1.1, 2_000_000) / (i + 1) ** 0.3);
      rows.push({
        woeid,
        rank: i + 1,
        name: t.name,
        description: prng.chance(0.8) ? `${t.topic} · ${compact(posts)} posts` : null,
        query: encodeURIComponent(t.name),
      });
    }
  }
  return rows;
}

function compact(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)}K`;
  return String(n);
}
