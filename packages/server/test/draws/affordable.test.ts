/**
 * Spec 8.2 and 4.7: a draw that cannot afford a single entry is 402 `insufficient_credits` with nothing
 * stored and nothing charged, not an empty draw charged for its source lookup.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FeatureServer, setBalance, startServer } from '../extractions/helpers.js';
import { buildGiveaway, type Giveaway } from './conversation.js';

describe('a draw with no affordable entry', () => {
  let t: FeatureServer;
  let g: Giveaway;
  beforeAll(async () => {
    t = await startServer('sqlite');
    g = await buildGiveaway(t, 'aff');
  });
  afterAll(async () => t?.close());

  const drawCount = async () => (await t.request('GET', '/api/v1/draws?limit=100')).body.draws.length;

  it.each([
    ['the source lookup only', 1n, {}],
    ['no follow check for its one entry', 2n, { mustFollowUsername: 'jack' }],
  ])('is 402 with %s paid for, storing and charging nothing', async (_what, credits, extra) => {
    await setBalance(t, credits);
    const before = await drawCount();
    const r = await t.request('POST', '/api/v1/draws', { body: { tweetUrl: g.tweetUrl, ...extra } });
    expect([r.status, r.body.error]).toEqual([402, 'insufficient_credits']);
    expect(r.body.creditsAvailable).toBe(String(credits));
    expect(await t.server.services.credits.balance(t.accountId)).toBe(credits);
    expect(await drawCount()).toBe(before);
  });

  it('draws from the one entry it can afford', async () => {
    await setBalance(t, 2n);
    const r = await t.request('POST', '/api/v1/draws', { body: { tweetUrl: g.tweetUrl } });
    expect(r.status).toBe(201);
    expect(r.body.totalEntries).toBe(1);
    expect(await t.server.services.credits.balance(t.accountId)).toBe(0n);
  });
});
