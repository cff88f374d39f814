import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';
import { balance, connect, ledgerRows, type Network, network, setBalance } from './fixtures.js';

/** Spec 8.2: what each read costs, fewer results when credits run short, 402 at zero, free failures. */
describe.each(ENGINES)('read metering (%s)', (engine) => {
  let t: TestServer;
  let n: Network;
  beforeAll(async () => {
    t = await startTestServer(engine);
    n = await network(t);
    await connect(t, n.ownerId, 'jack');
  });
  afterAll(async () => t?.close());

  /** The credits a request costs, and its answer. */
  const cost = async (method: 'GET' | 'POST', url: string, body?: unknown, start = 10_000) => {
    await setBalance(t, n.ownerId, start);
    const r = await t.request(method, url, body === undefined ? {} : { body });
    return { r, spent: Number(BigInt(start) - (await balance(t, n.ownerId))) };
  };

  it('per-result reads charge exactly the items returned, in one ledger row', async () => {
    const before = (await ledgerRows(t, n.ownerId, 'getUserFollowers')).length;
    const { r, spent } = await cost('GET', '/api/v1/x/users/jack/followers?pageSize=25');
    expect(r.body.users).toHaveLength(25);
    expect(spent).toBe(25);
    const rows = await ledgerRows(t, n.ownerId, 'getUserFollowers');
    expect(rows.length).toBe(before + 1);
    expect(Number(rows.at(-1)?.units)).toBe(25);
    expect(Number(rows.at(-1)?.delta)).toBe(-25);
    const filtered = await cost('GET', '/api/v1/x/users/jack/followers?pageSize=50&verifiedOnly=true');
    expect(filtered.spent).toBe(filtered.r.body.users.length);
    const notes = await cost('GET', '/api/v1/x/notifications');
    expect(notes.spent).toBe(notes.r.body.notifications.length);
    const folders = await cost('GET', '/api/v1/x/bookmarks/folders');
    expect(folders.spent).toBe(3);
  });

  it('returns fewer results when the balance cannot cover the page, and the cursor continues after them', async () => {
    const { r, spent } = await cost('GET', '/api/v1/x/users/jack/followers?pageSize=20', undefined, 7);
    expect(r.status).toBe(200);
    expect(r.body.users).toHaveLength(7);
    expect(spent).toBe(7);
    expect(r.body.has_next_page).toBe(true);
    const full = await cost('GET', '/api/v1/x/users/jack/followers?pageSize=27');
    const next = await cost('GET', `/api/v1/x/users/jack/followers?pageSize=20&cursor=${r.body.next_cursor}`);
    const ids = (x: { body: { users: { id: string }[] } }) => x.body.users.map((u) => u.id);
    expect([...ids(r), ...ids(next.r)]).toEqual(ids(full.r));
  });

  it('answers 402 insufficient_credits with nothing affordable, and charges nothing', async () => {
    for (const url of [
      '/api/v1/x/users/jack/followers',
      '/api/v1/x/tweets/20',
      `/api/v1/x/tweets?ids=${n.photosTweet}`,
      '/api/v1/x/trends',
      '/api/v1/x/bookmarks',
    ]) {
      const { r, spent } = await cost('GET', url, undefined, 0);
      expect([url, r.status, r.body.error]).toEqual([url, 402, 'insufficient_credits']);
      expect(spent).toBe(0);
    }
    const trends = await cost('GET', '/api/v1/x/trends', undefined, 2);
    expect(trends.r.status).toBe(402);
    const viral = await cost('POST', '/api/v1/x/analysis/viral-score', { texts: ['hello'] }, 1);
    expect(viral.r.status).toBe(402);
  });

  it('charges single lookups per call, trends 3 per call, batches per item returned', async () => {
    expect((await cost('GET', `/api/v1/x/tweets/${n.photosTweet}`)).spent).toBe(1);
    expect((await cost('GET', '/api/v1/x/users/jack')).spent).toBe(1);
    expect((await cost('GET', '/api/v1/x/followers/check?source=jack&target=xsvc_demo')).spent).toBe(1);
    expect((await cost('GET', `/api/v1/x/communities/${n.communityId}/info`)).spent).toBe(1);
    expect((await cost('GET', `/api/v1/x/articles/${n.articleTweet}`)).spent).toBe(1);
    expect((await cost('GET', `/api/v1/x/jobs/${n.openJob}`)).spent).toBe(1);
    expect((await cost('POST', '/api/v1/x/media/download', { tweetId: n.photosTweet })).spent).toBe(1);
    const trends = await cost('GET', '/api/v1/x/trends?count=50');
    expect(trends.spent).toBe(3);
    expect(Number((await ledgerRows(t, n.ownerId, 'getXTrends')).at(-1)?.units)).toBe(1);
    expect((await cost('GET', '/api/v1/trends?count=1')).spent).toBe(3);
    const batch = await cost('GET', `/api/v1/x/tweets?ids=${n.photosTweet},${n.giveawayTweet},1`);
    expect(batch.spent).toBe(2);
    const short = await cost('GET', `/api/v1/x/tweets?ids=${n.photosTweet},${n.giveawayTweet}`, undefined, 1);
    expect([short.r.status, short.r.body.tweets.length, short.spent]).toEqual([200, 1, 1]);
    const users = await cost('GET', `/api/v1/x/users/batch?ids=12,${n.listMemberId},1`, undefined, 1);
    expect(users.r.body).toMatchObject({
      returned_count: 1,
      processed_count: 1,
      unprocessed_ids: [n.listMemberId, '1'],
    });
    expect(users.spent).toBe(1);
  });

  it('charges list memberships per list and leaves an empty page free', async () => {
    const { r, spent } = await cost('GET', `/api/v1/x/users/${n.listMemberId}/list-memberships`);
    expect(spent).toBe(r.body.lists.length);
    expect(spent).toBeGreaterThan(0);
    const empty = await cost('GET', '/api/v1/x/users/locked_account/list-memberships');
    expect([empty.r.status, empty.spent]).toEqual([403, 0]);
    const db = t.server.services.database.db;
    const lonely = await db
      .selectFrom('sim_users as u')
      .select('u.id')
      .where('u.protected', '=', 0)
      .where('u.suspended', '=', 0)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom('sim_list_members as m').select('m.user_id').whereRef('m.user_id', '=', 'u.id')),
        ),
      )
      .executeTakeFirstOrThrow();
    const none = await cost('GET', `/api/v1/x/users/${lonely.id}/list-memberships`, undefined, 0);
    expect([none.r.status, none.r.body.lists, none.r.body.has_next_page, none.spent]).toEqual([
      200,
      [],
      false,
      0,
    ]);
  });

  it('uses the first page-size alias sent for list memberships', async () => {
    const a = await cost('GET', `/api/v1/x/users/${n.listMemberId}/list-memberships?max_items=1&pageSize=2`);
    expect(a.r.body.lists).toHaveLength(1);
    const b = await cost('GET', `/api/v1/x/users/${n.listMemberId}/list-memberships?per_page=1`);
    expect(b.spent).toBe(1);
  });

  it('leaves failures free: 404s, protected accounts, closed jobs, tweets without media', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/v1/x/tweets/1'],
      ['GET', '/api/v1/x/users/nobody_here_42'],
      ['GET', '/api/v1/x/users/locked_account/tweets'],
      ['GET', '/api/v1/x/users/locked_account/followers'],
      ['GET', `/api/v1/x/jobs/${n.closedJob}`],
      ['GET', '/api/v1/x/lists/1/members'],
      ['GET', '/api/v1/x/communities/1/info'],
      ['GET', `/api/v1/x/articles/${n.photosTweet}`],
      ['POST', '/api/v1/x/media/download', { tweetId: n.textOnlyTweet }],
      ['GET', '/api/v1/x/users/jack/followers?cursor=garbage'],
    ] as const) {
      const { r, spent } = await cost(method, url, body);
      expect(r.status, url).toBeGreaterThanOrEqual(400);
      expect(spent, url).toBe(0);
    }
  });

  it('charges the viral score 2 credits per analyzed post and skips what credits cannot cover', async () => {
    const three = await cost('POST', '/api/v1/x/analysis/viral-score', { texts: ['one', 'two', 'three'] });
    expect(three.spent).toBe(6);
    const short = await cost('POST', '/api/v1/x/analysis/viral-score', { texts: ['one', 'two', 'three'] }, 5);
    expect(short.r.body.results).toHaveLength(2);
    expect(short.r.body.unanalyzed).toEqual([
      { id: 'text:3', status: 'skipped', reason: expect.any(String) },
    ]);
    expect(short.spent).toBe(4);
    const ids = await cost('POST', '/api/v1/x/analysis/viral-score', { tweetIds: [n.photosTweet, '1'] });
    expect(ids.spent).toBe(2);
    expect(ids.r.body.unanalyzed).toEqual([{ id: '1', status: 'not_found', reason: expect.any(String) }]);
    const search = await cost('POST', '/api/v1/x/analysis/viral-score', { username: 'jack', limit: 2 });
    expect([search.r.body.results.length, search.spent]).toEqual([2, 4]);
  });
});
