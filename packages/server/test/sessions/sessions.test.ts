import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/core/auth/keys.js';
import { type MagicLinkMessage, watchMagicLinks } from '../../src/core/auth/outbox.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';

/** The cookie pair (`session_token=…`) of a Set-Cookie header. */
function cookieOf(setCookie: string | string[] | undefined): string {
  const line = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  return String(line).split(';')[0]!;
}

describe.each(ENGINES)('sign-in with a magic link (%s)', (engine) => {
  let t: TestServer;
  const sent: MagicLinkMessage[] = [];
  beforeAll(async () => {
    t = await startTestServer(engine);
    watchMagicLinks(t.server.app, (m) => sent.push(m));
  });
  afterAll(async () => t?.close());

  /** Asks for a link and returns the path of the callback it sends. */
  async function askLink(email: string, next?: string): Promise<string> {
    const before = sent.length;
    const r = await t.request('POST', '/auth/magic-link', {
      key: null,
      body: { email, ...(next && { next }) },
    });
    expect(r.status).toBe(202);
    expect(sent.length).toBe(before + 1);
    const url = new URL(sent.at(-1)!.url);
    return `${url.pathname}${url.search}`;
  }

  it('signs in a new account with a cookie that works on session operations', async () => {
    const link = await askLink('New.User@Example.com');
    expect(sent.at(-1)!.email).toBe('new.user@example.com');
    // Only the hash is stored.
    const token = new URL(link, 'http://x').searchParams.get('token')!;
    const row = await t.server.services.database.db
      .selectFrom('magic_links')
      .selectAll()
      .where('token_hash', '=', sha256(token))
      .executeTakeFirst();
    expect(row).toMatchObject({ email: 'new.user@example.com' });
    expect(Number(row!.expires_at) - t.clock.now()).toBe(15 * 60_000);

    const cb = await t.request('GET', link, { key: null });
    expect(cb.status).toBe(200);
    expect(cb.body).toMatchObject({ success: true, email: 'new.user@example.com', isOwner: false });
    const setCookie = String(cb.headers['set-cookie']);
    expect(setCookie).toMatch(/^session_token=[^;]+; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
    const cookie = cookieOf(cb.headers['set-cookie']);
    const sessions = await t.server.services.database.db.selectFrom('sessions').selectAll().execute();
    expect(sessions.some((s) => s.token_hash === sha256(decodeURIComponent(cookie.split('=')[1]!)))).toBe(
      true,
    );

    const keys = await t.request('GET', '/api/v1/api-keys', { key: null, headers: { cookie } });
    expect(keys.status).toBe(200);
    expect(keys.body).toEqual({ keys: [] });
    const created = await t.request('POST', '/api/v1/api-keys', {
      key: null,
      headers: { cookie },
      body: { name: 'first' },
    });
    expect(created.status).toBe(201);
    const account = await t.request('GET', '/api/v1/account', { key: created.body.fullKey });
    expect(account.body.creditInfo.balance).toBe('0');
  });

  it('refuses a link used twice', async () => {
    const link = await askLink('twice@example.com');
    expect((await t.request('GET', link, { key: null })).status).toBe(200);
    const again = await t.request('GET', link, { key: null });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('unauthenticated');
    expect(again.body.message).toContain('already used');
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('refuses an expired link (15 minutes)', async () => {
    const link = await askLink('late@example.com');
    t.clock.advance(15 * 60_000);
    const late = await t.request('GET', link, { key: null });
    expect(late.status).toBe(401);
    expect(late.body.message).toContain('expired');
    const unknown = await t.request('GET', '/auth/magic-link/callback?token=nope', { key: null });
    expect(unknown.status).toBe(401);
  });

  it('signs in the owner as owner@localhost and redirects to a local next path only', async () => {
    const link = await askLink('owner@localhost', '/checkout/cs_00000000000000000000000000000000');
    const cb = await t.request('GET', link, { key: null });
    expect(cb.status).toBe(303);
    expect(cb.headers.location).toBe('/checkout/cs_00000000000000000000000000000000');
    const cookie = cookieOf(cb.headers['set-cookie']);
    const owners = await t.server.services.database.db
      .selectFrom('accounts')
      .select('id')
      .where('is_owner', '=', 1)
      .execute();
    expect(owners).toHaveLength(1);
    const account = await t.request('GET', '/api/v1/account', { key: null, headers: { cookie } });
    expect(account.status).toBe(200);
    expect(account.body.creditInfo.balance).not.toBe('0');
    const offsite = await t.request('POST', '/auth/magic-link', {
      key: null,
      body: { email: 'a@b.c', next: '//evil.example' },
    });
    expect(offsite.status).toBe(400);
    expect(offsite.body.message).toContain('next');
  });

  it('validates the e-mail', async () => {
    const r = await t.request('POST', '/auth/magic-link', { key: null, body: { email: 'not an email' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_input');
    expect(r.body.message).toContain('email');
  });

  it('signs out: the cookie stops working and is cleared', async () => {
    const cb = await t.request('GET', await askLink('leaving@example.com'), { key: null });
    const cookie = cookieOf(cb.headers['set-cookie']);
    expect((await t.request('GET', '/api/v1/api-keys', { key: null, headers: { cookie } })).status).toBe(200);
    const out = await t.request('POST', '/auth/logout', { key: null, headers: { cookie } });
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await t.request('GET', '/api/v1/api-keys', { key: null, headers: { cookie } })).status).toBe(401);
  });

  it('expires sessions after 30 days', async () => {
    const cb = await t.request('GET', await askLink('month@example.com'), { key: null });
    const cookie = cookieOf(cb.headers['set-cookie']);
    t.clock.advance(30 * 24 * 3_600_000);
    expect((await t.request('GET', '/api/v1/api-keys', { key: null, headers: { cookie } })).status).toBe(401);
  });
});

describe('session cookie over https', () => {
  let t: TestServer;
  afterAll(async () => t?.close());

  it('is Secure when the public URL is https', async () => {
    t = await startTestServer('sqlite', { publicUrl: 'https://svc.example.com' });
    const sent: MagicLinkMessage[] = [];
    watchMagicLinks(t.server.app, (m) => sent.push(m));
    await t.request('POST', '/auth/magic-link', { key: null, body: { email: 'secure@example.com' } });
    expect(sent[0]!.url).toMatch(/^https:\/\/svc\.example\.com\/auth\/magic-link\/callback\?token=/);
    const url = new URL(sent[0]!.url);
    const cb = await t.request('GET', `${url.pathname}${url.search}`, { key: null });
    expect(String(cb.headers['set-cookie'])).toMatch(/; Secure$/);
  });
});
