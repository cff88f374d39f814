import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerSignInLink } from '../../src/app/owner-sign-in.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('the owner sign-in link made at start', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => t?.close());

  it('signs the owner in to the dashboard once, and expires with the magic links', async () => {
    const link = await ownerSignInLink(t.server.services);
    if (!link) throw new Error('no link for the owner');
    const url = new URL(link.url);
    expect(url.pathname).toBe('/auth/magic-link/callback');
    expect(url.searchParams.get('next')).toBe('/dashboard');
    expect(link.expiresAt).toBe(t.clock.now() + 15 * 60_000);
    const path = `${url.pathname}${url.search}`;
    const first = await t.request('GET', path, { key: null });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/dashboard');
    const cookie = String(first.headers['set-cookie']).split(';')[0] as string;
    const dashboard = await t.request('GET', '/dashboard', { key: null, headers: { cookie } });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body).toContain('owner@localhost');
    // Once only.
    const again = await t.request('GET', path, { key: null });
    expect(again.status).toBe(401);
    // And short-lived: a new one is refused after 15 minutes.
    const late = await ownerSignInLink(t.server.services);
    t.clock.advance(15 * 60_000 + 1);
    const lateUrl = new URL(late?.url ?? '');
    expect((await t.request('GET', `${lateUrl.pathname}${lateUrl.search}`, { key: null })).status).toBe(401);
  });
});
