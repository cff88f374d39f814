/**
 * Draws through HTTP (spec 2.7, 4.7, 8.2) on both engines: a giveaway conversation built with `/sim`
 * picks only eligible winners, never the same user twice, and charges exactly what it read; listing,
 * reading, exporting and the 4xx answers.
 */
import { schemas, strictify } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FeatureServer, setBalance, spentOn, startServer } from '../extractions/helpers.js';
import { ENGINES } from '../helpers/server.js';
import { buildGiveaway, type Giveaway } from './conversation.js';

const Created = strictify(schemas.DrawCreatedSchema);

describe.each(ENGINES)('draws (%s)', (engine) => {
  let t: FeatureServer;
  let g: Giveaway;
  beforeAll(async () => {
    t = await startServer(engine);
    g = await buildGiveaway(t, 'gw');
  });
  afterAll(async () => t?.close());

  it('picks only eligible winners, never twice the same user, and charges what it read', async () => {
    const before = await t.server.services.credits.balance(t.accountId);
    const spentBefore = await spentOn(t, 'createDraw');
    const r = await t.request('POST', '/api/v1/draws', {
      body: { tweetUrl: g.tweetUrl, winnerCount: 1, backupCount: 1, uniqueAuthorsOnly: true, ...g.filters },
    });
    expect(r.status).toBe(201);
    expect(Created.parse(r.body)).toBeTruthy();
    expect(r.body.tweetId).toBe(g.tweetId);
    expect(r.body.totalEntries).toBe(g.counts.replies);
    // a (once: unique authors) and g.
    expect(r.body.validEntries).toBe(2);
    const winners = r.body.winners as { position: number; authorUsername: string; isBackup: boolean }[];
    expect(winners.map((w) => w.position)).toEqual([1, 2]);
    expect(winners.map((w) => w.isBackup)).toEqual([false, true]);
    expect(new Set(winners.map((w) => w.authorUsername))).toEqual(new Set(g.eligible));

    const cost = 1 + g.counts.replies + g.counts.reposters + g.counts.followChecks;
    expect(before - (await t.server.services.credits.balance(t.accountId))).toBe(BigInt(cost));
    expect((await spentOn(t, 'createDraw')) - spentBefore).toBe(cost);
  });

  it('without uniqueAuthorsOnly counts every eligible reply but still never draws a user twice', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const r = await t.request('POST', '/api/v1/draws', {
        body: { tweetUrl: g.tweetUrl, winnerCount: 5, ...g.filters },
      });
      expect(r.status).toBe(201);
      expect(r.body.validEntries).toBe(3);
      const names = (r.body.winners as { authorUsername: string }[]).map((w) => w.authorUsername);
      expect(names).toHaveLength(2);
      expect(new Set(names).size).toBe(2);
      for (const n of names) {
        expect(g.eligible).toContain(n);
        seen.add(n);
      }
    }
    expect(seen).toEqual(new Set(g.eligible));
  });

  it('stores the draw: get, list newest first with style-A paging, and the entries with their verdicts', async () => {
    // The giveaway tweet's engagement when the draw runs (9 replies were inspected).
    const atDraw = (await t.request('GET', `/api/v1/x/tweets/${g.tweetId}`)).body.tweet;
    const created = await t.request('POST', '/api/v1/draws', {
      body: { tweetUrl: g.tweetUrl, winnerCount: 2, uniqueAuthorsOnly: true, ...g.filters },
    });
    const got = await t.request('GET', `/api/v1/draws/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body.draw).toMatchObject({
      id: created.body.id,
      tweetId: g.tweetId,
      tweetUrl: g.tweetUrl,
      status: 'completed',
      totalEntries: 9,
      validEntries: 2,
      tweetAuthorUsername: 'gw_host',
    });
    const asDrawn = {
      tweetLikeCount: atDraw.likeCount ?? 0,
      tweetRetweetCount: atDraw.retweetCount ?? 0,
      tweetReplyCount: atDraw.replyCount ?? 0,
      tweetQuoteCount: atDraw.quoteCount ?? 0,
    };
    expect(got.body.draw.tweetReplyCount).toBeGreaterThanOrEqual(9);
    expect(got.body.draw).toMatchObject(asDrawn);
    expect(got.body.winners).toEqual(created.body.winners);
    // The counts are the draw's, stored with it: a like since changes the tweet, not the draw.
    const liked = await t.request('POST', '/sim/users/gw_b/likes', { body: { tweetId: g.tweetId } });
    expect(liked.status).toBeLessThan(300);
    const now = (await t.request('GET', `/api/v1/x/tweets/${g.tweetId}`)).body.tweet;
    expect(now.likeCount ?? 0).toBe(asDrawn.tweetLikeCount + 1);
    const again = await t.request('GET', `/api/v1/draws/${created.body.id}`);
    expect(again.body.draw).toMatchObject(asDrawn);

    const all = await t.request('GET', '/api/v1/draws?limit=100');
    expect(all.body.hasMore).toBe(false);
    expect(all.body.nextCursor).toBeUndefined();
    expect(all.body.draws[0].id).toBe(created.body.id);
    const ids: string[] = [];
    let after: string | undefined;
    do {
      const page = await t.request('GET', `/api/v1/draws?limit=3${after ? `&after=${after}` : ''}`);
      expect(page.status).toBe(200);
      ids.push(...page.body.draws.map((d: { id: string }) => d.id));
      after = page.body.nextCursor;
      expect(page.body.hasMore).toBe(after !== undefined);
    } while (after);
    expect(ids).toEqual(all.body.draws.map((d: { id: string }) => d.id));
    expect(ids.length).toBeGreaterThanOrEqual(10);
    // The reference's `cursor` works as an alias.
    const first = await t.request('GET', '/api/v1/draws?limit=3');
    const viaCursor = await t.request('GET', `/api/v1/draws?limit=3&cursor=${first.body.nextCursor}`);
    expect(viaCursor.body.draws[0].id).toBe(ids[3]);

    const csv = await t.request('GET', `/api/v1/draws/${created.body.id}/export?format=json&type=entries`);
    expect(csv.status).toBe(200);
    const entries = csv.body as { authorUsername: string; valid: boolean; reason?: string }[];
    const reasons = Object.fromEntries(entries.map((e) => [`${e.authorUsername}:${e.valid}`, e.reason]));
    expect(reasons).toMatchObject({
      'gw_b:false': 'missing_hashtag',
      'gw_c:false': 'language',
      'gw_d:false': 'account_age',
      'gw_e:false': 'not_retweeted',
      'gw_f:false': 'not_following',
      'gw_host:false': 'giveaway_author',
      'gw_a:false': 'duplicate_author',
    });
    expect(
      entries
        .filter((e) => e.valid)
        .map((e) => e.authorUsername)
        .sort(),
    ).toEqual(g.eligible);
  });

  it('caps the entries inspected by the credits left, and answers 402 with nothing stored at zero', async () => {
    await setBalance(t, 5n);
    const r = await t.request('POST', '/api/v1/draws', { body: { tweetUrl: g.tweetUrl } });
    expect(r.status).toBe(201);
    // 1 for the source lookup, then 4 replies.
    expect(r.body.totalEntries).toBe(4);
    expect(await t.server.services.credits.balance(t.accountId)).toBe(0n);
    const listed = (await t.request('GET', '/api/v1/draws?limit=100')).body.draws.length;
    const broke = await t.request('POST', '/api/v1/draws', { body: { tweetUrl: g.tweetUrl } });
    expect(broke.status).toBe(402);
    expect(broke.body.error).toBe('insufficient_credits');
    expect((await t.request('GET', '/api/v1/draws?limit=100')).body.draws).toHaveLength(listed);
    await setBalance(t, 1_000_000n);
  });

  it('answers the 4xx of the contract', async () => {
    const post = (body: unknown, key?: string | null) =>
      t.request('POST', '/api/v1/draws', { body, ...(key !== undefined && { key }) });
    expect((await post({ tweetUrl: 'https://example.com/jack/status/1' })).body.error).toBe(
      'invalid_tweet_url',
    );
    expect((await post({ tweetUrl: 'not a url' })).status).toBe(400);
    expect((await post({})).body.error).toBe('invalid_input');
    expect((await post({ tweetUrl: g.tweetUrl, winnerCount: 0 })).body.error).toBe('invalid_input');
    expect((await post({ tweetUrl: g.tweetUrl, requiredHashtags: ['win'] })).body.error).toBe(
      'invalid_input',
    );
    const missing = await post({ tweetUrl: 'https://twitter.com/nobody/status/123456789' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('tweet_not_found');
    const noSponsor = await post({ tweetUrl: g.tweetUrl, mustFollowUsername: 'nosuchuser_zz' });
    expect(noSponsor.status).toBe(404);
    expect(noSponsor.body.error).toBe('user_not_found');
    expect((await post({ tweetUrl: g.tweetUrl }, null)).status).toBe(401);

    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await t.request('GET', `/api/v1/draws/${unknown}`)).body.error).toBe('not_found');
    expect((await t.request('GET', `/api/v1/draws/${unknown}/export?format=csv`)).status).toBe(404);
    const some = (await t.request('GET', '/api/v1/draws?limit=1')).body.draws[0].id;
    const bad = await t.request('GET', `/api/v1/draws/${some}/export?format=docx`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_format');
    expect((await t.request('GET', `/api/v1/draws/${some}/export`)).body.error).toBe('invalid_format');
    expect((await t.request('GET', `/api/v1/draws/${some}/export?format=csv&type=all`)).body.error).toBe(
      'invalid_input',
    );
    expect((await t.request('GET', '/api/v1/draws?limit=101')).body.error).toBe('invalid_input');
    expect((await t.request('GET', '/api/v1/draws?after=bogus')).body.error).toBe('invalid_input');
  });
});
