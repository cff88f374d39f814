import { limits } from '@xsvc/sdk/contract';
import { describe, expect, it } from 'vitest';
import { num } from '../../src/core/db/database.js';
import { rowCount, toRows } from '../../src/platform/simulated/bulk-insert.js';
import {
  FIXED_ACCOUNTS,
  generateNetwork,
  readSeededWith,
  SIZE_PROFILES,
  seedNetwork,
} from '../../src/platform/simulated/index.js';
import { openTestDatabase } from './engines.js';
import { ENGINES, NOW, SEED, useNetwork } from './network.js';

describe('generateNetwork', () => {
  it('is deterministic: the same seed gives the same ids, usernames and texts', () => {
    const a = generateNetwork({ size: 'tiny', seed: SEED, now: NOW });
    const b = generateNetwork({ size: 'tiny', seed: SEED, now: NOW });
    const c = generateNetwork({ size: 'tiny', seed: 'another', now: NOW });
    expect(b.sim_users.map((u) => [u.id, u.username])).toEqual(a.sim_users.map((u) => [u.id, u.username]));
    expect(toRows(b.sim_tweets).map((t) => [t.id, t.text])).toEqual(
      toRows(a.sim_tweets).map((t) => [t.id, t.text]),
    );
    expect(b).toEqual(a);
    expect(toRows(c.sim_tweets).map((t) => t.text)).not.toEqual(toRows(a.sim_tweets).map((t) => t.text));
    // The fixed accounts keep their ids whatever the seed.
    const fixed = (rows: typeof a) =>
      rows.sim_users.filter((u) => FIXED_ACCOUNTS.some((f) => f.username === u.username));
    expect(fixed(c).map((u) => u.id)).toEqual(fixed(a).map((u) => u.id));
  });

  it('builds a network of the promised size and variety', () => {
    const n = generateNetwork({ size: 'tiny', seed: SEED, now: NOW });
    expect(n.sim_users).toHaveLength(SIZE_PROFILES.tiny.users);
    expect(toRows(n.sim_tweets)).toHaveLength(SIZE_PROFILES.tiny.tweets);
    const kinds = new Set(toRows(n.sim_tweets).map((t) => t.kind));
    expect([...kinds].sort()).toEqual(['quote', 'reply', 'retweet', 'tweet']);
    const media = toRows(n.sim_tweets).flatMap((t) =>
      t.media ? (JSON.parse(t.media) as { type: string }[]) : [],
    );
    expect(new Set(media.map((m) => m.type))).toEqual(new Set(['photo', 'video', 'animated_gif']));
    expect(toRows(n.sim_tweets).some((t) => t.poll)).toBe(true);
    expect(
      toRows(n.sim_tweets).some((t) => t.is_note && t.text.length > 280 && t.text.length <= 25_000),
    ).toBe(true);
    expect(toRows(n.sim_tweets).some((t) => t.entities.includes('"urls"'))).toBe(true);
    expect(toRows(n.sim_tweets).some((t) => t.entities.includes('"cashtags"'))).toBe(true);
    expect(toRows(n.sim_tweets).some((t) => t.community_id)).toBe(true);
    expect(toRows(n.sim_tweets).some((t) => t.deleted)).toBe(true);
    expect(new Set(toRows(n.sim_tweets).map((t) => t.lang)).size).toBeGreaterThan(4);
    expect(new Set(n.sim_users.map((u) => u.verified_type))).toEqual(
      new Set([null, 'blue', 'business', 'government']),
    );
    expect(n.sim_users.some((u) => u.protected)).toBe(true);
    expect(n.sim_users.some((u) => u.suspended)).toBe(true);
    const years = new Set(n.sim_users.map((u) => new Date(u.created_at).getUTCFullYear()));
    expect(years.size).toBeGreaterThan(8);
    // Ids follow time: a later tweet has a larger id.
    const sorted = [...toRows(n.sim_tweets)]
      .filter((t) => t.id.length === 19)
      .sort((x, y) => x.created_at - y.created_at);
    for (let i = 1; i < sorted.length; i++)
      expect((sorted[i] as { id: string }).id > (sorted[i - 1] as { id: string }).id).toBe(true);
    // Power law: the most followed account has far more followers than the median one.
    const counts = n.sim_users.map((u) => u.followers_count).sort((x, y) => y - x);
    expect(counts[0]).toBeGreaterThan(10 * (counts[Math.floor(counts.length / 2)] ?? 0) + 10);
    // Trends for each of the 12 regions, 50 each.
    expect(new Set(n.sim_trends.map((t) => t.woeid))).toEqual(new Set(limits.trendWoeids));
    expect(n.sim_trends.filter((t) => t.woeid === 1)).toHaveLength(50);
    expect(n.sim_jobs.some((j) => j.closed) && n.sim_jobs.some((j) => !j.closed)).toBe(true);
    for (const t of [
      'sim_lists',
      'sim_list_members',
      'sim_communities',
      'sim_community_members',
      'sim_articles',
      'sim_spaces',
      'sim_space_participants',
      'sim_dms',
      'sim_notifications',
      'sim_bookmarks',
      'sim_likes',
      'sim_follows',
    ] as const) {
      expect(rowCount(n[t]), t).toBeGreaterThan(0);
    }
  });

  it('keeps counters equal to the rows they count', () => {
    const n = generateNetwork({ size: 'tiny', seed: SEED, now: NOW });
    const live = toRows(n.sim_tweets).filter((t) => !t.deleted);
    const replies = new Map<string, number>();
    for (const t of live)
      if (t.in_reply_to_id) replies.set(t.in_reply_to_id, (replies.get(t.in_reply_to_id) ?? 0) + 1);
    for (const t of toRows(n.sim_tweets)) expect(t.reply_count).toBe(replies.get(t.id) ?? 0);
    const likes = new Map<string, number>();
    for (const id of n.sim_likes.tweet_id) likes.set(id, (likes.get(id) ?? 0) + 1);
    for (const t of toRows(n.sim_tweets)) expect(t.like_count).toBe(likes.get(t.id) ?? 0);
    const followers = new Map<string, number>();
    for (const id of n.sim_follows.followee_id) followers.set(id, (followers.get(id) ?? 0) + 1);
    for (const u of n.sim_users) expect(u.followers_count).toBe(followers.get(u.id) ?? 0);
  });
});

