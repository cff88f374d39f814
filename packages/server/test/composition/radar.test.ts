import { schemas } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRadarItems, RADAR_ITEMS_PER_SOURCE } from '../../src/features/composition/radar/seed.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are JSON checked field by field by the assertions
type Json = any;

const HOUR = 3_600_000;

describe.each(ENGINES)('radar (%s)', (engine) => {
  let t: TestServer;
  let start: number;

  beforeAll(async () => {
    t = await startTestServer(engine);
    start = t.clock.now();
  });
  afterAll(() => t.close());

  /** Every item of a query, page by page. */
  async function all(query: string, limit = 40): Promise<Json[]> {
    const out: Json[] = [];
    let after = '';
    for (let page = 0; page < 50; page++) {
      const r = await t.request('GET', `/api/v1/radar?${query}&limit=${limit}${after && `&after=${after}`}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      out.push(...r.body.items);
      if (!r.body.hasMore) {
        expect(r.body.nextCursor).toBeUndefined();
        return out;
      }
      after = r.body.nextCursor;
    }
    throw new Error('too many pages');
  }

  it('serves the seeded, deterministic items of the last 72 hours, strongest first, paged', async () => {
    const items = await all('hours=72');
    const expected = generateRadarItems({ size: 'tiny', seed: 42, now: start });
    expect(items).toHaveLength(RADAR_ITEMS_PER_SOURCE.tiny * schemas.RADAR_SOURCES.length);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    expect(items.map((i) => i.id).sort()).toEqual(expected.map((e) => e.id).sort());
    const byId = new Map(expected.map((e) => [e.id, e]));
    for (const item of items) {
      expect(item.title).toBe(byId.get(item.id)?.title);
      expect(Object.keys(item.metadata).length).toBeLessThanOrEqual(15);
    }
    for (let i = 1; i < items.length; i++) expect(items[i].score).toBeLessThanOrEqual(items[i - 1].score);
  });

  it('keeps the default 6-hour window and filters by source, category and region', async () => {
    const recent = await all('');
    expect(recent.length).toBeGreaterThan(0);
    for (const i of recent) expect(Date.parse(i.publishedAt)).toBeGreaterThanOrEqual(start - 6 * HOUR);
    const wide = await all('hours=72');
    expect(recent.length).toBeLessThan(wide.length);

    const hn = await all('hours=72&source=hacker_news');
    expect(hn).toHaveLength(RADAR_ITEMS_PER_SOURCE.tiny);
    expect(hn.every((i) => i.source === 'hacker_news')).toBe(true);
    const dev = await all('hours=72&category=dev');
    expect(dev.length).toBeGreaterThan(0);
    expect(dev.every((i) => i.category === 'dev')).toBe(true);
    const us = await all('hours=72&region=US');
    expect(us.every((i) => i.region === 'us')).toBe(true);
    expect(us.length).toBe(wide.filter((i) => i.region === 'us').length);
  });

  it('names each item at its source (sourceId), its language and when it was recorded', async () => {
    const items = await all('hours=72');
    for (const item of items) {
      expect(item.language).toBe('en');
      expect(item.createdAt).toBe(item.publishedAt);
      expect(item.sourceId.length).toBeGreaterThan(0);
      const url = new URL(item.url);
      if (item.source === 'hacker_news') expect(item.sourceId).toBe(url.searchParams.get('id'));
      else if (item.source === 'google_trends') expect(item.sourceId).toBe(url.searchParams.get('q'));
      else expect(url.pathname.endsWith(`/${encodeURIComponent(item.sourceId)}`)).toBe(true);
    }
    // Items with their own page at the source are told apart by it.
    for (const source of ['hacker_news', 'github', 'reddit', 'polymarket', 'trustmrr']) {
      const of = items.filter((i) => i.source === source);
      expect(new Set(of.map((i) => i.sourceId)).size, source).toBe(of.length);
    }
  });

  it('gives revenue items the 15 metadata fields of spec 2.15, required ones always', async () => {
    const items = await all('hours=72&source=trustmrr');
    const strict = schemas.RadarRevenueMetadataSchema.strict();
    for (const item of items) {
      expect(strict.safeParse(item.metadata).success, JSON.stringify(item.metadata)).toBe(true);
      if (item.metadata.onSale) expect(item.metadata.askingPrice).toBeGreaterThan(0);
    }
  });

  it('refuses bad parameters with 400 invalid_input', async () => {
    for (const q of [
      'hours=0',
      'hours=73',
      'source=myspace',
      'category=sports',
      'region=mars',
      'after=zzz',
      'limit=101',
    ]) {
      const r = await t.request('GET', `/api/v1/radar?${q}`);
      expect([r.status, r.body.error], q).toEqual([400, 'invalid_input']);
    }
  });

  it('ages out as time passes', async () => {
    t.clock.advance(73 * HOUR);
    const r = await t.request('GET', '/api/v1/radar?hours=72');
    expect(r.body).toEqual({ items: [], hasMore: false });
  });
});
