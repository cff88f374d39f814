import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASK_PER_CLIENT } from '../../src/features/discovery/ask/limits.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('/ask documentation search', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => t?.close());

  const failure = (code: string) => ({
    _meta: { response_type: 'failure', version: '0.55' },
    error: { code, message: expect.any(String) },
  });

  it('answers a question with ranked results from the operations and the guides', async () => {
    const r = await t.request('GET', `/ask?query=${encodeURIComponent('how are webhooks signed')}`, {
      key: null,
    });
    expect(r.status).toBe(200);
    expect(r.body._meta).toEqual({
      response_type: 'answer',
      response_format: 'conversational_search',
      version: '0.55',
    });
    expect(r.body.results.length).toBeGreaterThan(0);
    const urls: string[] = r.body.results.map((x: { url: string }) => x.url);
    // The guide on verifying signed deliveries (docs/guides/verify-webhooks.md) answers it.
    expect(urls.slice(0, 5).some((u) => u.includes('/docs/verify-webhooks.md'))).toBe(true);
    expect(urls.slice(0, 5).some((u) => u.endsWith('/openapi.json#/paths/~1api~1v1~1webhooks/post'))).toBe(
      true,
    );
    const scores = r.body.results.map((x: { score: number }) => x.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);

    const op = await t.request('GET', `/ask?query=${encodeURIComponent('search tweets')}`, { key: null });
    expect(op.body.results.map((x: { operationId?: string }) => x.operationId)).toContain('searchTweets');
    const hit = op.body.results.find((x: { operationId?: string }) => x.operationId === 'searchTweets');
    expect(hit).toMatchObject({ '@type': 'WebAPI', method: 'GET', path: '/api/v1/x/tweets/search' });
    expect(hit.url).toContain('/openapi.json#/paths/');

    const none = await t.request('GET', '/ask?query=zzzzqqq', { key: null });
    expect(none.status).toBe(200);
    expect(none.body.results).toEqual([]);
  });

  it('takes flat and structured POST bodies, as JSON or as a form', async () => {
    const flat = await t.request('POST', '/ask', {
      key: null,
      body: { query: 'page through events', response_format: 'chatgpt_app' },
    });
    expect(flat.status).toBe(200);
    expect(flat.body._meta.response_format).toBe('chatgpt_app');
    expect(flat.body.results.some((x: { url: string }) => x.url.includes('/docs/pagination.md'))).toBe(true);
    const structured = await t.request('POST', '/ask', {
      key: null,
      body: { query: { text: 'rate limits' }, prefer: { mode: 'list' } },
    });
    expect(structured.status).toBe(200);
    expect(structured.body.results[0].url).toContain('/docs/limits.md');
    const form = await t.request('POST', '/ask', {
      key: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'query=deprecation+policy',
    });
    expect(form.status).toBe(200);
    expect(form.body.results[0].url).toContain('/docs/deprecations.md');
  });

  it('streams the answer as server-sent events', async () => {
    const r = await t.request('GET', '/ask?query=webhook+retries&streaming=true', { key: null });
    expect(r.status).toBe(200);
    expect(String(r.headers['content-type'])).toContain('text/event-stream');
    const events = String(r.body)
      .trim()
      .split('\n\n')
      .map((block) => {
        const [event, data] = block.split('\n');
        return { event: event!.replace('event: ', ''), data: JSON.parse(data!.replace('data: ', '')) };
      });
    expect(events[0]).toMatchObject({
      event: 'begin-nlweb-response',
      data: { _meta: { response_type: 'answer' } },
    });
    expect(events.at(-1)).toMatchObject({ event: 'end-nlweb-response', data: { count: events.length - 2 } });
    expect(events.slice(1, -1).every((e) => e.event === 'result' && typeof e.data.url === 'string')).toBe(
      true,
    );
    const post = await t.request('POST', '/ask', {
      key: null,
      body: { query: { text: 'webhooks' }, prefer: { streaming: true } },
    });
    expect(String(post.headers['content-type'])).toContain('text/event-stream');
  });

  it('refuses bad queries with 400 INVALID_QUERY in the /ask failure shape', async () => {
    for (const url of [
      '/ask',
      '/ask?query=',
      `/ask?query=${'a'.repeat(501)}`,
      '/ask?query=%20%20',
      '/ask?query=x&response_format=html',
    ]) {
      const r = await t.request('GET', url, { key: null });
      expect(r.status, url).toBe(400);
      expect(r.body).toEqual(failure('INVALID_QUERY'));
    }
    const badJson = await t.request('POST', '/ask', { key: null, rawBody: '{"query":' });
    expect(badJson.status).toBe(400);
    expect(badJson.body).toEqual(failure('INVALID_QUERY'));
    const noQuery = await t.request('POST', '/ask', { key: null, body: { q: 'wrong field' } });
    expect(noQuery.body).toEqual(failure('INVALID_QUERY'));
  });

  it('refuses bodies over 8 KiB with 413 TOKEN_LIMIT', async () => {
    const r = await t.request('POST', '/ask', {
      key: null,
      body: { query: 'webhooks', context: { pad: 'x'.repeat(9_000) } },
    });
    expect(r.status).toBe(413);
    expect(r.body).toEqual(failure('TOKEN_LIMIT'));
    const justUnder = await t.request('POST', '/ask', {
      key: null,
      body: { query: 'webhooks', context: { pad: 'x'.repeat(7_000) } },
    });
    expect(justUnder.status).toBe(200);
  });
  it('searches only the two documentation hosts: the server and its docs. host', async () => {
    const host = new URL(t.server.services.publicUrl()).host;
    for (const site of [host, `docs.${host}`, `https://${host}/`]) {
      const r = await t.request('GET', `/ask?query=webhooks&site=${encodeURIComponent(site)}`, { key: null });
      expect([site, r.status]).toEqual([site, 200]);
    }
    const structured = await t.request('POST', '/ask', {
      key: null,
      body: { query: { text: 'webhooks', site: `docs.${host}` } },
    });
    expect(structured.status).toBe(200);
    for (const site of ['example.com', 'docs.example.com', `evil.${host}`]) {
      const r = await t.request('GET', `/ask?query=webhooks&site=${encodeURIComponent(site)}`, { key: null });
      expect([site, r.status]).toEqual([site, 400]);
      expect(r.body).toEqual(failure('INVALID_QUERY'));
      expect(r.body.error.message).toContain(host);
    }
    const post = await t.request('POST', '/ask', {
      key: null,
      body: { query: 'webhooks', site: 'example.com' },
    });
    expect([post.status, post.body.error.code]).toEqual([400, 'INVALID_QUERY']);
  });

  it('limits each client address to its share a minute: 429 in the /ask failure shape', async () => {
    t.clock.advance(60_000 - (t.clock.now() % 60_000));
    const from = (ip: string) => ({ key: null, headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < ASK_PER_CLIENT.limit; i++) {
      const r = await t.request(i % 2 ? 'GET' : 'POST', '/ask?query=webhooks', {
        ...from('203.0.113.7'),
        ...(i % 2 ? {} : { body: { query: 'webhooks' } }),
      });
      expect(r.status).toBe(200);
    }
    const over = await t.request('GET', '/ask?query=webhooks', from('203.0.113.7'));
    expect(over.status).toBe(429);
    expect(over.body).toEqual(failure('RATE_LIMITED'));
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const overPost = await t.request('POST', '/ask', { ...from('203.0.113.7'), body: { query: 'webhooks' } });
    expect(overPost.status).toBe(429);
    // Another address has its own share; the next window opens the first one again.
    expect((await t.request('GET', '/ask?query=webhooks', from('198.51.100.2'))).status).toBe(200);
    t.clock.advance(ASK_PER_CLIENT.windowMs);
    expect((await t.request('GET', '/ask?query=webhooks', from('203.0.113.7'))).status).toBe(200);
  });
});
