import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_EMAIL } from '../../src/core/auth/sign-in-account.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';
import { DashboardBrowser } from './browser-session.js';

describe.each(ENGINES)('dashboard sign-in, keys and CSRF (%s)', (engine) => {
  let t: TestServer;
  let browser: DashboardBrowser;
  beforeAll(async () => {
    t = await startTestServer(engine);
    browser = new DashboardBrowser(t.server.app);
  });
  afterAll(async () => t?.close());

  it('sends a signed-out browser to the sign-in page, then back where it was going', async () => {
    const page = await new DashboardBrowser(t.server.app).get('/dashboard/keys');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fkeys');
    const landed = await browser.signIn(OWNER_EMAIL, '/dashboard/keys');
    expect(landed.status).toBe(200);
    expect(landed.body).toContain('<h1>API keys</h1>');
    expect(String(landed.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(landed.headers['x-frame-options']).toBe('DENY');
    // Not no-referrer: with it Chromium sends `Origin: null` on the pages' own forms (see browser.test.ts).
    expect(landed.headers['referrer-policy']).toBe('same-origin');
    // The session cookie is the spec's: HttpOnly, SameSite; the pre-session cookie only for /dashboard.
    expect(browser.cookies.has('session_token')).toBe(true);
  });

  it('creates a key shown once, usable with the API, listed without its secret, then revoked', async () => {
    const keys = await browser.get('/dashboard/keys');
    const csrf = DashboardBrowser.csrfOf(keys);
    const posted = await browser.post('/dashboard/keys', { csrf, name: 'ci <key>' });
    // Post/Redirect/Get: the new key rides to the page in a one-time cookie of that page only.
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe('/dashboard/keys');
    expect(String(posted.headers['set-cookie'])).toMatch(
      /^xsvc_new_key=svc_[0-9a-f]{64}; Path=\/dashboard\/keys; Max-Age=60; HttpOnly; SameSite=Strict$/,
    );
    const created = await browser.get('/dashboard/keys');
    expect(created.status).toBe(200);
    expect(String(created.headers['set-cookie'])).toMatch(
      /^xsvc_new_key=; Path=\/dashboard\/keys; Max-Age=0/,
    );
    const fullKey = /<code id="new-key"[^>]*>(svc_[0-9a-f]{64})<\/code>/.exec(created.body)?.[1] ?? null;
    expect(fullKey).toMatch(/^svc_/);
    expect(created.body).toContain('ci &lt;key&gt;');
    const account = await t.request('GET', '/api/v1/account', { key: fullKey });
    expect(account.status).toBe(200);

    // Shown once: the page again (a reload) shows it no more, and created nothing.
    const listed = await browser.get('/dashboard/keys');
    expect(listed.body).not.toContain(fullKey);
    expect(listed.body.match(/aria-label="Revoke ci &lt;key&gt;"/g)).toHaveLength(1);
    expect(listed.body).toContain(String(fullKey).slice(0, 8));
    const revokeAction =
      /action="(\/dashboard\/keys\/[^"]+\/revoke)">[^<]*<input[^>]*><button[^>]*aria-label="Revoke ci &lt;key&gt;"/.exec(
        listed.body,
      )?.[1];
    expect(revokeAction).toBeDefined();
    const revoked = await browser.post(String(revokeAction), { csrf });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.location).toBe('/dashboard/keys?done=revoked');
    expect((await t.request('GET', '/api/v1/account', { key: fullKey })).status).toBe(401);
  });

  it('shows a key from the one-time cookie only when it is one of the account’s active keys', async () => {
    const forged = `svc_${'0'.repeat(64)}`;
    const page = await browser.get('/dashboard/keys', {
      cookie: `${[...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ')}; xsvc_new_key=${forged}`,
    });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(forged);
    expect(page.body).not.toContain('id="new-key"');
  });

  it('refuses actions without the session token, from another origin or another site', async () => {
    const csrf = DashboardBrowser.csrfOf(await browser.get('/dashboard/keys'));
    const db = t.server.services.database.db;
    const count = async () => (await db.selectFrom('api_keys').select('id').execute()).length;
    const before = await count();
    const forged = [
      await browser.post('/dashboard/keys', { name: 'x' }),
      // A token with its last character changed (to one it does not already end with).
      await browser.post('/dashboard/keys', {
        csrf: `${csrf.slice(0, -1)}${csrf.endsWith('A') ? 'B' : 'A'}`,
        name: 'x',
      }),
      await browser.post('/dashboard/keys', { csrf, name: 'x' }, { origin: 'https://evil.example' }),
      await browser.post('/dashboard/keys', { csrf, name: 'x' }, { 'sec-fetch-site': 'cross-site' }),
      await browser.post('/dashboard/keys', { csrf, name: 'x' }, { origin: 'null' }),
    ];
    expect(forged.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
    expect(forged[2]?.body).toContain('sent from another site');
    // Another session's token does not work in this one.
    const other = new DashboardBrowser(t.server.app);
    await other.signIn('someone@example.com');
    const otherCsrf = DashboardBrowser.csrfOf(await other.get('/dashboard/keys'));
    expect(otherCsrf).not.toBe(csrf);
    expect((await browser.post('/dashboard/keys', { csrf: otherCsrf, name: 'x' })).status).toBe(403);
    expect(await count()).toBe(before);
    // The sign-in form has its own token (a pre-session cookie).
    const fresh = new DashboardBrowser(t.server.app);
    expect((await fresh.post('/dashboard/sign-in', { email: 'a@b.c' })).status).toBe(403);
  });

  it('signs out: the session ends and the cookie is cleared', async () => {
    const b = new DashboardBrowser(t.server.app);
    await b.signIn('leaving@example.com');
    const token = b.cookies.get('session_token');
    const csrf = DashboardBrowser.csrfOf(await b.get('/dashboard'));
    const out = await b.post('/dashboard/sign-out', { csrf });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/dashboard/sign-in');
    expect(b.cookies.has('session_token')).toBe(false);
    const reuse = await t.request('GET', '/api/v1/api-keys', {
      key: null,
      headers: { cookie: `session_token=${token}` },
    });
    expect(reuse.status).toBe(401);
  });

  it('shows the overview and the credits with the ledger', async () => {
    const overview = await browser.get('/dashboard');
    expect(overview.status).toBe(200);
    expect(overview.body).toContain('Credit balance');
    const credits = await browser.get('/dashboard/credits');
    expect(credits.status).toBe(200);
    expect(credits.body).toContain('grant:bootstrap');
  });

  it('serves its stylesheet and script itself', async () => {
    const css = await browser.get('/dashboard/assets/dashboard.css');
    expect(css.status).toBe(200);
    expect(String(css.headers['content-type'])).toContain('text/css');
    const js = await browser.get('/dashboard/assets/dashboard.js');
    expect(String(js.headers['content-type'])).toContain('text/javascript');
  });
});

