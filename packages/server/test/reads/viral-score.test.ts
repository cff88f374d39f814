import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, engagement, score, VIRAL_RULES, verdict } from '../../src/core/content/viral-rules.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';
import { type Network, network, setBalance } from './fixtures.js';

describe('viral-score rules', () => {
  it('is deterministic and gives hook and clarity half of the score', () => {
    const text = 'How we cut our build time by 80%: a short thread 🧵';
    expect(answer(text)).toEqual(answer(text));
    const best = score({
      hook: 2,
      clarity: 2,
      informative: 0,
      funny: 0,
      ragebait: 1,
      ai_written: 1,
      spam: 1,
      reaction: 'ignore',
    });
    expect(best).toEqual({ score: 15, stops: ['spam', 'ragebait', 'generic_copy'] });
    const clean = {
      informative: 0,
      funny: 0,
      ragebait: 0,
      ai_written: 0,
      spam: 0,
      reaction: 'ignore',
    } as const;
    expect(
      score({ ...clean, hook: 2, clarity: 2 }).score - score({ ...clean, hook: 0, clarity: 0 }).score,
    ).toBe(50);
    const top = score({
      hook: 2,
      clarity: 2,
      informative: 2,
      funny: 2,
      ragebait: 0,
      ai_written: 0,
      spam: 0,
      reaction: 'share',
    });
    expect(top).toEqual({ score: 100, stops: [] });
  });

  it('bands verdicts: send_it 70+, edit_first 40-69, sleep_on_it below 40', () => {
    expect([100, 70, 69, 40, 39, 0].map(verdict)).toEqual([
      'send_it',
      'send_it',
      'edit_first',
      'edit_first',
      'sleep_on_it',
      'sleep_on_it',
    ]);
  });

  it('caps spam, ragebait and generic machine copy with hard stops', () => {
    const spam = answer(
      'Buy followers now!!! Cheap and fast, DM for promo https://a.example https://b.example',
    );
    expect(spam.spam).toBeGreaterThanOrEqual(0.5);
    expect(score(spam)).toMatchObject({ stops: expect.arrayContaining(['spam']) });
    expect(score(spam).score).toBeLessThanOrEqual(15);
    const rage = answer('These IDIOTS are DISGUSTING and PATHETIC, the WORST shame!!!');
    expect(rage.reaction).toBe('argue');
    expect(score(rage).stops).toContain('ragebait');
    const machine = answer(
      "In today's fast-paced world, let's delve into how to unlock and elevate a seamless game-changer.",
    );
    expect(machine.ai_written).toBeGreaterThanOrEqual(0.5);
    expect(score(machine).score).toBeLessThanOrEqual(55);
    const good = answer(
      'How we cut our build time by 80%: a short thread 🧵\nWe measured every step because data beats guesses.',
    );
    expect(score(good).stops).toEqual([]);
    expect(verdict(score(good).score)).toBe('send_it');
  });

  it('computes the engagement formulas of spec 4.11', () => {
    const m = { likes: 10, replies: 2, reposts: 3, quotes: 1, views: 1_000, followers: 500 };
    // weighted = 0.5*10 + 5*2 + 3 + 5*1 = 23; log10(1 + 23 / 500 * 1000) = log10(47)
    expect(engagement(m)).toEqual({
      algorithmScore: 23,
      algorithmBasis: 'views',
      actualEngagementRate: 1.6721,
    });
    expect(engagement({ ...m, views: undefined })).toMatchObject({
      algorithmScore: 46,
      algorithmBasis: 'followers',
    });
    expect(engagement({ ...m, views: 0, followers: 0 })).toEqual({
      algorithmScore: null,
      algorithmBasis: null,
      actualEngagementRate: null,
    });
  });
});

