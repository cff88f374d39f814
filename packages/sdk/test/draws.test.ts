/**
 * Verifiable draws (`@xsvc/sdk/draws`): the procedure checked against an independent implementation on
 * node:crypto, and `verifyDraw` confirming an honest draw and refuting each kind of tampering.
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DrawWithWinners } from '../src/contract/schemas/draws.js';
import {
  canonicalJson,
  DRAW_PROCEDURE,
  drawPicks,
  entriesHash,
  filtersHash,
  newSeed,
  SeededIndexes,
  seedHash,
  verifyDraw,
} from '../src/draws/index.js';

const SEED = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

/** The procedure's index stream, written again from its documentation with node:crypto. */
function referenceIndexes(seed: string, sizes: number[]): number[] {
  let k = 0;
  return sizes.map((n) => {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const x = createHmac('sha256', Buffer.from(seed, 'hex')).update(String(k++)).digest().readUInt32BE(0);
      if (x < limit) return x % n;
    }
  });
}

const ENTRIES = [
  { position: 1, tweetId: '101', authorId: 'a', authorUsername: 'ann', valid: true },
  { position: 2, tweetId: '102', authorId: 'b', authorUsername: 'bob', valid: false, reason: 'language' },
  { position: 3, tweetId: '103', authorId: 'c', authorUsername: 'cai', valid: true },
  { position: 4, tweetId: '104', authorId: 'a', authorUsername: 'ann', valid: true },
  { position: 5, tweetId: '105', authorId: 'd', authorUsername: 'دانا', valid: true },
  { position: 6, tweetId: '106', authorId: 'e', authorUsername: '山田', valid: true },
];
const FILTERS = {
  tweetUrl: 'https://x.com/jack/status/20',
  winnerCount: 2,
  backupCount: 1,
  filterLanguage: 'en',
};

/** A draw record as the server would make it from these entries and this seed. */
async function honestDraw(
  seed = SEED,
): Promise<{ draw: DrawWithWinners; entries: Record<string, unknown>[] }> {
  const eligible = ENTRIES.filter((e) => e.valid);
  const picks = await drawPicks(seed, eligible, 3);
  const winners = picks.map((e, i) => ({
    position: i + 1,
    authorUsername: e.authorUsername,
    tweetId: e.tweetId,
    isBackup: i >= 2,
  }));
  const entries = ENTRIES.map((e) => {
    const w = winners.find((x) => x.tweetId === e.tweetId);
    return { ...e, ...(w && { winnerPosition: w.position, isBackup: w.isBackup }) };
  });
  return {
    draw: {
      draw: {
        id: 'd1',
        tweetId: '20',
        tweetUrl: FILTERS.tweetUrl,
        status: 'completed',
        totalEntries: 6,
        validEntries: 5,
        createdAt: '2026-04-29T12:00:00.000Z',
        drawnAt: '2026-04-29T12:00:01.000Z',
        tweetLikeCount: 12,
        tweetRetweetCount: 3,
        tweetReplyCount: 6,
        tweetQuoteCount: 0,
        verification: {
          procedure: DRAW_PROCEDURE,
          seedHash: await seedHash(seed),
          seedCommittedAt: '2026-04-29T12:00:00.000Z',
          seed,
          entriesHash: await entriesHash(ENTRIES),
          filters: FILTERS,
          filtersHash: await filtersHash(FILTERS),
        },
      },
      winners,
    },
    entries,
  };
}