describe('dashboard cookies behind https', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { publicUrl: 'https://dash.example.com' });
  });
  afterAll(async () => t?.close());

  it('marks the pre-session and session cookies Secure, and clears them Secure on sign-out', async () => {
    const browser = new DashboardBrowser(t.server.app, 'https://dash.example.com', {
      'x-forwarded-proto': 'https',
    });
    const landed = await browser.signIn('secure@example.com');
    expect(landed.status).toBe(200);
    const [preSession, session] = [
      browser.setCookies.find((c) => c.startsWith('dashboard_csrf=')),
      browser.setCookies.find((c) => c.startsWith('session_token=')),
    ];
    expect(preSession).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    expect(preSession).toContain('Path=/dashboard;');
    expect(session).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    const out = await browser.post('/dashboard/sign-out', { csrf: DashboardBrowser.csrfOf(landed) });
    expect(out.status).toBe(303);
    expect(browser.setCookies.at(-1)).toMatch(
      /^session_token=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax; Secure$/,
    );
    // Plain http through the proxy is sent to https first (nothing is served, no cookie is set).
    const plain = await new DashboardBrowser(t.server.app, 'http://dash.example.com', {
      'x-forwarded-proto': 'http',
    }).get('/dashboard/sign-in');
    expect(plain.status).toBe(301);
    expect(plain.headers['set-cookie']).toBeUndefined();
  });
});