describe.each(ENGINES)('viral score endpoint (%s)', (engine) => {
  let t: TestServer;
  let n: Network;
  beforeAll(async () => {
    t = await startTestServer(engine);
    n = await network(t);
    await setBalance(t, n.ownerId, 1_000_000);
  });
  afterAll(async () => t?.close());
  const post = async (body: unknown) => {
    const r = await t.request('POST', '/api/v1/x/analysis/viral-score', { body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  it('scores drafts as text:1, text:2 with answers, verdicts and summary', async () => {
    const body = await post({
      texts: ['How we cut our build time by 80%: a short thread 🧵', 'Buy followers now!!! Cheap'],
    });
    expect(body.results.map((r: { tweet: { id: string } }) => r.tweet.id)).toEqual(['text:1', 'text:2']);
    const [first, second] = body.results;
    expect(first.analysis).toMatchObject({ status: 'completed', contextBytes: expect.any(Number) });
    expect(first.analysis.answers).toHaveLength(8);
    expect(Object.keys(first.answers).sort()).toEqual([
      'ai_written',
      'clarity',
      'funny',
      'hook',
      'informative',
      'ragebait',
      'reaction',
      'spam',
    ]);
    expect(first.viral).toEqual({ stops: [], weights: VIRAL_RULES, algorithmBasis: null });
    expect(first.viralActualEngagementRate).toBeNull();
    expect(second.viral.stops).toContain('spam');
    expect(second.viralVerdict).toBe('sleep_on_it');
    expect(body.analysisSummary).toMatchObject({
      schemaVersion: 1,
      rows: { analyzed: 2, failed: 0, skipped: 0 },
      targets: { source: 'texts', requested: 2 },
      viral: { calibration: { scored: 2 } },
    });
    expect(body).toMatchObject({ unanalyzed: [], has_next_page: false, next_cursor: '' });
  });

  it('scores published posts with engagement, domains and cashtags', async () => {
    const body = await post({ tweetIds: [`https://x.com/jack/status/${n.photosTweet}`, n.photosTweet] });
    expect(body.results).toHaveLength(1);
    const row = body.results[0];
    expect(row.tweet.id).toBe(n.photosTweet);
    expect(row.viral.algorithmBasis).toBe('views');
    expect(row.viralAlgorithmScore).toEqual(expect.any(Number));
    const btc = await t.server.services.database.db
      .selectFrom('sim_tweets')
      .select('id')
      .where('text', 'like', 'bitcoin is the native currency%')
      .executeTakeFirstOrThrow();
    expect((await post({ tweetIds: [btc.id] })).results[0].cashtags).toEqual(['$BTC']);
  });

  it('compares with a baseline: unchanged, changed, new_to_baseline, first_run', async () => {
    const first = await post({ texts: ['Shipping dark mode today', 'Why our tests got faster'] });
    const tampered = structuredClone(first.results);
    tampered[1].answers.hook = 0;
    tampered[1].answers.reaction = 'argue';
    const again = await post({
      texts: ['Shipping dark mode today', 'Why our tests got faster', 'A third draft'],
      baseline: tampered,
    });
    expect(again.results.map((r: { monitor: { status: string } }) => r.monitor.status)).toEqual([
      'unchanged',
      'changed',
      'new_to_baseline',
    ]);
    expect(again.results[1].monitor.changes.map((c: { questionId: string }) => c.questionId)).toContain(
      'reaction',
    );
    expect(again.analysisSummary.monitor).toEqual({ unchanged: 1, changed: 1, new_to_baseline: 1 });
    const fresh = await post({ texts: ['x y z'], baseline: [] });
    expect(fresh.results[0].monitor).toEqual({ status: 'first_run' });
  });

  it('searches posts and pages with next_cursor', async () => {
    const page1 = await post({ username: 'https://x.com/xsvc_demo', limit: 2, queryType: 'Latest' });
    expect(page1.results).toHaveLength(2);
    expect(page1.has_next_page).toBe(true);
    expect(page1.analysisSummary.viral.accounts[0]).toMatchObject({ username: 'xsvc_demo', posts: 2 });
    const page2 = await post({
      username: 'xsvc_demo',
      limit: 2,
      queryType: 'Latest',
      cursor: page1.next_cursor,
    });
    const ids = (b: { results: { tweet: { id: string } }[] }) => b.results.map((r) => r.tweet.id);
    expect(ids(page2).some((id: string) => ids(page1).includes(id))).toBe(false);
    const replies = await post({ repliesTo: n.giveawayTweet, limit: 3 });
    expect(
      replies.results.every(
        (r: { tweet: { inReplyToId: string } }) => r.tweet.inReplyToId === n.giveawayTweet,
      ),
    ).toBe(true);
    const window = await post({ query: 'giveaway', sinceTime: 0, untilTime: '2100-01-01T00:00:00Z' });
    expect(window.analysisSummary.targets).toMatchObject({ source: 'search', query: 'giveaway' });
  });
});
