import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';
import { otherAccount } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are JSON checked field by field by the assertions
type Json = any;

describe.each(ENGINES)('drafts (%s)', (engine) => {
  let t: TestServer;
  const made: Json[] = [];

  beforeAll(async () => {
    t = await startTestServer(engine);
  });
  afterAll(() => t.close());

  it('creates drafts (201) with their fields', async () => {
    for (const [i, text] of ['First draft', 'Second draft', 'Third draft'].entries()) {
      const body = i === 1 ? { text, topic: 'releases', goal: 'engagement' } : { text };
      const r = await t.request('POST', '/api/v1/drafts', { body });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.text).toBe(text);
      expect(r.body.createdAt).toBe(new Date(t.clock.now()).toISOString());
      made.push(r.body);
      t.clock.advance(1_000);
    }
    expect(made[1].topic).toBe('releases');
    expect(made[1].goal).toBe('engagement');
    expect(made[0].topic).toBeUndefined();
  });

  it('lists newest first in style-A pages (after, afterCursor alias, limit)', async () => {
    const first = await t.request('GET', '/api/v1/drafts?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.drafts.map((d: Json) => d.text)).toEqual(['Third draft', 'Second draft']);
    expect(first.body.hasMore).toBe(true);
    const second = await t.request('GET', `/api/v1/drafts?limit=2&after=${first.body.nextCursor}`);
    expect(second.body.drafts.map((d: Json) => d.text)).toEqual(['First draft']);
    expect(second.body.hasMore).toBe(false);
    expect(second.body.nextCursor).toBeUndefined();
    const alias = await t.request('GET', `/api/v1/drafts?limit=2&afterCursor=${first.body.nextCursor}`);
    expect(alias.body.drafts).toEqual(second.body.drafts);
    const all = await t.request('GET', '/api/v1/drafts');
    expect(all.body.drafts).toHaveLength(3);
    expect(all.body.hasMore).toBe(false);
  });

  it('refuses bad input with 400 invalid_input', async () => {
    const bad: [string, string, unknown?][] = [
      ['POST', '/api/v1/drafts', { text: '' }],
      ['POST', '/api/v1/drafts', { text: 'x', goal: 'fame' }],
      ['POST', '/api/v1/drafts', {}],
      ['GET', '/api/v1/drafts?limit=0'],
      ['GET', '/api/v1/drafts?limit=101'],
      ['GET', '/api/v1/drafts?after=not-a-cursor'],
    ];
    for (const [method, url, body] of bad) {
      const r = await t.request(method as 'GET', url, body === undefined ? {} : { body });
      expect([r.status, r.body.error], url).toEqual([400, 'invalid_input']);
    }
  });

  it('gets and deletes (204) a draft, 404 draft_not_found after, and for another account', async () => {
    const id = made[0].id;
    const got = await t.request('GET', `/api/v1/drafts/${id}`);
    expect(got.body).toEqual(made[0]);
    const other = await otherAccount(t);
    const hidden = await t.request('GET', `/api/v1/drafts/${id}`, { key: other.key });
    expect([hidden.status, hidden.body.error]).toEqual([404, 'draft_not_found']);
    const notTheirs = await t.request('DELETE', `/api/v1/drafts/${id}`, { key: other.key });
    expect(notTheirs.status).toBe(404);
    const empty = await t.request('GET', '/api/v1/drafts', { key: other.key });
    expect(empty.body).toEqual({ drafts: [], hasMore: false });

    const del = await t.request('DELETE', `/api/v1/drafts/${id}`);
    expect(del.status).toBe(204);
    const gone = await t.request('GET', `/api/v1/drafts/${id}`);
    expect([gone.status, gone.body.error]).toEqual([404, 'draft_not_found']);
    const again = await t.request('DELETE', `/api/v1/drafts/${id}`);
    expect([again.status, again.body.error]).toEqual([404, 'draft_not_found']);
    const unauth = await t.request('GET', '/api/v1/drafts', { key: null });
    expect(unauth.status).toBe(401);
  });
});