describe.each(ENGINES)('seedNetwork on %s', (engine) => {
  const net = useNetwork(engine);

  it('writes every table and records what it was seeded with', async () => {
    expect(await readSeededWith(net.db.db)).toEqual({ size: 'tiny', seed: SEED, now: NOW });
    const users = await net.db.db
      .selectFrom('sim_users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(num(users.n as number)).toBe(SIZE_PROFILES.tiny.users);
    const expected = generateNetwork({ size: 'tiny', seed: SEED, now: NOW });
    const ids = await net.db.db.selectFrom('sim_tweets').select(['id', 'text']).orderBy('id').execute();
    expect(ids).toEqual(
      toRows(expected.sim_tweets)
        .map((t) => ({ id: t.id, text: t.text }))
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    );
  });

  it('does not reseed a seeded database', async () => {
    const report = await seedNetwork(net.db.db, { size: 'small', seed: 'other', now: NOW });
    expect(report.skipped).toBe(true);
    expect(report.seededWith).toEqual({ size: 'tiny', seed: SEED, now: NOW });
  });

  it('lets one of two concurrent seeders win and the other skip', async () => {
    const fresh = await openTestDatabase(engine);
    try {
      const reports = await Promise.all([
        seedNetwork(fresh.db.db, { size: 'tiny', seed: 'a', now: NOW }),
        seedNetwork(fresh.db.db, { size: 'tiny', seed: 'b', now: NOW }),
      ]);
      expect(reports.map((r) => r.skipped).sort()).toEqual([false, true]);
      expect(reports[0]?.seededWith).toEqual(reports[1]?.seededWith);
      const users = await fresh.db.db.selectFrom('sim_users').select('id').execute();
      expect(users).toHaveLength(SIZE_PROFILES.tiny.users);
    } finally {
      await fresh.close();
    }
  });

  it('keeps the fixed demo accounts', async () => {
    const jack = await net.platform.getUser('jack');
    expect(jack).toMatchObject({ id: '12', username: 'jack', verified: true });
    expect(jack?.followers).toBeGreaterThan(20);
    expect(await net.platform.getUser('xsvc_demo')).toMatchObject({ verifiedType: 'business' });
    expect(await net.platform.getUser('newsroom')).toMatchObject({ verifiedType: 'business' });
    expect(await net.platform.getUser('gov_agency')).toMatchObject({ verifiedType: 'government' });
    expect(await net.platform.getUser('blue_creator')).toMatchObject({
      verifiedType: 'blue',
      isBlueVerified: true,
    });
    expect(await net.platform.getUser('locked_account')).toMatchObject({ protected: true });
    expect(await net.platform.getUser('suspended_acct')).toMatchObject({
      unavailable: true,
      unavailableReason: 'suspended',
    });
    const first = await net.platform.getTweet('20');
    expect(first).toMatchObject({
      tweet: { text: 'just setting up my twttr', author: { username: 'jack' }, isPinned: true },
    });
  });
});
