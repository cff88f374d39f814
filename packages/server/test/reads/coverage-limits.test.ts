import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Tweet, UserProfile } from '../../src/core/platform/platform.js';
import { COVERAGE_DEADLINE_MS } from '../../src/features/reads/walks/limits.js';
import { COVERAGE_BUSY_RETRY_S, CoverageSlots } from '../../src/features/reads/walks/slots.js';
import { ENGINES, type TestServer } from '../helpers/server.js';
import {
  type FakeListing,
  ownerAndOther,
  publicTweets,
  publicUsers,
  startWithFakeFollowers,
} from './coverage-platform.js';
import { ledgerRows } from './fixtures.js';

describe('CoverageSlots', () => {
  it('bounds the process and gives one account at most half, releasing each slot once', () => {
    const slots = new CoverageSlots(4);
    const a1 = slots.acquire('a');
    const a2 = slots.acquire('a');
    expect(() => slots.acquire('a')).toThrow(/this account already has 2 coverage reads running/);
    const b1 = slots.acquire('b');
    const b2 = slots.acquire('b');
    expect(() => slots.acquire('c')).toThrow(/maximum of 4 coverage reads/);
    a1();
    a1(); // a second call of the same release frees nothing more
    const c1 = slots.acquire('c');
    expect(() => slots.acquire('c')).toThrow(/maximum of 4/);
    for (const release of [a2, b1, b2, c1]) release();
    expect(() => [slots.acquire('x'), slots.acquire('y'), slots.acquire('z')]).not.toThrow();
  });

  it('lets an account of a one-slot server use that slot', () => {
    const slots = new CoverageSlots(1);
    expect(slots.accountMax).toBe(1);
    slots.acquire('a');
    expect(() => slots.acquire('b')).toThrow(/maximum of 1/);
  });
});

