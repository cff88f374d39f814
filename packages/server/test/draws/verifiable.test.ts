/**
 * Verifiable draws end to end: a draw run on the simulated network shows its seed commitment, the seed and
 * the hashes of its entries and request; `verifyDraw` (`@xsvc/sdk/draws`) re-runs it from the draw record
 * and the JSON entries export and confirms it, and refutes a record whose winners were changed in the
 * database afterwards. Both engines.
 */
import { createHash } from 'node:crypto';
import { verifyDraw } from '@xsvc/sdk/draws';
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
});
