import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSimUser,
  eventsOf,
  type Json,
  type MonitorTestServer,
  patchSimUser,
  postTweet,
  startMonitorServer,
} from './helpers.js';

const tweetIds = (events: Json[]) => [...new Set(events.map((e) => e.data.id as string))];

async function watch(t: MonitorTestServer, username: string, eventTypes: string[] = ['tweet.new']) {
  const r = await t.request('POST', '/api/v1/monitors', { body: { username, eventTypes } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}

describe('baselines, pause and resume, idempotent checks', () => {
  let t: MonitorTestServer;
  beforeAll(async () => {
    t = await startMonitorServer('sqlite');
  });
  afterAll(async () => t?.close());

  it('reports nothing from before creation, and a tweet posted a moment after it, before the first check', async () => {
    await createSimUser(t, { username: 'bl_user' });
    const old = await postTweet(t, { author: 'bl_user', text: 'from before' });
    t.clock.advance(5_000);
    const sameMs = await postTweet(t, { author: 'bl_user', text: 'same millisecond, before' });
    const id = await watch(t, 'bl_user');
    // Same manual millisecond as the creation: only the tweet id tells them apart.
    const after = await postTweet(t, { author: 'bl_user', text: 'right after creation' });
    await t.check();
    const got = tweetIds(await eventsOf(t, id));
    expect(got).toEqual([after.id]);
    expect(got).not.toContain(old.id);
    expect(got).not.toContain(sameMs.id);
  });

  it('stores only the monitor’s event types', async () => {
    await createSimUser(t, { username: 'bl_types' });
    const id = await watch(t, 'bl_types', ['tweet.reply', 'profile.location.changed']);
    const parent = await postTweet(t, { author: 'bl_user', text: 'parent' });
    await postTweet(t, { author: 'bl_types', text: 'original #tag' });
    const reply = await postTweet(t, { author: 'bl_types', text: 'reply', inReplyToId: parent.id });
    await patchSimUser(t, 'bl_types', { name: 'New Name' });
    await t.check();
    await patchSimUser(t, 'bl_types', { location: 'Porto' });
    await t.check();
    const events = await eventsOf(t, id);
    expect(events.map((e) => e.type)).toEqual(['tweet.reply', 'profile.location.changed']);
    expect(events[0].data.id).toBe(reply.id);
  });

  it('pauses: nothing is stored while paused, not even after resuming; resumes from a new baseline', async () => {
    await createSimUser(t, { username: 'bl_pause' });
    const id = await watch(t, 'bl_pause', ['tweet.new', 'profile.bio.changed']);
    const before = await postTweet(t, { author: 'bl_pause', text: 'while active' });
    await t.check();
    await t.request('PATCH', `/api/v1/monitors/${id}`, { body: { isActive: false } });
    const during = await postTweet(t, { author: 'bl_pause', text: 'while paused' });
    await patchSimUser(t, 'bl_pause', { description: 'changed while paused' });
    await t.check();
    expect(tweetIds(await eventsOf(t, id))).toEqual([before.id]);
    const resumed = await t.request('PATCH', `/api/v1/monitors/${id}`, { body: { isActive: true } });
    expect(resumed.body.isActive).toBe(true);
    const afterResume = await postTweet(t, { author: 'bl_pause', text: 'after resume' });
    await t.check();
    await t.check();
    const events = await eventsOf(t, id);
    expect(tweetIds(events)).toEqual([before.id, afterResume.id]);
    expect(events.some((e) => e.type === 'profile.bio.changed')).toBe(false);
    expect(tweetIds(events)).not.toContain(during.id);
  });

  it('stores every event once across re-checks and a restart that forgot its progress', async () => {
    await createSimUser(t, { username: 'bl_idem' });
    const id = await watch(t, 'bl_idem', ['tweet.new', 'tweet.hashtag']);
    for (let i = 0; i < 3; i++) await postTweet(t, { author: 'bl_idem', text: `post ${i} #x` });
    await t.check();
    await t.check(0);
    const first = await eventsOf(t, id);
    expect(first).toHaveLength(6);
    // A crash before the progress was saved: the engine's memory is gone and the stored cursors are back
    // at the baseline, so the next engine re-reads every tweet. Nothing is stored twice.
    const { db } = t.server.services.database;
    await db.updateTable('monitor_shards').set({ tweet_cursor: null }).execute();
    await db.updateTable('monitors').set({ joined: 0 }).execute();
    const { MonitorEngine } = await import('../../src/features/monitors/engine/engine.js');
    await t.engine.stop();
    const fresh = new MonitorEngine(t.server.services, { error: () => undefined }, { autoStart: false });
    t.clock.advance(20_000); // the stopped engine's leases are released; the fresh one claims them
    const report = await fresh.checkOnce();
    expect(report.accounts.tweetsRead).toBeGreaterThanOrEqual(3);
    expect(report.accounts.events).toBe(0);
    await fresh.stop();
    expect(await eventsOf(t, id)).toEqual(first);
  });

  it('still reports a tweet committed late with a smaller id (within the look-back)', async () => {
    await createSimUser(t, { username: 'bl_late' });
    const id = await watch(t, 'bl_late');
    const first = await postTweet(t, { author: 'bl_late', text: 'first' });
    await t.check(500);
    // A tweet whose id was issued before the check but whose insert committed after it.
    const { db } = t.server.services.database;
    const row = await db
      .selectFrom('sim_tweets')
      .selectAll()
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    const lateId = (BigInt(first.id) + 1n).toString();
    await db
      .insertInto('sim_tweets')
      .values({ ...row, id: lateId, text: 'late', conversation_id: lateId })
      .execute();
    await t.check();
    expect(tweetIds(await eventsOf(t, id))).toEqual([first.id, lateId]);
  });

  it('pauses with x_user_not_found when the account is deleted; resume is then 404 user_not_found', async () => {
    const user = await createSimUser(t, { username: 'bl_deleted' });
    const id = await watch(t, 'bl_deleted', ['profile.unavailable.changed']);
    await t.check();
    await t.server.services.database.db.deleteFrom('sim_users').where('id', '=', user.id).execute();
    await t.check();
    const [event] = await eventsOf(t, id);
    expect(event).toMatchObject({
      type: 'profile.unavailable.changed',
      data: { userId: user.id, field: 'unavailable', previous: false, current: true, reason: 'not_found' },
    });
    const got = await t.request('GET', `/api/v1/monitors/${id}`);
    expect(got.body).toMatchObject({ isActive: false, pausedReason: 'x_user_not_found' });
    const resume = await t.request('PATCH', `/api/v1/monitors/${id}`, { body: { isActive: true } });
    expect(resume.status).toBe(404);
    expect(resume.body.error).toBe('user_not_found');
  });

  it('gives each monitor of one account its own events (two accounts watching one user)', async () => {
    await createSimUser(t, { username: 'bl_shared' });
    const mine = await watch(t, 'bl_shared');
    const other = await t.otherAccount();
    const r = await t.request('POST', '/api/v1/monitors', {
      key: other.key,
      body: { username: 'bl_shared', eventTypes: ['tweet.new'] },
    });
    const tweet = await postTweet(t, { author: 'bl_shared', text: 'seen twice' });
    await t.check();
    expect(tweetIds(await eventsOf(t, mine))).toEqual([tweet.id]);
    expect(tweetIds(await eventsOf(t, r.body.id, other.key))).toEqual([tweet.id]);
    expect(await eventsOf(t, r.body.id)).toEqual([]);
  });

  it('keyword monitors report new matching tweets of anyone, tweet types only', async () => {
    await createSimUser(t, { username: 'kw_one' });
    await createSimUser(t, { username: 'kw_two' });
    const old = await postTweet(t, { author: 'kw_one', text: 'quokkas were here first' });
    const k = await t.request('POST', '/api/v1/monitors/keywords', {
      body: { query: 'quokkas', eventTypes: ['tweet.new', 'tweet.reply', 'tweet.media'] },
    });
    const a = await postTweet(t, { author: 'kw_one', text: 'quokkas again', media: [{ type: 'photo' }] });
    const b = await postTweet(t, { author: 'kw_two', text: 'quokkas!', inReplyToId: a.id });
    await postTweet(t, { author: 'kw_two', text: 'nothing to see' });
    await t.check();
    await t.check();
    const events = await eventsOf(t, k.body.id);
    expect(events.map((e) => [e.data.id, e.type])).toEqual(
      expect.arrayContaining([
        [a.id, 'tweet.new'],
        [a.id, 'tweet.media'],
        [b.id, 'tweet.reply'],
      ]),
    );
    expect(events).toHaveLength(3);
    expect(tweetIds(events)).not.toContain(old.id);
    expect(events[0]).toMatchObject({ monitorType: 'keyword', query: 'quokkas' });
    await t.request('PATCH', `/api/v1/monitors/keywords/${k.body.id}`, { body: { isActive: false } });
    await postTweet(t, { author: 'kw_one', text: 'quokkas while paused' });
    await t.check();
    await t.request('PATCH', `/api/v1/monitors/keywords/${k.body.id}`, { body: { isActive: true } });
    const c = await postTweet(t, { author: 'kw_one', text: 'quokkas resumed' });
    await t.check();
    expect(tweetIds(await eventsOf(t, k.body.id))).toEqual([a.id, b.id, c.id]);
  });
});