describe.each(ENGINES)('coverage bounds: 503 when busy, 424 replies_incomplete (%s)', (engine) => {
  let t: TestServer;
  let fake: FakeListing<UserProfile>;
  let direct: FakeListing<Tweet>;
  let ownerId: string;
  let otherKey: string;
  let rootId: string;
  let replies: Tweet[];

  beforeAll(async () => {
    const started = await startWithFakeFollowers(engine, { maxCoverageWalks: 4 });
    ({ t, fake, fakeDirectReplies: direct } = started);
    fake.users = await publicUsers(t, started.platform, 10);
    const all = await publicTweets(t, started.platform, 31);
    rootId = all[0]?.id as string;
    replies = all.slice(1);
    ({ ownerId, otherKey } = await ownerAndOther(t, 'busy-other@example.com'));
  });
  afterAll(async () => t?.close());
  beforeEach(() => {
    Object.assign(fake, { pageCap: 5, msPerPage: 0, hold: undefined });
    Object.assign(direct, { pageCap: 5, msPerPage: 0, hold: undefined, failFrom: undefined });
    direct.users = replies;
  });

  const followers = (query: string, key?: string) =>
    t.request('GET', `/api/v1/x/users/jack/followers?${query}`, key ? { key } : {});
  const repliesOf = (query: string) => t.request('GET', `/api/v1/x/tweets/${rootId}/replies?${query}`);
  const ids = (items: { id: string }[]) => items.map((x) => x.id);
  /** Makes every follower read wait until the returned function is called. */
  function holdFollowers(): () => void {
    let open = () => {};
    fake.hold = new Promise<void>((resolve) => {
      open = resolve;
    });
    return open;
  }

  it('answers 503 service_unavailable with Retry-After when coverage is at its bound, charging nothing', async () => {
    const open = holdFollowers();
    // The owner takes its half of the 4 slots; both answers wait on the platform.
    const running = [followers('mode=coverage&limit=5'), followers('mode=coverage&limit=5')];
    await fake.untilWaiting(2);
    const before = (await ledgerRows(t, ownerId, 'getUserFollowers')).length;
    const busy = await followers('mode=coverage&limit=5');
    expect(busy.status).toBe(503);
    expect(busy.body).toMatchObject({ error: 'service_unavailable', retryAfter: COVERAGE_BUSY_RETRY_S });
    expect(busy.body.message).toMatch(/maximum coverage is busy.*nothing was charged/);
    expect(busy.headers['retry-after']).toBe(String(COVERAGE_BUSY_RETRY_S));
    expect((await ledgerRows(t, ownerId, 'getUserFollowers')).length).toBe(before);
    // Reads that are not coverage walks are not bounded.
    expect((await t.request('GET', '/api/v1/x/users/jack')).status).toBe(200);
    // Once the platform answers, the held walks finish and give their slots back.
    open();
    const done = await Promise.all(running);
    expect(done.map((r) => r.status)).toEqual([200, 200]);
    expect(done[0]?.body.users).toHaveLength(5);
    expect((await followers('mode=coverage&limit=5')).status).toBe(200);
  });

  it('keeps one account from taking every slot: another account still gets in', async () => {
    const open = holdFollowers();
    const mine = [followers('mode=coverage&limit=2'), followers('mode=coverage&limit=2')];
    await fake.untilWaiting(2);
    expect((await followers('mode=coverage&limit=2')).status).toBe(503);
    const theirs = followers('mode=coverage&limit=2', otherKey);
    await fake.untilWaiting(3); // the other account's walk got a slot and reached the platform
    open();
    expect((await theirs).status).toBe(200);
    expect((await Promise.all(mine)).map((r) => r.status)).toEqual([200, 200]);
  });

  it('answers mode=complete with 200 when every reply, or `limit` of them, was collected', async () => {
    const all = await repliesOf('mode=complete&limit=100');
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(ids(all.body.tweets)).toEqual(ids(replies));
    expect(all.body.diagnostic).toMatchObject({ complete: true, stopReason: 'exhausted' });
    const some = await repliesOf('mode=complete&limit=7');
    expect(some.status).toBe(200);
    expect(some.body.tweets).toHaveLength(7);
    expect(some.body.diagnostic).toMatchObject({ stopReason: 'result_limit' });
  });

  it('answers 424 replies_incomplete carrying what it collected when the walk stops early', async () => {
    direct.msPerPage = 4_000; // the deadline stops the walk after a few pages
    const before = (await ledgerRows(t, ownerId, 'getTweetReplies')).length;
    const cut = await repliesOf('mode=complete&limit=100');
    expect(cut.status).toBe(424);
    const pages = Math.ceil(COVERAGE_DEADLINE_MS / 4_000);
    expect(cut.body).toMatchObject({
      error: 'replies_incomplete',
      has_next_page: true,
      diagnostic: { complete: false, stopReason: 'deadline', platformPages: pages },
    });
    expect(cut.body.message).toMatch(/next_cursor continues/);
    expect(ids(cut.body.tweets)).toEqual(ids(replies.slice(0, pages * 5)));
    // What the 424 carried was charged once per reply, like any read.
    const charged = (await ledgerRows(t, ownerId, 'getTweetReplies')).slice(before);
    expect(charged.reduce((n, r) => n + Number(r.units), 0)).toBe(pages * 5);
    // The cursor continues the same walk; nothing is repeated and nothing is missing.
    direct.msPerPage = 0;
    const rest = await repliesOf(
      `mode=complete&limit=100&cursor=${encodeURIComponent(cut.body.next_cursor)}`,
    );
    expect(rest.status).toBe(200);
    expect([...ids(cut.body.tweets), ...ids(rest.body.tweets)]).toEqual(ids(replies));
    expect(rest.body.diagnostic).toMatchObject({ complete: true, directReplyCount: replies.length });
  });

  it('answers 424 when the platform fails part-way, and standard pages are unaffected', async () => {
    direct.failFrom = 10;
    const cut = await repliesOf('mode=complete&limit=100');
    expect(cut.status).toBe(424);
    expect(cut.body.diagnostic).toMatchObject({ stopReason: 'failed' });
    expect(cut.body.tweets).toHaveLength(10);
    const plain = await repliesOf('pageSize=5');
    expect(plain.status).toBe(200);
    expect(plain.body.tweets).toHaveLength(5);
  });

  it('renders the 424 in the opt-in contract with the collected page inside the error', async () => {
    direct.msPerPage = 4_000;
    const r = await t.request('GET', `/api/v1/x/tweets/${rootId}/replies?mode=complete&limit=100`, {
      headers: { 'svc-api-contract': '2026-04-29' },
    });
    expect(r.status).toBe(424);
    expect(r.body.error).toMatchObject({ code: 'replies_incomplete', has_next_page: true });
    expect(r.body.error.tweets.length).toBeGreaterThan(0);
  });
});
