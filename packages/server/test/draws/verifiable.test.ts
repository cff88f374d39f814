/**
 * Verifiable draws end to end: a draw run on the simulated network shows its seed commitment, the seed and
 * the hashes of its entries and request; `verifyDraw` (`@xsvc/sdk/draws`) re-runs it from the draw record
 * and the JSON entries export and confirms it, and refutes a record whose winners were changed in the
 * database afterwards. Both engines.
 */
import { createHash } from 'node:crypto';
import { committedSeed, drawPicks, verifyDraw } from '@xsvc/sdk/draws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FeatureServer, startServer } from '../extractions/helpers.js';
import { ENGINES } from '../helpers/server.js';
import { buildGiveaway, type Giveaway } from './conversation.js';

describe.each(ENGINES)('verifiable draws (%s)', (engine) => {
  let t: FeatureServer;
  let g: Giveaway;
  beforeAll(async () => {
    t = await startServer(engine);
    g = await buildGiveaway(t, 'vf');
  });
  afterAll(async () => t?.close());

  const getJson = async (url: string) => {
    const r = await t.server.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });
    expect(r.statusCode, url).toBe(200);
    return JSON.parse(r.body);
  };

  it('publishes the seed hash, reveals the seed, and re-runs to the same winners from the export', async () => {
    const body = { tweetUrl: g.tweetUrl, winnerCount: 2, backupCount: 1, ...g.filters };
    const created = await t.request('POST', '/api/v1/draws', { body });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const draw = await getJson(`/api/v1/draws/${id}`);
    const v = draw.draw.verification;
    expect(v).toMatchObject({ procedure: 'xsvc-draw-v1', filters: { ...body } });
    expect(v.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(v.seedHash).toBe(createHash('sha256').update(Buffer.from(v.seed, 'hex')).digest('hex'));
    expect(Date.parse(v.seedCommittedAt)).toBeLessThanOrEqual(Date.parse(draw.draw.drawnAt));
    const entries = await getJson(`/api/v1/draws/${id}/export?format=json&type=entries`);
    expect(entries).toHaveLength(g.counts.replies);
    const result = await verifyDraw(draw, entries);
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.expected).toEqual(created.body.winners);
  });

  it('gives each draw its own seed', async () => {
    const body = { tweetUrl: g.tweetUrl, winnerCount: 1 };
    const a = await t.request('POST', '/api/v1/draws', { body });
    const b = await t.request('POST', '/api/v1/draws', { body });
    const [da, db] = await Promise.all([
      getJson(`/api/v1/draws/${a.body.id}`),
      getJson(`/api/v1/draws/${b.body.id}`),
    ]);
    expect(da.draw.verification.seedHash).not.toBe(db.draw.verification.seedHash);
    // The same replies: the same entry list, drawn with another seed.
    expect(da.draw.verification.entriesHash).toBe(db.draw.verification.entriesHash);
  });

  it('refutes a draw whose winner was changed after it was drawn', async () => {
    const created = await t.request('POST', '/api/v1/draws', {
      body: { tweetUrl: g.tweetUrl, winnerCount: 1 },
    });
    const id = created.body.id as string;
    const db = t.server.services.database.db;
    const entries = await db
      .selectFrom('draw_entries')
      .selectAll()
      .where('draw_id', '=', id)
      .where('valid', '=', 1)
      .orderBy('position')
      .execute();
    const winner = entries.find((e) => e.winner_position !== null);
    const other = entries.find((e) => e.author_id !== winner?.author_id);
    expect(winner && other).toBeTruthy();
    // The operator moves the win to someone else, in the entries and thus in the record.
    await db
      .updateTable('draw_entries')
      .set({ winner_position: null, is_backup: 0 })
      .where('draw_id', '=', id)
      .execute();
    await db
      .updateTable('draw_entries')
      .set({ winner_position: 1, is_backup: 0 })
      .where('draw_id', '=', id)
      .where('position', '=', other?.position ?? 0)
      .execute();
    const result = await verifyDraw(
      await getJson(`/api/v1/draws/${id}`),
      await getJson(`/api/v1/draws/${id}/export?format=json&type=entries`),
    );
    expect(result.ok).toBe(false);
    expect(result.checks.find((c) => c.name === 'winners')?.ok).toBe(false);
    expect(result.expected[0]?.tweetId).toBe(winner?.tweet_id);
  });
  describe('committed by the organiser (xsvc-draw-v2)', () => {
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');

    it('fixes and shows the seed hash first; the draw mixes in the entropy and verifies against it', async () => {
      const entropy = 'the organiser chose this before the giveaway: 7f3a';
      const made = await t.request('POST', '/api/v1/draws/commitments', {
        body: { entropyHash: sha(entropy) },
      });
      expect(made.status).toBe(201);
      expect(made.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        seedHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        entropyHash: sha(entropy),
        committedAt: new Date(t.clock.now()).toISOString(),
      });
      // No seed is shown before the draw; the stored one hashes to what was shown.
      expect(JSON.stringify(made.body)).not.toMatch(/"seed"/);
      t.clock.advance(60_000);
      const body = { tweetUrl: g.tweetUrl, winnerCount: 2, backupCount: 1, ...g.filters };
      const created = await t.request('POST', '/api/v1/draws', {
        body: { ...body, commitmentId: made.body.id, organiserEntropy: entropy },
      });
      expect(created.status).toBe(201);
      const draw = await getJson(`/api/v1/draws/${created.body.id}`);
      const v = draw.draw.verification;
      expect(v).toMatchObject({
        procedure: 'xsvc-draw-v2',
        seedHash: made.body.seedHash,
        seedCommittedAt: made.body.committedAt,
        commitmentId: made.body.id,
        organiserEntropy: entropy,
        organiserEntropyHash: sha(entropy),
        // The commitment fields are not filters.
        filters: body,
      });
      expect(createHash('sha256').update(Buffer.from(v.seed, 'hex')).digest('hex')).toBe(made.body.seedHash);
      const entries = await getJson(`/api/v1/draws/${created.body.id}/export?format=json&type=entries`);
      const published = { id: made.body.id, seedHash: made.body.seedHash, entropyHash: sha(entropy) };
      const result = await verifyDraw(draw, entries, published);
      expect(result.checks.filter((c) => !c.ok)).toEqual([]);
      expect(result.checks.map((c) => c.name)).toEqual([
        'published',
        'seed',
        'entropy',
        'entries',
        'filters',
        'counts',
        'winners',
        'export',
      ]);
      expect(result.expected).toEqual(created.body.winners);
      // The winners are those of the mixed seed, not of the server seed alone.
      const eligible: { authorId: string; tweetId: string }[] = entries.filter(
        (e: { valid: boolean }) => e.valid,
      );
      const mixed = await drawPicks(await committedSeed(v.seed, entropy), eligible, 3);
      expect(mixed.map((e) => e.tweetId)).toEqual(
        created.body.winners.map((w: { tweetId: string }) => w.tweetId),
      );
      // Against another published commitment, or with other entropy shown, it is refuted.
      const other = await verifyDraw(draw, entries, { seedHash: sha('another') });
      expect(other.ok).toBe(false);
      expect(other.checks.find((c) => c.name === 'published')?.ok).toBe(false);
      const swapped = { ...draw, draw: { ...draw.draw, verification: { ...v, organiserEntropy: 'other' } } };
      const refuted = await verifyDraw(swapped, entries);
      expect(refuted.checks.find((c) => c.name === 'entropy')?.ok).toBe(false);
      expect(refuted.ok).toBe(false);
    });

    it('takes entropy given only at the draw when none was committed; each commitment serves one draw', async () => {
      const made = await t.request('POST', '/api/v1/draws/commitments', { body: {} });
      expect(made.status).toBe(201);
      expect(made.body.entropyHash).toBeUndefined();
      const body = { tweetUrl: g.tweetUrl, commitmentId: made.body.id, organiserEntropy: 'dice: 4 6 1 3' };
      const created = await t.request('POST', '/api/v1/draws', { body });
      expect(created.status).toBe(201);
      const draw = await getJson(`/api/v1/draws/${created.body.id}`);
      expect(draw.draw.verification.organiserEntropyHash).toBeUndefined();
      const entries = await getJson(`/api/v1/draws/${created.body.id}/export?format=json&type=entries`);
      expect((await verifyDraw(draw, entries, { id: made.body.id })).ok).toBe(true);
      const before = await t.server.services.credits.balance(t.accountId);
      const again = await t.request('POST', '/api/v1/draws', { body });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ error: 'invalid_input' });
      expect(again.body.message).toContain(`was used by draw ${created.body.id}`);
      expect(await t.server.services.credits.balance(t.accountId)).toBe(before);
    });

    it('refuses a wrong entropy, half a commitment, and a commitment of another account with 400', async () => {
      const made = await t.request('POST', '/api/v1/draws/commitments', {
        body: { entropyHash: sha('right') },
      });
      const run = (extra: Record<string, unknown>) =>
        t.request('POST', '/api/v1/draws', { body: { tweetUrl: g.tweetUrl, ...extra } });
      const wrong = await run({ commitmentId: made.body.id, organiserEntropy: 'wrong' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toMatch(/^organiserEntropy: does not hash/);
      expect((await run({ commitmentId: made.body.id })).body.message).toMatch(/^organiserEntropy: /);
      expect((await run({ organiserEntropy: 'right' })).body.message).toMatch(/^commitmentId: /);
      const unknown = await run({
        commitmentId: '0192f3c4-0000-7000-8000-000000000001',
        organiserEntropy: 'x',
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toContain('no draw commitment');
      const bad = await t.request('POST', '/api/v1/draws/commitments', { body: { entropyHash: 'ABC' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'invalid_input' });
      // Still open: the right entropy uses it.
      expect((await run({ commitmentId: made.body.id, organiserEntropy: 'right' })).status).toBe(201);
    });
  });
});
