import { ManualClock } from '../../src/clock.js';
import { parseConfig } from '../../src/config.js';
import {
  type PageRequest,
  type Platform,
  type PlatformPage,
  PlatformUnavailableError,
  type Tweet,
  type UserProfile,
} from '../../src/platform/platform.js';
import { InvalidCursorError } from '../../src/platform/simulated/index.js';
import { createServer, platformFor } from '../../src/server.js';
import { asTestServer, type Engine, type TestServer, testDatabase } from '../helpers/server.js';

/**
 * A listing under the test's control, standing in for a real platform's: pages of at most `pageCap` items,
 * each page repeating the last `overlap` items of the previous one (as X's tokens sometimes do), and
 * switches to make it slow, fail, repeat itself or refuse its own cursors.
 */
export class FakeListing<T> {
  users: T[] = [];
  pageCap = 5;
  overlap = 0;
  /** Milliseconds the clock moves on each page read. */
  msPerPage = 0;
  /** Throw a platform failure when a page at or after this offset is asked for. */
  failFrom: number | undefined;
  /** From this offset on, every page repeats the same users and the cursor keeps moving, forever. */
  stallFrom: number | undefined;
  /** Refuse every cursor (as a platform whose cursors expired). */
  refuseCursors = false;
  reads = 0;

  constructor(private readonly clock: ManualClock) {}

  read(page: PageRequest): PlatformPage<T> {
    this.reads++;
    this.clock.advance(this.msPerPage);
    if (page.cursor && (this.refuseCursors || !page.cursor.startsWith('o:'))) {
      throw new InvalidCursorError('invalid cursor');
    }
    const offset = page.cursor ? Number(page.cursor.slice(2)) : 0;
    if (this.failFrom !== undefined && offset >= this.failFrom) {
      throw new PlatformUnavailableError('x_api_unavailable', 'the platform is down');
    }
    const size = Math.min(this.pageCap, Math.max(1, page.pageSize));
    const next = offset + Math.max(1, size - this.overlap);
    if (this.stallFrom !== undefined && offset >= this.stallFrom) {
      return { items: this.users.slice(this.stallFrom, this.stallFrom + size), nextCursor: `o:${next}` };
    }
    const items = this.users.slice(offset, offset + size);
    return next < this.users.length ? { items, nextCursor: `o:${next}` } : { items };
  }
}

/** The follower listing of {@link startWithFakeFollowers}. */
export type FakeFollowers = FakeListing<UserProfile>;

/**
 * A test server whose platform serves `fake` as every user's followers and `fakeReplies` as every user's
 * replies timeline (the rest is the simulated network).
 */
export async function startWithFakeFollowers(
  engine: Engine,
): Promise<{ t: TestServer; fake: FakeFollowers; fakeReplies: FakeListing<Tweet>; platform: Platform }> {
  const clock = new ManualClock();
  const fake = new FakeListing<UserProfile>(clock);
  const fakeReplies = new FakeListing<Tweet>(clock);
  const { database, drop } = await testDatabase(engine);
  const cfg = parseConfig({ logLevel: 'silent', seedSize: 'tiny', keyFile: '' });
  let platform: Platform | undefined;
  const server = await createServer(cfg, {
    database,
    clock,
    validateResponses: true,
    platform: async (services) => {
      const real = await platformFor(cfg, services);
      platform = {
        ...real,
        followers: async (_id, _f, page) => fake.read(page),
        userReplies: async (_id, page) => fakeReplies.read(page),
      } as Platform;
      return platform;
    },
  });
  const t = await asTestServer(server, cfg, clock, drop);
  if (!platform) throw new Error('the platform was not built');
  return { t, fake, fakeReplies, platform };
}
