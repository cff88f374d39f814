import { schemas, strictify } from '@xsvc/sdk/contract';
import { afterAll, beforeAll } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { Db } from '../../src/core/db/database.js';
import type { PageRequest, PlatformPage } from '../../src/core/platform/platform.js';
import { SimulatedControl, SimulatedPlatform, seedNetwork } from '../../src/platform/simulated/index.js';
import { type EngineName, openTestDatabase, postgresAvailable } from './engines.js';

/** The engines a suite runs on: SQLite always, Postgres when it answers. */
export const ENGINES: EngineName[] = [
  'sqlite',
  ...((await postgresAvailable()) ? (['postgres'] as const) : []),
];

/** The seed of the test network and its present. */
export const SEED = 'vitest';
export const NOW = Date.UTC(2026, 3, 29, 12);

export const strictTweet = strictify(schemas.TweetSchema);
export const strictUser = strictify(schemas.UserProfileSchema);

/** A seeded tiny network on `engine`, opened before the suite's tests and closed after them. */
export interface TestNetwork {
  db: Db;
  clock: ManualClock;
  platform: SimulatedPlatform;
  control: SimulatedControl;
}

export function useNetwork(engine: EngineName): TestNetwork {
  const net = {} as TestNetwork;
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const opened = await openTestDatabase(engine);
    close = opened.close;
    net.db = opened.db;
    net.clock = new ManualClock(NOW);
    await seedNetwork(net.db.db, { size: 'tiny', seed: SEED, now: NOW });
    net.platform = new SimulatedPlatform(net.db.db, net.clock);
    net.control = new SimulatedControl(net.db.db, net.clock);
  });
  afterAll(async () => {
    await close();
  });
  return net;
}

/** Every item of a paged listing, following cursors; fails on a cursor loop. */
export async function walk<T>(
  read: (page: PageRequest) => Promise<PlatformPage<T> | undefined>,
  pageSize: number,
  maxPages = 1_000,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages <= maxPages; pages++) {
    const page = await read({ pageSize, ...(cursor && { cursor }) });
    if (!page) return { items, pages };
    items.push(...page.items);
    if (!page.nextCursor) return { items, pages };
    if (page.nextCursor === cursor) throw new Error('cursor did not advance');
    cursor = page.nextCursor;
  }
  throw new Error('too many pages');
}
