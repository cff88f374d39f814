import { schemas } from '@xsvc/sdk/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../../core/db/schema.js';
import { Prng } from '../../../platform/simulated/prng.js';
import type { SeedSize } from '../../../platform/simulated/seed/model.js';
import type { RadarItemsTable } from '../tables.js';
import { RADAR_REGIONS, type RadarCategory, SOURCE_PROFILES } from './sources.js';

/** Items per source for each seed size (the simulated network's sizes: tiny for tests, default realistic). */
export const RADAR_ITEMS_PER_SOURCE: Readonly<Record<SeedSize, number>> = {
  tiny: 24,
  small: 80,
  default: 300,
};

/** How far back items are published: the radar's longest look-back window (72 hours). */
export const RADAR_SPAN_MS = 72 * 3_600_000;

const SUBJECTS: Readonly<Record<RadarCategory, readonly string[]>> = {
  general: ['Daylight saving', 'Heat wave', 'Marathon season', 'Lunar eclipse', 'Food prices', 'Rail strike'],
  tech: [
    'Edge computing',
    'Foldable phones',
    'Open weights models',
    'Passkeys',
    'Satellite internet',
    'E-ink',
  ],
  dev: ['WebAssembly', 'Local-first sync', 'Vector databases', 'Type-safe SQL', 'Build caches', 'Deno'],
  science: [
    'Fusion ignition',
    'Exoplanet atmospheres',
    'CRISPR therapy',
    'Deep sea mining',
    'Quantum sensors',
  ],
  culture: ['Vinyl revival', 'Slow travel', 'Indie bookstores', 'Street photography', 'Board game cafes'],
  politics: ['Election polling', 'Climate summit', 'Trade tariffs', 'Housing policy', 'Antitrust ruling'],
  business: ['Micro SaaS', 'Creator economy', 'Bootstrapped startups', 'Remote hiring', 'Usage pricing'],
  entertainment: ['Award season', 'Streaming wars', 'Game launches', 'Stadium tours', 'Anime films'],
};

/** What the radar is seeded from: the simulated platform's seed size and seed, and the seed's present. */
export interface RadarSeedOptions {
  size: SeedSize;
  seed: string | number;
  now: number;
}

/** A URL-safe name of a subject, unique per source item. */
function slugOf(subject: string, index: number): string {
  return `${subject.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${index + 1}`;
}

/** The radar items of a seed: the same options always give the same items, on every engine. */
export function generateRadarItems(options: RadarSeedOptions): RadarItemsTable[] {
  const perSource = RADAR_ITEMS_PER_SOURCE[options.size];
  const rows: RadarItemsTable[] = [];
  for (const source of schemas.RADAR_SOURCES) {
    const profile = SOURCE_PROFILES[source];
    const r = new Prng(`radar:${options.seed}:${source}`);
    for (let index = 0; index < perSource; index++) {
      const category = r.pick(profile.categories);
      const subject = r.pick(SUBJECTS[category]);
      const region = r.chance(0.6) ? 'global' : r.pick(RADAR_REGIONS.slice(1));
      const item = { index, subject, category, region };
      const slug = slugOf(subject, index);
      rows.push({
        id: `${source}-${index + 1}`,
        source,
        category,
        region,
        title: profile.title(item, r),
        url: profile.url(item, slug),
        description: profile.description(item),
        // Higher-ranked items trend harder, with noise so sources interleave.
        score_centi: Math.round((100 - (index * 60) / perSource) * 100 - r.int(0, 2_000)),
        published_at: options.now - r.int(0, RADAR_SPAN_MS / 60_000) * 60_000,
        metadata: JSON.stringify(profile.metadata(item, r, slug)),
      });
    }
  }
  return rows;
}

/**
 * Fills `radar_items` once per database (a database that holds any item is left as it is), in one
 * transaction; when another instance seeds the same database at the same time, the loser keeps the
 * winner's items.
 */
export async function seedRadar(db: Kysely<Database>, options: RadarSeedOptions): Promise<boolean> {
  const seeded = async () => (await db.selectFrom('radar_items').select('id').limit(1).execute()).length > 0;
  if (await seeded()) return false;
  const rows = generateRadarItems(options);
  try {
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 100) {
        await trx
          .insertInto('radar_items')
          .values(rows.slice(i, i + 100))
          .execute();
      }
    });
  } catch (err) {
    if (await seeded()) return false;
    throw err;
  }
  return true;
}
