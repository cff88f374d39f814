import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/server.js';
import { createSimUser, type MonitorTestServer, postTweet, startMonitorServer } from './helpers.js';

describe.each(ENGINES)('monitor and event operations (%s)', (engine) => {
  let t: MonitorTestServer;
  beforeAll(async () => {
    t = await startMonitorServer(engine);
    for (const u of ['op_alpha', 'op_beta', 'op_gamma']) await createSimUser(t, { username: u });
  });
  afterAll(async () => t?.close());

  describe('account monitors', () => {
    let id: string;

    it('creates a monitor: username normalized, user id resolved, first hour billed', async () => {
      const before = (await t.request('GET', '/api/v1/account')).body;
      const r = await t.request('POST', '/api/v1/monitors', {
        body: { username: '@OP_Alpha', eventTypes: ['tweet.new', 'profile.bio.changed'] },
      });
      expect(r.status).toBe(201);
      const user = await t.server.services.platform.getUser('op_alpha');
      const now = t.clock.now();
      expect(r.body).toEqual({
        id: expect.stringMatching(/^\d{19}$/),
        username: 'op_alpha',
        xUserId: user?.id,
        eventTypes: ['tweet.new', 'profile.bio.changed'],
        isActive: true,
        createdAt: new Date(now).toISOString(),
        nextBillingAt: new Date(now + 3_600_000).toISOString(),
        // Checked every second on the simulated platform: its reads cost no rate-limited requests.
        checkIntervalSeconds: 1,
      });
      id = r.body.id;
      const after = (await t.request('GET', '/api/v1/account')).body;
      expect(after.monitorsUsed).toBe(before.monitorsUsed + 1);
      expect(BigInt(before.creditInfo.balance) - BigInt(after.creditInfo.balance)).toBe(21n);
    });

    it('answers 409 monitor_already_exists for the same account, however it is spelled', async () => {
      for (const username of ['op_alpha', '@OP_ALPHA']) {
        const r = await t.request('POST', '/api/v1/monitors', {
          body: { username, eventTypes: ['tweet.new'] },
        });
        expect(r.status).toBe(409);
        expect(r.body).toMatchObject({ error: 'monitor_already_exists', monitorId: id });
      }
    });

    it('lets one of two concurrent creates win and gives the loser its hour back', async () => {
      const acct = await t.otherAccount(100n);
      const create = () =>
        t.request('POST', '/api/v1/monitors', {
          key: acct.key,
          body: { username: 'op_gamma', eventTypes: ['tweet.new'] },
        });
      const answers = await Promise.all([create(), create(), create()]);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      const account = (await t.request('GET', '/api/v1/account', { key: acct.key })).body;
      expect(account.creditInfo.balance).toBe('79');
      expect(account.monitorsUsed).toBe(1);
    });

    it('answers 404 user_not_found for an unknown or suspended account', async () => {
      const unknown = await t.request('POST', '/api/v1/monitors', {
        body: { username: 'nobody_here_42', eventTypes: ['tweet.new'] },
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe('user_not_found');
      await createSimUser(t, { username: 'op_banned' });
      await t.request('PATCH', '/sim/users/op_banned', { body: { suspended: true } });
      const suspended = await t.request('POST', '/api/v1/monitors', {
        body: { username: 'op_banned', eventTypes: ['tweet.new'] },
      });
      expect(suspended.status).toBe(404);
      expect(suspended.body.error).toBe('user_not_found');
    });

    it('validates the body: 400 invalid_input, never a 500', async () => {
      const bad: unknown[] = [
        {},
        { username: 'op_beta' },
        { username: 'op_beta', eventTypes: [] },
        { username: 'op_beta', eventTypes: ['tweet.new', 'tweet.new'] },
        { username: 'op_beta', eventTypes: ['follower.gained'] },
        { username: 'op_beta', eventTypes: 'tweet.new' },
        { username: 'not a name!', eventTypes: ['tweet.new'] },
        { username: 'a_name_far_too_long_for_it', eventTypes: ['tweet.new'] },
        [],
      ];
      for (const body of bad) {
        const r = await t.request('POST', '/api/v1/monitors', { body });
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.error).toBe('invalid_input');
      }
      const notJson = await t.request('POST', '/api/v1/monitors', { rawBody: '{"username":' });
      expect(notJson.status).toBe(400);
      expect(notJson.body.error).toBe('invalid_json');
    });

    it('lists, gets and needs credentials', async () => {
      await t.request('POST', '/api/v1/monitors', {
        body: { username: 'op_beta', eventTypes: ['tweet.reply'] },
      });
      const list = await t.request('GET', '/api/v1/monitors');
      expect(list.status).toBe(200);
      expect(list.body.total).toBe(2);
      expect(list.body.monitors.map((m: { username: string }) => m.username)).toEqual([
        'op_alpha',
        'op_beta',
      ]);
      const one = await t.request('GET', `/api/v1/monitors/${id}`);
      expect(one.status).toBe(200);
      expect(one.body.id).toBe(id);
      expect((await t.request('GET', '/api/v1/monitors', { key: null })).status).toBe(401);
      expect((await t.request('GET', `/api/v1/monitors/${id}`, { key: null })).status).toBe(401);
    });

    it('keeps monitors private to their account: 404 not_found for others', async () => {
      const other = await t.otherAccount();
      expect((await t.request('GET', '/api/v1/monitors', { key: other.key })).body).toEqual({
        monitors: [],
        total: 0,
      });
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { isActive: false }],
        ['DELETE', undefined],
      ] as const) {
        const r = await t.request(method, `/api/v1/monitors/${id}`, { key: other.key, body });
        expect(r.status, method).toBe(404);
        expect(r.body.error).toBe('not_found');
      }
      // Another account may watch the same user.
      const own = await t.request('POST', '/api/v1/monitors', {
        key: other.key,
        body: { username: 'op_alpha', eventTypes: ['tweet.new'] },
      });
      expect(own.status).toBe(201);
    });

    it('PATCH replaces the event types, pauses and resumes', async () => {
      const types = await t.request('PATCH', `/api/v1/monitors/${id}`, {
        body: { eventTypes: ['tweet.reply', 'tweet.quote'] },
      });
      expect(types.status).toBe(200);
      expect(types.body).toMatchObject({ eventTypes: ['tweet.reply', 'tweet.quote'], isActive: true });
      const paused = await t.request('PATCH', `/api/v1/monitors/${id}`, { body: { isActive: false } });
      expect(paused.body).toMatchObject({ isActive: false });
      expect(paused.body.pausedReason).toBeUndefined();
      const resumed = await t.request('PATCH', `/api/v1/monitors/${id}`, {
        body: { isActive: true, eventTypes: ['tweet.new'] },
      });
      expect(resumed.body).toMatchObject({ isActive: true, eventTypes: ['tweet.new'], username: 'op_alpha' });
      expect(resumed.body.nextBillingAt).toBeDefined();
    });

    it('PATCH validates: at least one field, known types, a boolean; 404 for an unknown id', async () => {
      for (const body of [{}, { eventTypes: [] }, { eventTypes: ['nope'] }, { isActive: 'yes' }]) {
        const r = await t.request('PATCH', `/api/v1/monitors/${id}`, { body });
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.error).toBe('invalid_input');
      }
      const unknown = await t.request('PATCH', '/api/v1/monitors/123', { body: { isActive: false } });
      expect(unknown.status).toBe(404);
      expect((await t.request('GET', '/api/v1/monitors/123')).status).toBe(404);
    });

    it('deletes: 200 then 404', async () => {
      const r = await t.request('DELETE', `/api/v1/monitors/${id}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ success: true });
      expect((await t.request('DELETE', `/api/v1/monitors/${id}`)).status).toBe(404);
      expect((await t.request('GET', `/api/v1/monitors/${id}`)).status).toBe(404);
    });
  });

  describe('keyword monitors', () => {
    let id: string;

    it('creates, lists and gets', async () => {
      const r = await t.request('POST', '/api/v1/monitors/keywords', {
        body: { query: '  launch   day ', eventTypes: ['tweet.new', 'tweet.media'] },
      });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        id: expect.stringMatching(/^\d{19}$/),
        query: 'launch day',
        eventTypes: ['tweet.new', 'tweet.media'],
        isActive: true,
        createdAt: new Date(t.clock.now()).toISOString(),
        nextBillingAt: new Date(t.clock.now() + 3_600_000).toISOString(),
        checkIntervalSeconds: 1,
      });
      id = r.body.id;
      const list = await t.request('GET', '/api/v1/monitors/keywords');
      expect(list.body).toMatchObject({ total: 1, monitors: [{ id, query: 'launch day' }] });
      expect((await t.request('GET', `/api/v1/monitors/keywords/${id}`)).body.id).toBe(id);
    });

    it('answers 409 for the same query (case and spacing aside)', async () => {
      const r = await t.request('POST', '/api/v1/monitors/keywords', {
        body: { query: 'LAUNCH DAY', eventTypes: ['tweet.new'] },
      });
      expect(r.status).toBe(409);
      expect(r.body.error).toBe('monitor_already_exists');
    });

    it('validates: a query of 1-512 characters, tweet types only', async () => {
      for (const body of [
        { eventTypes: ['tweet.new'] },
        { query: '', eventTypes: ['tweet.new'] },
        { query: '   ', eventTypes: ['tweet.new'] },
        { query: 'x'.repeat(513), eventTypes: ['tweet.new'] },
        { query: 'launch', eventTypes: ['profile.bio.changed'] },
        { query: 'launch', eventTypes: [] },
      ]) {
        const r = await t.request('POST', '/api/v1/monitors/keywords', { body });
        expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(r.body.error).toBe('invalid_input');
      }
      const patch = await t.request('PATCH', `/api/v1/monitors/keywords/${id}`, {
        body: { eventTypes: ['profile.name.changed'] },
      });
      expect(patch.status).toBe(400);
    });

    it('updates, pauses, resumes, deletes; 404 for unknown ids and other accounts', async () => {
      const r = await t.request('PATCH', `/api/v1/monitors/keywords/${id}`, {
        body: { eventTypes: ['tweet.quote'], isActive: false },
      });
      expect(r.body).toMatchObject({ eventTypes: ['tweet.quote'], isActive: false });
      const resumed = await t.request('PATCH', `/api/v1/monitors/keywords/${id}`, {
        body: { isActive: true },
      });
      expect(resumed.body.isActive).toBe(true);
      const other = await t.otherAccount();
      expect((await t.request('GET', `/api/v1/monitors/keywords/${id}`, { key: other.key })).status).toBe(
        404,
      );
      expect((await t.request('GET', '/api/v1/monitors/keywords/999')).status).toBe(404);
      expect((await t.request('DELETE', `/api/v1/monitors/keywords/${id}`)).body).toEqual({ success: true });
      expect((await t.request('DELETE', `/api/v1/monitors/keywords/${id}`)).status).toBe(404);
      expect(
        (await t.request('PATCH', `/api/v1/monitors/keywords/${id}`, { body: { isActive: true } })).status,
      ).toBe(404);
    });
  });

  describe('events', () => {
    let monitorId: string;
    let keywordId: string;

    beforeAll(async () => {
      const m = await t.request('POST', '/api/v1/monitors', {
        body: { username: 'op_gamma', eventTypes: ['tweet.new', 'tweet.hashtag'] },
      });
      monitorId = m.body.id;
      const k = await t.request('POST', '/api/v1/monitors/keywords', {
        body: { query: 'zebracorn', eventTypes: ['tweet.new'] },
      });
      keywordId = k.body.id;
      for (let i = 0; i < 5; i++) await postTweet(t, { author: 'op_gamma', text: `post ${i} #tag${i}` });
      await postTweet(t, { author: 'op_beta', text: 'a zebracorn appears' });
      await t.check();
    });

    it('pages newest first with after (and its alias cursor) until hasMore is false', async () => {
      const first = await t.request('GET', `/api/v1/events?monitorId=${monitorId}&limit=4`);
      expect(first.status).toBe(200);
      expect(first.body.events).toHaveLength(4);
      expect(first.body.hasMore).toBe(true);
      const ids: string[] = first.body.events.map((e: { id: string }) => e.id);
      expect([...ids].sort().reverse()).toEqual(ids);
      const second = await t.request(
        'GET',
        `/api/v1/events?monitorId=${monitorId}&limit=4&after=${first.body.nextCursor}`,
      );
      const third = await t.request(
        'GET',
        `/api/v1/events?monitorId=${monitorId}&limit=4&cursor=${second.body.nextCursor}`,
      );
      expect(third.body.hasMore).toBe(false);
      expect(third.body.nextCursor).toBeUndefined();
      const all = [...first.body.events, ...second.body.events, ...third.body.events];
      expect(all).toHaveLength(10);
      expect(new Set(all.map((e) => e.id)).size).toBe(10);
    });

    it('filters by keyword monitor and by type; defaults to 50 a page', async () => {
      const kw = await t.request('GET', `/api/v1/events?keywordMonitorId=${keywordId}`);
      expect(kw.body.events).toHaveLength(1);
      expect(kw.body.events[0]).toMatchObject({
        type: 'tweet.new',
        monitorId: keywordId,
        keywordMonitorId: keywordId,
        monitorType: 'keyword',
        query: 'zebracorn',
      });
      expect(kw.body.events[0].username).toBeUndefined();
      const byMonitorId = await t.request('GET', `/api/v1/events?monitorId=${keywordId}`);
      expect(byMonitorId.body.events).toHaveLength(1);
      const tags = await t.request('GET', `/api/v1/events?monitorId=${monitorId}&eventType=tweet.hashtag`);
      expect(tags.body.events).toHaveLength(5);
      const all = await t.request('GET', '/api/v1/events');
      expect(all.body.events.length).toBeLessThanOrEqual(50);
    });

    it('gets one event; 404 for unknown ids and other accounts', async () => {
      const [e] = (await t.request('GET', `/api/v1/events?monitorId=${monitorId}&limit=1`)).body.events;
      const one = await t.request('GET', `/api/v1/events/${e.id}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(e);
      expect((await t.request('GET', '/api/v1/events/1')).status).toBe(404);
      const other = await t.otherAccount();
      const theirs = await t.request('GET', `/api/v1/events/${e.id}`, { key: other.key });
      expect(theirs.status).toBe(404);
      expect(theirs.body.error).toBe('not_found');
      const list = await t.request('GET', `/api/v1/events?monitorId=${monitorId}`, { key: other.key });
      expect(list.body).toEqual({ events: [], hasMore: false });
    });

    it('rejects bad parameters with 400 invalid_input', async () => {
      for (const q of [
        'limit=0',
        'limit=101',
        'limit=abc',
        'after=garbage',
        'cursor=%20',
        'eventType=tweet.nope',
      ]) {
        const r = await t.request('GET', `/api/v1/events?${q}`);
        expect(r.status, q).toBe(400);
        expect(r.body.error).toBe('invalid_input');
      }
      expect((await t.request('GET', '/api/v1/events', { key: null })).status).toBe(401);
    });
  });
});
