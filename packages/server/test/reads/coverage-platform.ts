import { createServer, platformFor } from '../../src/app/server.js';
import { createAccount, createApiKey } from '../../src/core/auth/accounts.js';
import { ManualClock } from '../../src/core/clock.js';
import { parseConfig } from '../../src/core/config.js';
import {
  type PageRequest,
  type Platform,
  type PlatformPage,
  PlatformUnavailableError,
  type Tweet,
  type UserProfile,
} from '../../src/core/platform/platform.js';
import { InvalidCursorError } from '../../src/platform/simulated/index.js';
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
  /** While set, every read waits for it (a platform that is slow to answer, under the test's control). */
  hold: Promise<void> | undefined;

  constructor(private readonly clock: ManualClock) {}

  /** Reads waiting on {@link hold} right now. */
  waiting = 0;

  /** {@link read}, after {@link hold} (if any) settles. */
  async readWhenFree(page: PageRequest): Promise<PlatformPage<T>> {
    if (this.hold) {
      this.waiting++;
      try {
        await this.hold;
      } finally {
        this.waiting--;
      }
    }
    return this.read(page);
  }

  /** Resolves once `n` reads wait on {@link hold} (each request reached the platform and holds its slot). */
  async untilWaiting(n: number): Promise<void> {
    while (this.waiting < n) await new Promise((r) => setTimeout(r, 5));
  }

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

/** What {@link startWithFakeFollowers} gives a test. */
export interface FakePlatformServer {
  t: TestServer;
  fake: FakeFollowers;
  /** Every user's replies timeline. */
  fakeReplies: FakeListing<Tweet>;
  /** The direct replies to every tweet. */
  fakeDirectReplies: FakeListing<Tweet>;
  platform: Platform;
}

/**
 * A test server whose platform serves `fake` as every user's followers, `fakeReplies` as every user's
 * replies timeline and `fakeDirectReplies` as the direct replies to any tweet (the rest is the simulated
 * network). `config` adds to the test configuration.
 */
export async function startWithFakeFollowers(
  engine: Engine,
  config: Record<string, unknown> = {},
): Promise<FakePlatformServer> {
  const clock = new ManualClock();
  const fake = new FakeListing<UserProfile>(clock);
  const fakeReplies = new FakeListing<Tweet>(clock);
  const fakeDirectReplies = new FakeListing<Tweet>(clock);
  const { database, drop } = await testDatabase(engine);
  const cfg = parseConfig({ logLevel: 'silent', seedSize: 'tiny', keyFile: '', ...config });
  let platform: Platform | undefined;
  const server = await createServer(cfg, {
    database,
    clock,
    validateResponses: true,
    platform: async (services) => {
      const real = await platformFor(cfg, services);
      platform = {
        ...real,
        followers: (_id, _f, page) => fake.readWhenFree(page),
        userReplies: (_id, page) => fakeReplies.readWhenFree(page),
        replies: (_id, _f, page) => fakeDirectReplies.readWhenFree(page),
      } as Platform;
      return platform;
    },
  });
  const t = await asTestServer(server, cfg, clock, drop);
  if (!platform) throw new Error('the platform was not built');
  return { t, fake, fakeReplies, fakeDirectReplies, platform };
}

/** The first `n` public users of the simulated network (neither protected nor suspended), by id. */
export async function publicUsers(t: TestServer, platform: Platform, n: number): Promise<UserProfile[]> {
  const rows = await t.server.services.database.db
    .selectFrom('sim_users')
    .select('id')
    .where('protected', '=', 0)
    .where('suspended', '=', 0)
    .orderBy('id')
    .limit(n)
    .execute();
  return platform.getUsers(rows.map((r) => r.id));
}

/** The first `n` original tweets of public authors of the simulated network, by id. */
export async function publicTweets(t: TestServer, platform: Platform, n: number): Promise<Tweet[]> {
  const rows = await t.server.services.database.db
    .selectFrom('sim_tweets as t')
    .innerJoin('sim_users as a', 'a.id', 't.author_id')
    .select('t.id')
    .where('t.deleted', '=', 0)
    .where('t.kind', '=', 'tweet')
    .where('a.protected', '=', 0)
    .where('a.suspended', '=', 0)
    .orderBy('t.id')
    .limit(n)
    .execute();
  return platform.getTweets(rows.map((r) => r.id));
}

/** The owner account's id, and the API key of a second account (1,000 credits) made with `email`. */
export async function ownerAndOther(
  t: TestServer,
  email: string,
): Promise<{ ownerId: string; otherKey: string }> {
  const db = t.server.services.database.db;
  const now = t.clock.now();
  const owner = await db
    .selectFrom('accounts')
    .select('id')
    .where('is_owner', '=', 1)
    .executeTakeFirstOrThrow();
  const other = await createAccount(db, { email, isOwner: false, credits: 1_000n, now });
  const { fullKey } = await createApiKey(db, { accountId: other.id, name: 'other', now });
  return { ownerId: owner.id, otherKey: fullKey };
}
