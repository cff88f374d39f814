import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wantsHtml } from '../../src/features/discovery/root.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('GET /', () => {
  let t: TestServer;
  let base: string;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
    base = t.server.services.publicUrl();
  });
  afterAll(async () => t?.close());

  it('sends a browser to the dashboard', async () => {
    const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const r = await t.request('GET', '/', { key: null, headers: { accept } });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/dashboard');
    expect(r.headers.vary).toMatch(/accept/i);
    // Where it lands: the dashboard asks a visitor without a session to sign in.
    const landing = await t.request('GET', '/dashboard', { key: null, headers: { accept } });
    expect([200, 303]).toContain(landing.status);
  });

  it('answers an API client with a JSON index of the surfaces, every link of which answers', async () => {
    for (const headers of [{}, { accept: '*/*' }, { accept: 'application/json' }]) {
      const r = await t.request('GET', '/', { key: null, headers });
      expect(r.status).toBe(200);
      expect(String(r.headers['content-type'])).toMatch(/^application\/json/);
      expect(r.body).toEqual({
        name: 'xsvc',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        links: {
          api: `${base}/api/v1`,
          openapi: `${base}/openapi.json`,
          docs: `${base}/docs`,
          dashboard: `${base}/dashboard`,
          mcp: `${base}/mcp`,
          health: `${base}/health`,
        },
      });
    }
    const { links } = (await t.request('GET', '/', { key: null })).body;
    for (const link of [links.openapi, links.docs, links.health]) {
      const res = await t.request('GET', link.slice(base.length), { key: null });
      expect(res.status, link).toBe(200);
    }
    const account = await t.request('GET', `${links.api.slice(base.length)}/account`);
    expect(account.status).toBe(200);
  });

  it('tells a page request from an API request by Accept', () => {
    const ask = (accept?: string) => wantsHtml({ headers: accept === undefined ? {} : { accept } } as never);
    expect(ask('text/html')).toBe(true);
    expect(ask('application/xhtml+xml;q=0.9')).toBe(true);
    expect(ask('text/html;q=0, application/json')).toBe(false);
    expect(ask('application/json')).toBe(false);
    expect(ask('*/*')).toBe(false);
    expect(ask()).toBe(false);
  });
});
