import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_EMAIL } from '../../src/core/auth/sign-in-account.js';
import { ownerAccountId, startTestServer, type TestServer } from '../helpers/server.js';
import { insertEvent, type Receiver, startReceiver } from '../webhooks/helpers.js';
import { DashboardBrowser } from './browser-session.js';

describe('dashboard sections', () => {
  let t: TestServer;
  let browser: DashboardBrowser;
  let receiver: Receiver;
  let ownerId = '';
  beforeAll(async () => {
    t = await startTestServer('sqlite', { allowLoopbackWebhooks: true });
    browser = new DashboardBrowser(t.server.app);
    await browser.signIn(OWNER_EMAIL);
    receiver = await startReceiver(() => t.clock.now());
    ownerId = await ownerAccountId(t.server);
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  it('lists monitors with their recent events, and feeds only the newer ones as JSON', async () => {
    const created = await t.request('POST', '/api/v1/monitors', {
      body: { username: 'jack', eventTypes: ['tweet.new'] },
    });
    expect(created.status).toBe(201);
    const first = await insertEvent(t.server.services.database, ownerId, 'tweet.new', t.clock.now(), {
      username: 'jack',
      data: { id: '1', text: 'first <b>tweet</b>' },
    });
    const page = await browser.get('/dashboard/monitors');
    expect(page.status).toBe(200);
    expect(page.body).toContain('@jack');
    expect(page.body).toContain('first &lt;b&gt;tweet&lt;/b&gt;');
    expect(page.body).toContain(`data-after="${first}"`);

    const none = await browser.get(`/dashboard/monitors/feed?after=${first}`);
    expect(JSON.parse(none.body)).toMatchObject({ count: 0, newest: first });
    t.clock.advance(1_000);
    const second = await insertEvent(t.server.services.database, ownerId, 'tweet.new', t.clock.now(), {
      username: 'jack',
      data: { id: '2', text: 'second' },
    });
    const feed = JSON.parse((await browser.get(`/dashboard/monitors/feed?after=${first}`)).body);
    expect(feed).toMatchObject({ count: 1, newest: second });
    expect(feed.rows).toContain('second');
    expect(feed.rows).not.toContain('first');
    expect((await browser.get('/dashboard/monitors/feed?after=x')).status).toBe(400);
    const signedOut = await new DashboardBrowser(t.server.app).get('/dashboard/monitors/feed');
    expect(signedOut.status).toBe(401);
  });

  it('shows a webhook needing attention and resumes it after a signed test', async () => {
    const hook = await t.request('POST', '/api/v1/webhooks', {
      body: { url: receiver.url, eventTypes: ['tweet.new'] },
    });
    expect(hook.status).toBe(201);
    receiver.secret = hook.body.secret;
    const db = t.server.services.database.db;
    await db
      .updateTable('webhooks')
      .set({ health: 'needs_attention', consecutive_failures: 50 })
      .where('id', '=', hook.body.id)
      .execute();
    const page = await browser.get('/dashboard/webhooks');
    expect(page.body).toContain('needs_attention');
    const action = `/dashboard/webhooks/${hook.body.id}/resume`;
    expect(page.body).toContain(`action="${action}"`);
    const csrf = DashboardBrowser.csrfOf(page);

    receiver.respond = () => ({ status: 500 });
    const failed = await browser.post(action, { csrf });
    expect(failed.status).toBe(400);
    expect(failed.body).toContain('the endpoint stays paused');

    receiver.respond = () => ({ status: 200 });
    const resumed = await browser.post(action, { csrf });
    expect(resumed.status).toBe(303);
    expect(resumed.headers.location).toBe('/dashboard/webhooks?done=resumed');
    const row = await db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', hook.body.id)
      .executeTakeFirstOrThrow();
    expect(row.health).toBe('active');
    expect(receiver.received.at(-1)?.event).toMatchObject({ eventType: 'webhook.test' });

    const log = await browser.get(`/dashboard/webhooks/${hook.body.id}`);
    expect(log.status).toBe(200);
    expect(log.body).toContain('<h1>Deliveries</h1>');
    // A forged resume is refused before anything is sent.
    const before = receiver.received.length;
    expect((await browser.post(action, { csrf }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(receiver.received.length).toBe(before);
  });

  it('shows extractions and draws, connected accounts and support tickets, and opens a ticket', async () => {
    for (const path of ['/dashboard/jobs', '/dashboard/accounts', '/dashboard/support']) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(200);
      expect(page.body).toContain('aria-current="page"');
    }
    const support = await browser.get('/dashboard/support');
    const opened = await browser.post('/dashboard/support', {
      csrf: DashboardBrowser.csrfOf(support),
      subject: 'Help <please>',
      body: 'The dashboard is new',
    });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatch(/Ticket [^ ]+ is open/);
    expect(opened.body).toContain('Help &lt;please&gt;');
  });
});
