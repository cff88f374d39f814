import { describe, expect, it } from 'vitest';
import { TimeIds } from '../../src/core/ids/index.js';
import type { Tweet, UserProfile } from '../../src/core/platform/platform.js';
import { tweetEventTypes } from '../../src/features/monitors/classify.js';
import { RecentKeys } from '../../src/features/monitors/engine/recent-keys.js';
import { shardOf } from '../../src/features/monitors/monitor-rows.js';
import { diffProfile, parseSnapshot, snapshotOf } from '../../src/features/monitors/profile-diff.js';
import { idBefore, idEarlier, isAfter, maxId, minId } from '../../src/features/monitors/watermark.js';
import { snowflake, snowflakeTime } from '../../src/platform/simulated/ids.js';

const base: Tweet = { id: '1', text: 'hi', createdAt: '2026-04-29T12:00:00.000Z' };
const quoted = { id: '2', text: 'q', createdAt: base.createdAt };

describe('tweet classification', () => {
  it.each([
    ['an original', {}, ['tweet.new']],
    ['a reply', { isReply: true, inReplyToId: '9' }, ['tweet.reply']],
    ['a quote', { isQuoteStatus: true, quoted_tweet: quoted }, ['tweet.quote']],
    ['a reply that quotes', { isReply: true, isQuoteStatus: true }, ['tweet.reply', 'tweet.quote']],
    [
      'a quote with media',
      { isQuoteStatus: true, media: [{ type: 'photo', mediaUrl: 'u' }] },
      ['tweet.quote', 'tweet.media'],
    ],
    [
      'a repost of a tweet with media and links',
      { isRetweet: true, media: [{ type: 'photo', mediaUrl: 'u' }], entities: { urls: [{ url: 'u' }] } },
      ['tweet.retweet'],
    ],
    [
      'an original with every content signal',
      {
        text: 'x'.repeat(281),
        media: [{ type: 'video', mediaUrl: 'u' }],
        poll: { options: [{ label: 'a' }, { label: 'b' }] },
        entities: { urls: [{ url: 'u' }], mentions: [{ username: 'jack' }], hashtags: [{ text: 't' }] },
      },
      [
        'tweet.new',
        'tweet.media',
        'tweet.link',
        'tweet.poll',
        'tweet.mention',
        'tweet.hashtag',
        'tweet.longform',
      ],
    ],
    ['a Note Tweet of short text', { isNoteTweet: true }, ['tweet.new', 'tweet.longform']],
    [
      'a reply naming only the account it answers',
      {
        isReply: true,
        inReplyToUserId: '7',
        inReplyToUsername: 'Jack',
        entities: { mentions: [{ username: 'jack' }] },
      },
      ['tweet.reply'],
    ],
    [
      'a reply naming someone else too',
      {
        isReply: true,
        inReplyToUserId: '7',
        entities: {
          mentions: [
            { id: '7', username: 'jack' },
            { id: '8', username: 'jill' },
          ],
        },
      },
      ['tweet.reply', 'tweet.mention'],
    ],
  ] as [string, Partial<Tweet>, string[]][])('%s', (_name, fields, types) => {
    expect(tweetEventTypes({ ...base, ...fields })).toEqual(types);
  });

  it('counts characters, not UTF-16 units, for long form', () => {
    expect(tweetEventTypes({ ...base, text: '😀'.repeat(280) })).toEqual(['tweet.new']);
    expect(tweetEventTypes({ ...base, text: '😀'.repeat(281) })).toEqual(['tweet.new', 'tweet.longform']);
  });
});

describe('profile diff', () => {
  const profile: UserProfile = {
    id: '5',
    username: 'ann',
    name: 'Ann',
    description: 'bio',
    verified: true,
    verifiedType: 'blue',
    pinnedTweetIds: ['77'],
    protected: false,
  };

  it('reports each changed field once, with previous and current values', () => {
    const before = snapshotOf(profile);
    const { changes } = diffProfile(before, {
      ...profile,
      name: 'Annie',
      description: undefined,
      verifiedType: 'business',
      pinnedTweetIds: [],
    });
    expect(changes).toEqual([
      { type: 'profile.name.changed', field: 'name', previous: 'Ann', current: 'Annie' },
      { type: 'profile.bio.changed', field: 'description', previous: 'bio', current: null },
      {
        type: 'profile.verified.changed',
        field: 'verified',
        previous: { verified: true, verifiedType: 'blue' },
        current: { verified: true, verifiedType: 'business' },
      },
      { type: 'profile.pinned_tweet.changed', field: 'pinnedTweetId', previous: '77', current: null },
    ]);
    expect(diffProfile(before, profile).changes).toEqual([]);
  });

  it('compares only availability while the account cannot be seen, keeping the last seen fields', () => {
    const before = snapshotOf(profile);
    const suspended = diffProfile(before, {
      id: '5',
      username: 'ann',
      name: 'Ann',
      unavailable: true,
      unavailableReason: 'suspended',
    });
    expect(suspended.changes.map((c) => c.type)).toEqual(['profile.unavailable.changed']);
    expect(suspended.snapshot).toEqual({ ...before, unavailable: 'suspended' });
    const gone = diffProfile(before, undefined);
    expect(gone.changes).toEqual([
      { type: 'profile.unavailable.changed', field: 'unavailable', previous: false, current: 'not_found' },
    ]);
  });

  it('reads stored snapshots, tolerating fields added later and corrupt JSON', () => {
    const stored = snapshotOf(profile);
    expect(parseSnapshot(JSON.stringify(stored))).toEqual(stored);
    const { pinnedTweetId: _, ...older } = stored;
    expect(parseSnapshot(JSON.stringify(older)).pinnedTweetId).toBeNull();
    expect(parseSnapshot('{oops').name).toBe('');
  });
});

describe('watermarks and ids', () => {
  const t = Date.UTC(2026, 3, 29, 12);

  it('orders decimal ids numerically and turns times into watermarks', () => {
    expect(maxId('99', '100')).toBe('100');
    expect(minId('99', '100')).toBe('99');
    expect(isAfter(snowflake(t, 0), idBefore(t))).toBe(true);
    expect(isAfter(snowflake(t - 1, 4095), idBefore(t))).toBe(false);
    expect(snowflakeTime(idEarlier(snowflake(t, 7), 2_000))).toBe(t - 2_001);
    expect(idEarlier('0', 2_000)).toBe('0');
  });

  it('issues strictly increasing 19-digit ids, also many in one millisecond', () => {
    const ids = new TimeIds();
    const made = Array.from({ length: 5_000 }, () => ids.next(t));
    expect(new Set(made).size).toBe(made.length);
    for (let i = 1; i < made.length; i++)
      expect(isAfter(made[i] as string, made[i - 1] as string)).toBe(true);
    expect(made.every((id) => /^\d{19}$/.test(id))).toBe(true);
  });

  it('spreads monitors over the 64 shards', () => {
    const ids = new TimeIds();
    const counts = new Array<number>(64).fill(0);
    for (let i = 0; i < 6_400; i++) counts[shardOf(ids.next(t + i))]! += 1;
    expect(Math.min(...counts)).toBeGreaterThan(50);
    expect(Math.max(...counts)).toBeLessThan(150);
  });

  it('forgets recent keys after their time to live', () => {
    const keys = new RecentKeys(1_000);
    keys.add('a', 0);
    keys.add('b', 500);
    keys.prune(999);
    expect([keys.has('a'), keys.has('b')]).toEqual([true, true]);
    keys.prune(1_000);
    expect([keys.has('a'), keys.has('b'), keys.size]).toEqual([false, true, 1]);
  });
});