describe('the xsvc-draw-v1 procedure', () => {
  it('draws indexes as HMAC-SHA256(seed, counter) with rejection sampling, as documented', async () => {
    const sizes = [6, 5, 4, 3, 2, 1, 1000, 7, 2 ** 31 + 1, 2 ** 32];
    const ours = await SeededIndexes.of(SEED);
    const got: number[] = [];
    for (const n of sizes) got.push(await ours.below(n));
    expect(got).toEqual(referenceIndexes(SEED, sizes));
    // 2^31 + 1 rejects almost half the numbers: the counters stayed in step through those skips too.
    await expect(ours.below(0)).rejects.toThrow(RangeError);
  });

  it('hashes the seed bytes, the entry list lines and the canonical request', async () => {
    expect(await seedHash(SEED)).toBe(createHash('sha256').update(Buffer.from(SEED, 'hex')).digest('hex'));
    const lines =
      '1\t101\ta\tvalid\n2\t102\tb\tlanguage\n3\t103\tc\tvalid\n4\t104\ta\tvalid\n5\t105\td\tvalid\n6\t106\te\tvalid\n';
    expect(await entriesHash([...ENTRIES].reverse())).toBe(createHash('sha256').update(lines).digest('hex'));
    expect(canonicalJson({ b: [1, { d: 'é', c: null }], a: true, u: undefined })).toBe(
      '{"a":true,"b":[1,{"c":null,"d":"é"}]}',
    );
    expect(await filtersHash(FILTERS)).toBe(
      createHash('sha256').update(canonicalJson(FILTERS)).digest('hex'),
    );
    expect(newSeed()).toMatch(/^[0-9a-f]{64}$/);
    expect(newSeed()).not.toBe(newSeed());
  });

  it('never picks an author twice and stops when the candidates run out', async () => {
    const eligible = ENTRIES.filter((e) => e.valid);
    for (const seed of [SEED, newSeed(), newSeed()]) {
      const picks = await drawPicks(seed, eligible, 10);
      expect(picks).toHaveLength(4);
      expect(new Set(picks.map((p) => p.authorId)).size).toBe(4);
    }
  });

  it('is uniform over the candidates (chi-square over 4,000 single picks)', async () => {
    const counts = new Map<string, number>();
    const eligible = ENTRIES.filter((e) => e.valid).map((e, i) => ({ ...e, authorId: `x${i}` }));
    for (let i = 0; i < 4000; i++) {
      const seed = createHash('sha256').update(`seed ${i}`).digest('hex');
      const [p] = await drawPicks(seed, eligible, 1);
      counts.set(p?.tweetId ?? '', (counts.get(p?.tweetId ?? '') ?? 0) + 1);
    }
    const chi = [...counts.values()].reduce((s, c) => s + (c - 800) ** 2 / 800, 0);
    // 4 degrees of freedom: 18.47 is the 0.999 quantile.
    expect(chi).toBeLessThan(18.47);
  });
});

describe('verifyDraw', () => {
  it('confirms an honest draw, every check passing', async () => {
    const { draw, entries } = await honestDraw();
    const r = await verifyDraw(draw, entries);
    expect(r.checks.filter((c) => !c.ok)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.expected).toEqual(draw.winners);
  });

  it('refutes a seed that is not the committed one', async () => {
    const { draw, entries } = await honestDraw();
    const v = draw.draw.verification as NonNullable<typeof draw.draw.verification>;
    const r = await verifyDraw(
      { ...draw, draw: { ...draw.draw, verification: { ...v, seed: newSeed() } } },
      entries,
    );
    expect(r.ok).toBe(false);
    expect(r.checks.find((c) => c.name === 'seed')?.ok).toBe(false);
  });

  it('refutes winners that do not follow from the seed (a hand-picked winner)', async () => {
    const { draw, entries } = await honestDraw();
    // The one eligible author the seed did not draw takes the first place.
    const won = new Set(draw.winners.map((w) => w.authorUsername));
    const other = ENTRIES.find((e) => e.valid && !won.has(e.authorUsername));
    expect(other).toBeDefined();
    const tampered = draw.winners.map((w, i) =>
      i === 0 ? { ...w, authorUsername: other?.authorUsername ?? '', tweetId: other?.tweetId ?? '' } : w,
    );
    const r = await verifyDraw({ ...draw, winners: tampered }, entries);
    expect(r.ok).toBe(false);
    expect(r.checks.find((c) => c.name === 'winners')?.ok).toBe(false);
  });

  it('refutes an entry list changed after the draw (an entry dropped, a reason changed)', async () => {
    const { draw, entries } = await honestDraw();
    const dropped = await verifyDraw(draw, entries.slice(1));
    expect(dropped.checks.find((c) => c.name === 'entries')?.ok).toBe(false);
    const excluded = entries.map((e) => (e.position === 2 ? { ...e, valid: true, reason: undefined } : e));
    const r = await verifyDraw(draw, excluded);
    expect(r.ok).toBe(false);
    expect(r.checks.find((c) => c.name === 'entries')?.ok).toBe(false);
  });

  it('refutes filters shown differently from what was run', async () => {
    const { draw, entries } = await honestDraw();
    const v = draw.draw.verification as NonNullable<typeof draw.draw.verification>;
    const r = await verifyDraw(
      { ...draw, draw: { ...draw.draw, verification: { ...v, filters: { ...FILTERS, winnerCount: 3 } } } },
      entries,
    );
    expect(r.checks.find((c) => c.name === 'filters')?.ok).toBe(false);
    expect(r.ok).toBe(false);
  });

  it('says when a draw has no commitment, and throws a TypeError on input of the wrong shape', async () => {
    const { draw, entries } = await honestDraw();
    const { verification: _, ...bare } = draw.draw;
    const r = await verifyDraw({ ...draw, draw: bare }, entries);
    expect(r).toMatchObject({ ok: false, checks: [{ name: 'commitment', ok: false }] });
    await expect(verifyDraw(draw, [{ position: 1 }])).rejects.toThrow(TypeError);
    await expect(verifyDraw({} as DrawWithWinners, entries)).rejects.toThrow(TypeError);
  });
});
