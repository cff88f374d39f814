import { EVENT_TYPES, strictify, WebhookEventPayloadSchema } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/server.js';
import {
  createSimUser,
  eventsOf,
  type Json,
  type MonitorTestServer,
  patchSimUser,
  postTweet,
  startMonitorServer,
} from './helpers.js';

const StoredPayload = strictify(WebhookEventPayloadSchema.omit({ deliveryId: true }));

/** Event types of a monitor's events, per tweet id (tweet events) or per profile field. */
function typesByTweet(events: Json[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of events) {
    if (!e.type.startsWith('tweet.')) continue;
    out.set(e.data.id, [...(out.get(e.data.id) ?? []), e.type].sort());
  }
  return out;
}

describe.each(ENGINES)('the 21 event types, end to end (%s)', (engine) => {
  let t: MonitorTestServer;
  let monitorId: string;
  let userId: string;
  let other: Json;
  beforeAll(async () => {
    t = await startMonitorServer(engine);
    other = await createSimUser(t, { username: 'ev_other' });
    const watched = await createSimUser(t, { username: 'ev_watched', name: 'Watched' });
    userId = watched.id;
    const m = await t.request('POST', '/api/v1/monitors', {
      body: { username: 'EV_Watched', eventTypes: [...EVENT_TYPES] },
    });
    expect(m.status, JSON.stringify(m.body)).toBe(201);
    expect(m.body).toMatchObject({ username: 'ev_watched', xUserId: userId, isActive: true });
    monitorId = m.body.id;
  });
  afterAll(async () => t?.close());

  it('detects the ten tweet types with the documented rules for combined signals', async () => {
    const parent = await postTweet(t, { author: 'ev_other', text: 'a tweet to answer' });
    const plain = await postTweet(t, { author: 'ev_watched', text: 'just words' });
    const reply = await postTweet(t, { author: 'ev_watched', text: 'an answer', inReplyToId: parent.id });
    const quoteWithMedia = await postTweet(t, {
      author: 'ev_watched',
      text: 'look at this',
      quotedTweetId: parent.id,
      media: [{ type: 'photo' }],
    });
    const repost = await postTweet(t, { author: 'ev_watched', retweetOfId: parent.id });
    const media = await postTweet(t, { author: 'ev_watched', text: 'a video', media: [{ type: 'video' }] });
    const link = await postTweet(t, { author: 'ev_watched', text: 'read https://example.com/post' });
    const poll = await postTweet(t, {
      author: 'ev_watched',
      text: 'pick one',
      poll: { options: ['a', 'b'] },
    });
    const mention = await postTweet(t, { author: 'ev_watched', text: 'hello @ev_other' });
    const replyToMentioned = await postTweet(t, {
      author: 'ev_watched',
      text: '@ev_other thanks',
      inReplyToId: parent.id,
    });
    const hashtag = await postTweet(t, { author: 'ev_watched', text: 'big news #launch' });
    const long = await postTweet(t, { author: 'ev_watched', text: `${'long form words '.repeat(30)}end` });
    const report = await t.check();
    expect(report.accounts.monitors).toBe(1);

    const events = await eventsOf(t, monitorId);
    const byTweet = typesByTweet(events);
    expect(byTweet.get(plain.id)).toEqual(['tweet.new']);
    expect(byTweet.get(reply.id)).toEqual(['tweet.reply']);
    expect(byTweet.get(quoteWithMedia.id)).toEqual(['tweet.media', 'tweet.quote']);
    expect(byTweet.get(repost.id)).toEqual(['tweet.retweet']);
    expect(byTweet.get(media.id)).toEqual(['tweet.media', 'tweet.new']);
    expect(byTweet.get(link.id)).toEqual(['tweet.link', 'tweet.new']);
    expect(byTweet.get(poll.id)).toEqual(['tweet.new', 'tweet.poll']);
    expect(byTweet.get(mention.id)).toEqual(['tweet.mention', 'tweet.new']);
    // Naming the account replied to is part of a reply, not a mention.
    expect(byTweet.get(replyToMentioned.id)).toEqual(['tweet.reply']);
    expect(byTweet.get(hashtag.id)).toEqual(['tweet.hashtag', 'tweet.new']);
    expect(byTweet.get(long.id)).toEqual(['tweet.longform', 'tweet.new']);
    // The other account's tweet is not the watched account's.
    expect(byTweet.has(parent.id)).toBe(false);

    const replyEvent = events.find((e) => e.type === 'tweet.reply' && e.data.id === reply.id);
    expect(replyEvent).toMatchObject({
      monitorType: 'account',
      username: 'ev_watched',
      xEventId: reply.id,
      data: {
        id: reply.id,
        text: 'an answer',
        author: { id: userId, userName: 'ev_watched', name: 'Watched' },
        isReply: true,
        isQuote: false,
        isRetweet: false,
        inReplyToId: parent.id,
        createdAt: reply.createdAt,
      },
    });
    const quoteEvent = events.find((e) => e.type === 'tweet.quote');
    expect(quoteEvent.data).toMatchObject({
      isQuote: true,
      quoted_tweet: {
        id: parent.id,
        text: 'a tweet to answer',
        author: { id: other.id, userName: 'ev_other' },
      },
    });
    expect(events.find((e) => e.type === 'tweet.retweet').data).toMatchObject({ isRetweet: true });
  });

  it('detects the eleven profile changes, one event each, with { field, previous, current, user }', async () => {
    const pinned = await postTweet(t, { author: 'ev_watched', text: 'pin me' });
    await t.check();
    const changes: [string, Record<string, unknown>, string, unknown, unknown][] = [
      [
        'profile.avatar.changed',
        { profilePicture: 'https://img.example/a.png' },
        'profilePicture',
        null,
        null,
      ],
      ['profile.banner.changed', { coverPicture: 'https://img.example/b.png' }, 'coverPicture', null, null],
      ['profile.name.changed', { name: 'Renamed Person' }, 'name', 'Watched', 'Renamed Person'],
      ['profile.bio.changed', { description: 'a new bio' }, 'description', null, 'a new bio'],
      ['profile.location.changed', { location: 'Lisbon' }, 'location', null, 'Lisbon'],
      ['profile.url.changed', { url: 'https://example.org' }, 'url', null, 'https://example.org'],
      [
        'profile.verified.changed',
        { verifiedType: 'business' },
        'verified',
        { verified: false, verifiedType: null },
        { verified: true, verifiedType: 'business' },
      ],
      ['profile.protected.changed', { protected: true }, 'protected', false, true],
      ['profile.pinned_tweet.changed', { pinnedTweetId: pinned.id }, 'pinnedTweetId', null, pinned.id],
      ['profile.username.changed', { username: 'ev_renamed' }, 'username', 'ev_watched', 'ev_renamed'],
    ];
    let username = 'ev_watched';
    for (const [type, patch, field, previous, current] of changes) {
      await patchSimUser(t, username, patch);
      if (typeof patch.username === 'string') username = patch.username;
      const report = await t.check();
      expect(report.accounts.events, type).toBe(1);
      const [event] = (await eventsOf(t, monitorId)).slice(-1);
      expect(event.type).toBe(type);
      expect(event.data).toMatchObject({ userId, username, field, user: { id: userId } });
      if (previous !== null || type === 'profile.bio.changed') expect(event.data.previous).toEqual(previous);
      if (current !== null) expect(event.data.current).toEqual(current);
    }
    // A rename keeps the monitor on the account (by id), under its new name.
    expect((await t.request('GET', `/api/v1/monitors/${monitorId}`)).body.username).toBe('ev_renamed');

    await patchSimUser(t, 'ev_renamed', { suspended: true });
    await t.check();
    const [gone] = (await eventsOf(t, monitorId)).slice(-1);
    expect(gone).toMatchObject({
      type: 'profile.unavailable.changed',
      data: { field: 'unavailable', previous: false, current: true, reason: 'suspended' },
    });
    // The watched account disappeared: the monitor pauses itself, with the reason.
    const paused = await t.request('GET', `/api/v1/monitors/${monitorId}`);
    expect(paused.body).toMatchObject({ isActive: false, pausedReason: 'x_user_not_found' });
    expect(paused.body.pausedAt).toBe(new Date(t.clock.now()).toISOString());
  });

  it('stores exactly the spec 6.3 payload (without deliveryId) with an outbox row per event', async () => {
    const { db } = t.server.services.database;
    const rows = await db.selectFrom('events').selectAll().where('monitor_id', '=', monitorId).execute();
    const seen = new Set<string>();
    for (const row of rows) {
      const payload = JSON.parse(row.payload);
      expect(StoredPayload.safeParse(payload).success, row.payload.slice(0, 300)).toBe(true);
      expect(payload).toMatchObject({ eventType: row.event_type, streamEventId: row.id, schemaVersion: 1 });
      seen.add(payload.eventType);
    }
    expect([...seen].sort()).toEqual([...EVENT_TYPES].sort());
    const outbox = await db.selectFrom('event_outbox').select('event_id').execute();
    expect(new Set(outbox.map((r) => r.event_id))).toEqual(new Set(rows.map((r) => r.id)));
  });
});
