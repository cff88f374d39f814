import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Platform, Tweet, UserProfile } from '../../src/core/platform/platform.js';
import {
  COVERAGE_DEADLINE_MS,
  COVERAGE_LEASE_MS,
  COVERAGE_TTL_MS,
  STANDARD_MAX_PAGES,
} from '../../src/features/reads/walks/limits.js';
import { STALL_PAGES } from '../../src/features/reads/walks/walk.js';
import { ENGINES, type TestServer } from '../helpers/server.js';
import {
  type FakeFollowers,
  type FakeListing,
  ownerAndOther,
  publicTweets,
  publicUsers,
  startWithFakeFollowers,
} from './coverage-platform.js';
import { ledgerRows } from './fixtures.js';

const USERS = 20;

describe.each(ENGINES)('resumable coverage walks (%s)', (engine) => {
  let t: TestServer;
  let fake: FakeFollowers;
  let platform: Platform;
  let ownerId: string;
  let otherKey: string;
  /** More users than one standard answer's page budget can read one at a time. */
  let pool: UserProfile[];

  beforeAll(async () => {
    ({ t, fake, platform } = await startWithFakeFollowers(engine));
    pool = await publicUsers(t, platform, 2 * STANDARD_MAX_PAGES);
    expect(pool).toHaveLength(2 * STANDARD_MAX_PAGES);
    fake.users = pool.slice(0, USERS);
    ({ ownerId, otherKey } = await ownerAndOther(t, 'other@example.com'));
  });
  afterAll(async () => t?.close());
  beforeEach(() => {
    Object.assign(fake, { pageCap: 5, overlap: 0, msPerPage: 0, failFrom: undefined, stallFrom: undefined });
    fake.users = pool.slice(0, USERS);
    fake.refuseCursors = false;
  });

  const followers = (query: string, key?: string) =>
    t.request('GET', `/api/v1/x/users/jack/followers?${query}`, key ? { key } : {});
  const ids = (users: { id: string }[]) => users.map((u) => u.id);
  const next = (cursor: string) => `cursor=${encodeURIComponent(cursor)}`;

  /** Walks the followers in coverage mode, `limit` per answer; returns every answer's body. */
  async function walk(limit: number, extra = '') {
    const answers = [];
    let cursor = '';
    do {
      const r = await followers(`mode=coverage&limit=${limit}${extra}${cursor ? `&${next(cursor)}` : ''}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      answers.push(r.body);
      cursor = r.body.next_cursor;
    } while (cursor);
    return answers;
  }

  it('returns every result exactly once across answers, dropping the repeats the platform sends', async () => {
    fake.overlap = 2; // every page repeats the last 2 users of the previous one
    const before = (await ledgerRows(t, ownerId, 'getUserFollowers')).length;
    const answers = await walk(7);
    const all = answers.flatMap((a) => ids(a.users));
    expect(all).toHaveLength(USERS);
    expect(new Set(all).size).toBe(USERS);
    expect(answers.slice(0, -1).every((a) => /^cov_[0-9a-f]{32}_\d+$/.test(a.next_cursor))).toBe(true);
    expect(answers[0].diagnostic).toMatchObject({
      mode: 'coverage',
      complete: false,
      stopReason: 'result_limit',
      cursorExpiresAt: new Date(t.clock.now() + COVERAGE_TTL_MS).toISOString(),
    });
    const last = answers.at(-1);
    expect(last.has_next_page).toBe(false);
    expect(last.diagnostic).toMatchObject({ complete: true, stopReason: 'exhausted' });
    expect(last.diagnostic.cursorExpiresAt).toBeUndefined();
    expect(last.diagnostic.duplicatesRemoved).toBeGreaterThan(0);
    // Only the results returned are charged, never the repeats.
    const rows = (await ledgerRows(t, ownerId, 'getUserFollowers')).slice(before);
    expect(rows.reduce((n, r) => n + Number(r.units), 0)).toBe(USERS);
    // The same listing walked in standard mode shows the repeats coverage removed.
    const plain: string[] = [];
    let cursor = '';
    do {
      const r = await followers(`mode=standard&limit=7${cursor ? `&${next(cursor)}` : ''}`);
      plain.push(...ids(r.body.users));
      cursor = r.body.next_cursor;
    } while (cursor);
    expect(plain.length).toBeGreaterThan(USERS);
  });

  it('serves a lost answer again from the cursor before the latest; older cursors are gone (410)', async () => {
    const a1 = (await followers('mode=coverage&limit=6')).body;
    const a2 = (await followers(`mode=coverage&limit=6&${next(a1.next_cursor)}`)).body;
    const again = await followers(`mode=coverage&limit=6&${next(a1.next_cursor)}`);
    expect(again.status).toBe(200);
    expect(ids(again.body.users)).toEqual(ids(a2.users));
    expect(again.body.next_cursor).toBe(a2.next_cursor);
    const a3 = (await followers(`mode=coverage&limit=6&${next(a2.next_cursor)}`)).body;
    expect(new Set([...ids(a1.users), ...ids(a2.users), ...ids(a3.users)]).size).toBe(18);
    const stale = await followers(`mode=coverage&limit=6&${next(a1.next_cursor)}`);
    expect(stale.status).toBe(410);
    expect(stale.body.error).toBe('coverage_cursor_gone');
    expect(stale.headers['retry-after']).toBeUndefined();
  });

  it('expires a cursor an hour after the answer that issued it', async () => {
    const first = (await followers('mode=coverage&limit=3')).body;
    t.clock.advance(COVERAGE_TTL_MS - 1);
    const second = await followers(`mode=coverage&limit=3&${next(first.next_cursor)}`);
    expect(second.status).toBe(200);
    t.clock.advance(COVERAGE_TTL_MS);
    const late = await followers(`mode=coverage&limit=3&${next(second.body.next_cursor)}`);
    expect(late.status).toBe(410);
    expect(late.body).toMatchObject({ error: 'coverage_cursor_gone' });
    expect(late.body.message).toContain('expired');
  });

  it('refuses cursors of another query, account or operation, and malformed ones (400)', async () => {
    const cursor = (await followers('mode=coverage&limit=3')).body.next_cursor as string;
    const refused = async (url: string, key?: string) => {
      const r = await t.request('GET', url, key ? { key } : {});
      expect(r.status, url).toBe(400);
      return r.body.error as string;
    };
    const base = '/api/v1/x/users/jack';
    expect(await refused(`${base}/followers?mode=coverage&minFollowers=1&${next(cursor)}`)).toBe(
      'invalid_coverage_cursor',
    );
    expect(await refused(`${base}/followers?mode=coverage&${next(cursor)}`, otherKey)).toBe(
      'invalid_coverage_cursor',
    );
    expect(await refused(`${base}/following?mode=coverage&${next(cursor)}`)).toBe('invalid_coverage_cursor');
    expect(await refused(`/api/v1/x/users/xsvc_demo/followers?mode=coverage&${next(cursor)}`)).toBe(
      'invalid_coverage_cursor',
    );
    expect(await refused(`${base}/followers?mode=coverage&cursor=cov_nothex_1`)).toBe(
      'invalid_coverage_cursor',
    );
    expect(await refused(`${base}/followers?mode=coverage&cursor=o:5`)).toBe('invalid_coverage_cursor');
    expect(await refused(`${base}/followers?mode=standard&${next(cursor)}`)).toBe('invalid_coverage_request');
    // A page size or limit change is fine: they are not part of the query a walk is of.
    expect((await followers(`mode=coverage&limit=4&pageSize=50&${next(cursor)}`)).status).toBe(200);
  });

  it('answers 409 with Retry-After while another request holds the walk, then serves the retry', async () => {
    const first = (await followers('mode=coverage&limit=3')).body;
    const walkId = String(first.next_cursor).split('_')[1] as string;
    const db = t.server.services.database.db;
    await db
      .updateTable('jobs')
      .set({ lease_until: t.clock.now() + COVERAGE_LEASE_MS, lease_owner: 'another-request' })
      .where('kind', '=', 'coverage.walk')
      .where('key', '=', walkId)
      .execute();
    const busy = await followers(`mode=coverage&limit=3&${next(first.next_cursor)}`);
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ error: 'coverage_cursor_unavailable', retryAfter: 30 });
    expect(busy.headers['retry-after']).toBe('30');
    t.clock.advance(COVERAGE_LEASE_MS);
    const retry = await followers(`mode=coverage&limit=3&${next(first.next_cursor)}`);
    expect(retry.status).toBe(200);
    expect(retry.body.users).toHaveLength(3);
  });

  it('stops at the deadline, and the next answer continues', async () => {
    fake.msPerPage = 4_000;
    fake.pageCap = 2;
    const r = (await followers('mode=coverage&limit=20')).body;
    const pages = Math.ceil(COVERAGE_DEADLINE_MS / 4_000);
    expect(r.diagnostic).toMatchObject({ stopReason: 'deadline', complete: false, platformPages: pages });
    expect(r.users).toHaveLength(pages * 2);
    const more = (await followers(`mode=coverage&limit=20&${next(r.next_cursor)}`)).body;
    expect(ids(more.users)[0]).toBe(fake.users[pages * 2]?.id);
  });

  it('gives up on a platform that only repeats itself (stalled)', async () => {
    fake.stallFrom = 5;
    const r = (await followers('mode=coverage&limit=20')).body;
    expect(r.diagnostic).toMatchObject({ stopReason: 'stalled', complete: false });
    expect(r.users).toHaveLength(10);
    expect(r.diagnostic.platformPages).toBe(2 + STALL_PAGES);
    expect(r.diagnostic.duplicatesRemoved).toBe(5 * STALL_PAGES);
  });

  it('keeps what it read when the platform fails mid-walk; the cursor resumes where it stopped', async () => {
    fake.failFrom = 10;
    const r = (await followers('mode=coverage&limit=20')).body;
    expect(r.diagnostic).toMatchObject({ stopReason: 'failed', complete: false });
    expect(r.users).toHaveLength(10);
    // Failing on the first page of an answer is the platform's error (502), and the walk stays resumable.
    const down = await followers(`mode=coverage&limit=20&${next(r.next_cursor)}`);
    expect(down.status).toBe(502);
    fake.failFrom = undefined;
    const resumed = (await followers(`mode=coverage&limit=20&${next(r.next_cursor)}`)).body;
    expect(ids(resumed.users)).toEqual(ids(fake.users.slice(10)));
    expect(resumed.diagnostic.complete).toBe(true);
  });

  it('answers 410 when the platform no longer accepts the position of a walk', async () => {
    const first = (await followers('mode=coverage&limit=5')).body;
    fake.refuseCursors = true;
    const gone = await followers(`mode=coverage&limit=5&${next(first.next_cursor)}`);
    expect(gone.status).toBe(410);
    expect(gone.body.error).toBe('coverage_cursor_gone');
  });

  it('releases the walk when an answer cannot be paid, so the retry is not refused as busy', async () => {
    const db = t.server.services.database.db;
    const first = (await followers('mode=coverage&limit=3')).body;
    const { credits_balance } = await db
      .selectFrom('accounts')
      .select('credits_balance')
      .where('id', '=', ownerId)
      .executeTakeFirstOrThrow();
    await db.updateTable('accounts').set({ credits_balance: 0n }).where('id', '=', ownerId).execute();
    const broke = await followers(`mode=coverage&limit=3&${next(first.next_cursor)}`);
    expect(broke.status).toBe(402);
    await db.updateTable('accounts').set({ credits_balance }).where('id', '=', ownerId).execute();
    expect((await followers(`mode=coverage&limit=3&${next(first.next_cursor)}`)).status).toBe(200);
  });

  it('switches to automatic coverage when a page without mode is cut short by the page budget', async () => {
    fake.pageCap = 1;
    fake.users = pool;
    const r = (await followers('limit=30')).body;
    expect(r.users).toHaveLength(STANDARD_MAX_PAGES);
    expect(r.next_cursor).toMatch(/^cov_/);
    expect(r.diagnostic).toMatchObject({ mode: 'automatic', stopReason: 'page_limit', complete: false });
    const rest = (await followers(`limit=30&${next(r.next_cursor)}`)).body;
    expect(rest.diagnostic).toMatchObject({ mode: 'automatic', complete: true });
    expect([...ids(r.users), ...ids(rest.users)]).toEqual(ids(pool));
    // A page that is not cut short stays a plain page.
    const plain = (await followers('limit=3')).body;
    expect(plain.diagnostic).toBeUndefined();
    expect(plain.next_cursor).toBe('o:3');
  });
});

describe.each(ENGINES)('coverage of tweet reads on the simulated network (%s)', (engine) => {
  let t: TestServer;
  let fakeReplies: FakeListing<Tweet>;
  let platform: Platform;
  beforeAll(async () => {
    ({ t, fakeReplies, platform } = await startWithFakeFollowers(engine));
  });
  afterAll(async () => t?.close());

  it("switches a user's replies timeline to automatic coverage when the page budget cuts it short", async () => {
    fakeReplies.users = await publicTweets(t, platform, STANDARD_MAX_PAGES + 5);
    fakeReplies.pageCap = 1;
    const first = await t.request('GET', `/api/v1/x/users/jack/replies?pageSize=${STANDARD_MAX_PAGES + 5}`);
    expect(first.status).toBe(200);
    expect(first.body.tweets).toHaveLength(STANDARD_MAX_PAGES);
    expect(first.body.next_cursor).toMatch(/^cov_/);
    expect(first.body.diagnostic).toBeUndefined(); // this operation's answer has no diagnostic field
    const rest = await t.request(
      'GET',
      `/api/v1/x/users/jack/replies?pageSize=${STANDARD_MAX_PAGES + 5}&cursor=${first.body.next_cursor}`,
    );
    expect(rest.body.has_next_page).toBe(false);
    const all = [...first.body.tweets, ...rest.body.tweets].map((x: { id: string }) => x.id);
    expect(all).toEqual(fakeReplies.users.map((x) => x.id));
  });

  it('walks the same results as standard pages, with the id range so far', async () => {
    const standard: string[] = [];
    let cursor = '';
    for (let i = 0; i < 3; i++) {
      const r = await t.request(
        'GET',
        `/api/v1/x/tweets/search?q=the&limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      standard.push(...r.body.tweets.map((x: { id: string }) => x.id));
      cursor = r.body.next_cursor;
    }
    const walked: string[] = [];
    cursor = '';
    let last: { diagnostic: Record<string, unknown> } | undefined;
    for (let i = 0; i < 3; i++) {
      const r = await t.request(
        'GET',
        `/api/v1/x/tweets/search?q=the&limit=5&mode=coverage${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(r.status).toBe(200);
      walked.push(...r.body.tweets.map((x: { id: string }) => x.id));
      cursor = r.body.next_cursor;
      last = r.body;
    }
    expect(walked).toEqual(standard);
    const sorted = [...walked].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    expect(last?.diagnostic).toMatchObject({
      newestId: sorted.at(-1),
      oldestId: sorted[0],
      duplicatesRemoved: 0,
    });
  });
});
