/**
 * The dashboard end to end in a real browser (Debian's Chromium, headless, through playwright-core): a
 * listening server on 127.0.0.1 with the simulated platform and its engines running on the wall clock, a
 * webhook receiver and an OAuth client's callback on 127.0.0.1, and the built CLI. The browser signs in with
 * the e-mail link, creates a key the CLI then uses, watches a simulated tweet arrive as an event, resumes a
 * webhook that needs attention, downloads an export, approves an OAuth consent and signs out; every page is
 * checked with axe-core (no serious or critical violation), for a visible keyboard focus, and saved as a
 * screenshot in `test-artifacts/dashboard`. Skips only when no Chromium is installed (CI installs it).
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { XsvcServer } from '../../src/app/app.js';
import { bootstrapOwner } from '../../src/app/bootstrap.js';
import { createServer } from '../../src/app/server.js';
import { watchMagicLinks } from '../../src/core/auth/outbox.js';
import { OWNER_EMAIL } from '../../src/core/auth/sign-in-account.js';
import { parseConfig } from '../../src/core/config.js';
import { type Receiver, startReceiver } from '../webhooks/helpers.js';
import {
  ARTIFACTS,
  findChromium,
  focusedElement,
  launchChromium,
  prepareArtifacts,
  screenshot,
  seriousViolations,
} from './chromium.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field by the assertions
type Json = any;

const CHROMIUM = findChromium();
const CLI_BIN = join(import.meta.dirname, '../../../cli/dist/bin.js');
const OWNER_KEY = `svc_${randomBytes(32).toString('hex')}`;
const TWEET = `Hello from the browser test ${randomBytes(3).toString('hex')}`;

if (!CHROMIUM)
  console.warn(
    'dashboard browser tests skipped: no Chromium found (set XSVC_CHROMIUM or `apt-get install chromium`)',
  );

describe.skipIf(!CHROMIUM)('the dashboard in headless Chromium', () => {
  let server: XsvcServer;
  let base = '';
  let receiver: Receiver;
  let callback: Server;
  let callbackUrl = '';
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const links: string[] = [];
  const problems: string[] = [];
  const failedLoads: string[] = [];
  let newKey = '';
  let hookId = '';

  /** A call to the API as the owner (the operator driving the simulated platform). */
  async function api(method: string, path: string, body?: unknown, key = OWNER_KEY): Promise<Json> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Runs the built CLI with the key the browser created, against this server. */
  async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const home = mkdtempSync(join(tmpdir(), 'xsvc-cli-'));
    try {
      const r = await promisify(execFile)(process.execPath, [CLI_BIN, ...args], {
        env: {
          PATH: process.env.PATH,
          HOME: home,
          XDG_CONFIG_HOME: home,
          NO_COLOR: '1',
          XSVC_API_KEY: newKey,
          XSVC_BASE_URL: base,
        },
      });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }

  /** Waits until `check` holds (polling), or fails saying what was awaited. */
  async function until<T>(
    what: string,
    check: () => Promise<T | undefined | false>,
    ms = 10_000,
  ): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const got = await check();
      if (got) return got;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The checks every page passes: axe-core finds nothing serious, then a screenshot is saved. */
  async function checkPage(name: string): Promise<void> {
    await page.waitForLoadState('load');
    expect(await seriousViolations(page), `${name}: axe-core`).toEqual([]);
    await screenshot(page, name);
  }

  beforeAll(async () => {
    if (!existsSync(CLI_BIN)) throw new Error(`the CLI is not built: run \`pnpm -C packages/cli build\``);
    prepareArtifacts();
    const config = parseConfig({
      databaseUrl: ':memory:',
      seedSize: 'tiny',
      logLevel: 'silent',
      keyFile: '',
      bootstrapApiKey: OWNER_KEY,
      allowLoopbackWebhooks: true,
    });
    server = await createServer(config);
    await bootstrapOwner(server.services.database, config, Date.now());
    watchMagicLinks(server.app, (m) => links.push(m.url));
    base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    receiver = await startReceiver(() => Date.now());
    callback = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><title>Agent</title><h1>Connected</h1></html>');
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    browser = await launchChromium(String(CHROMIUM));
    context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    page = await context.newPage();
    // Script errors and CSP refusals surface as console errors: none is expected.
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400) failedLoads.push(`${r.status()} ${r.url()}`);
    });
  }, 30_000);

  afterAll(async () => {
    console.info(`dashboard screenshots: ${ARTIFACTS}`);
    await browser?.close();
    await new Promise<void>((resolve) => (callback ? callback.close(() => resolve()) : resolve()));
    await receiver?.close();
    await server?.close();
  });

  it('signs in with the e-mail link and lands where it was going, with an HttpOnly SameSite cookie', async () => {
    await page.goto(`${base}/dashboard/keys`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await checkPage('01-sign-in');
    await page.getByLabel('E-mail address').fill(OWNER_EMAIL);
    await page.getByRole('button', { name: 'Send the sign-in link' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Check for your sign-in link',
    );
    await checkPage('02-link-sent');
    expect(links).toHaveLength(1);
    await page.goto(String(links[0]));
    expect(new URL(page.url()).pathname).toBe('/dashboard/keys');
    const cookie = (await context.cookies()).find((c) => c.name === 'session_token');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
    // The link works once.
    const again = await fetch(String(links[0]), { redirect: 'manual' });
    expect(again.status).toBe(401);
  });

  it('creates a key shown once with a copy button, and the CLI works with it', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.getByLabel('Name of the new key').fill('cli on my laptop');
    await page.getByRole('button', { name: 'Create a key' }).click();
    newKey = String(await page.locator('#new-key').textContent());
    expect(newKey).toMatch(/^svc_[0-9a-f]{64}$/);
    await page.getByRole('button', { name: 'Copy the new API key' }).click();
    await expect.poll(() => page.locator('#new-key + button').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newKey);
    await checkPage('03-key-created');

    const account = await cli(['account', 'get', '--json']);
    expect(account, account.stderr).toMatchObject({ code: 0 });
    expect(JSON.parse(account.stdout)).toMatchObject({
      plan: expect.any(String),
      monitorsAllowed: Number.MAX_SAFE_INTEGER,
    });
    // For a person, the unlimited allowance says so; the JSON keeps the API's number.
    const human = await cli(['account', 'get']);
    expect(human.stdout).toMatch(/^monitorsAllowed\tunlimited$/m);
    expect(human.stdout).not.toContain(String(Number.MAX_SAFE_INTEGER));
    const monitor = await cli([
      'monitors',
      'create',
      '--username',
      'jack',
      '--event-types',
      'tweet.new',
      '--json',
    ]);
    expect(monitor, monitor.stderr).toMatchObject({ code: 0 });
    // A receiver that is down for now: the event's delivery will fail and be retried.
    receiver.respond = () => ({ status: 500 });
    const hook = await cli([
      'webhooks',
      'create',
      '--url',
      receiver.url,
      '--event-types',
      'tweet.new',
      '--json',
    ]);
    expect(hook, hook.stderr).toMatchObject({ code: 0 });
    const created = JSON.parse(hook.stdout);
    receiver.secret = created.secret;
    hookId = created.id;

    // Listed without its secret, with its last use. A reload sends no form again (Post/Redirect/Get):
    // the key is not shown twice, and no second key appears.
    await page.reload();
    expect(await page.content()).not.toContain(newKey);
    await expect(page.getByRole('row').filter({ hasText: 'cli on my laptop' }).count()).resolves.toBe(1);
    const row = page.getByRole('row').filter({ hasText: 'cli on my laptop' });
    await expect(row.textContent()).resolves.toContain(newKey.slice(0, 8));
    expect(await row.locator('time').count()).toBe(2);
  });

  it('shows a simulated tweet arriving as an event while the monitors page stays open', async () => {
    await page.getByRole('link', { name: 'Monitors' }).click();
    await page.waitForURL(`${base}/dashboard/monitors`);
    expect(await page.getByRole('row').filter({ hasText: '@jack' }).count()).toBeGreaterThan(0);
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    const tweet = await api('POST', '/sim/tweets', { author: 'jack', text: TWEET });
    expect(tweet.status).toBe(201);
    const event = page.locator('#events tr').filter({ hasText: TWEET });
    await event.waitFor({ timeout: 15_000 });
    expect(await event.textContent()).toContain('tweet.new');
    expect(await page.locator('#feed-status').textContent()).toMatch(/^\d+ new events?$/);
    // It arrived without a reload.
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await checkPage('04-monitors-live-event');
  });

  it('draws the events and each monitor’s last day, and pauses, resumes and deletes by keyboard', async () => {
    const search = await api('POST', '/api/v1/monitors/keywords', {
      query: 'espresso machines',
      eventTypes: ['tweet.new'],
    });
    expect(search.status, JSON.stringify(search.body)).toBe(201);
    await page.goto(`${base}/dashboard/monitors`);
    // The chart is an image named by its title and described in words; its numbers are a table too.
    const chart = page.getByRole('img', { name: /^Events per hour by type, last 24 hours/ });
    expect(await chart.count()).toBe(1);
    expect(await page.locator('#chart-events-desc').textContent()).toMatch(
      /^\d+ events? in the last 24 hours/,
    );
    await page.getByText('Events per hour by type, last 24 hours: the numbers as a table').click();
    expect(
      await page.getByRole('table', { name: 'Events per hour by type, last 24 hours' }).isVisible(),
    ).toBe(true);
    const jackRow = page.getByRole('row').filter({ hasText: '@jack' }).first();
    expect(await jackRow.getByRole('img', { name: /events? in 24 h, last .* ago|just now/ }).count()).toBe(1);
    await checkPage('04b-monitors-charts');

    /** Tabs from the top of the page until the focus is on the element named `name` (at most 60 stops). */
    async function tabTo(name: string): Promise<void> {
      await page
        .locator('h1')
        .first()
        .evaluate((h) => {
          h.setAttribute('tabindex', '-1');
          (h as HTMLElement).focus();
        });
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        const at = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
        if (at === name) {
          expect(await focusedElement(page)).toMatchObject({ visible: true });
          return;
        }
      }
      throw new Error(`could not tab to ${name}`);
    }
    await tabTo('Pause @jack');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/dashboard/monitors?done=paused`);
    expect(await page.getByRole('status').first().textContent()).toContain('The monitor is paused');
    expect(await jackRow.textContent()).toContain('paused');
    expect((await api('GET', '/api/v1/monitors')).body.monitors[0].isActive).toBe(false);
    await checkPage('04c-monitor-paused');
    await tabTo('Resume @jack');
    await page.keyboard.press('Space');
    await page.waitForURL(`${base}/dashboard/monitors?done=resumed`);
    expect((await api('GET', '/api/v1/monitors')).body.monitors[0].isActive).toBe(true);

    // Delete asks first; Cancel leaves it, the confirmation's button deletes it.
    await tabTo('Delete the search "espresso machines"');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/dashboard/monitors/keyword/${search.body.id}/delete`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Delete the monitor of "espresso machines"?',
    );
    await checkPage('04d-monitor-delete-confirm');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(`${base}/dashboard/monitors`);
    expect((await api('GET', `/api/v1/monitors/keywords/${search.body.id}`)).status).toBe(200);
    await page.getByRole('link', { name: 'Delete the search "espresso machines"' }).click();
    await page.getByRole('button', { name: 'Delete the search "espresso machines"' }).click();
    await page.waitForURL(`${base}/dashboard/monitors?done=deleted`);
    expect((await api('GET', `/api/v1/monitors/keywords/${search.body.id}`)).status).toBe(404);
    expect(await page.getByRole('row').filter({ hasText: 'espresso machines' }).count()).toBe(0);
  });

  it('shows a webhook needing attention, its delivery log, and resumes it with a signed test', async () => {
    await receiver.waitFor(1);
    // A long outage, shortened: the cap is lowered so the next failed retry (1 s later) reaches it.
    await server.services.database.db
      .updateTable('webhooks')
      .set({ failure_hard_cap: 2 })
      .where('id', '=', hookId)
      .execute();
    await until('needs_attention', async () => {
      const list = await api('GET', '/api/v1/webhooks');
      return list.body.webhooks.find((w: Json) => w.id === hookId)?.deliveryStatus === 'needs_attention';
    });

    await page.getByRole('link', { name: 'Webhooks' }).click();
    const row = page.getByRole('row').filter({ hasText: receiver.url });
    expect(await row.textContent()).toContain('needs_attention');
    await checkPage('05-webhooks-needs-attention');

    await row.getByRole('link', { name: receiver.url }).click();
    await page.waitForURL(`${base}/dashboard/webhooks/${hookId}`);
    const deliveriesTable = page.getByRole('table', { name: /^Most recent deliveries/ });
    const attemptsTable = page.getByRole('table', { name: /^Each attempt/ });
    const failed = deliveriesTable.getByRole('row').filter({ hasText: 'tweet.new' });
    const failedText = String(await failed.textContent());
    expect(failedText).toContain('failed');
    expect(failedText).toContain('500');
    expect(failedText).toMatch(/failed[2-9] of 10/);
    expect(failedText).toContain('parked until the endpoint is resumed');
    // Each attempt so far, in order, each answered 500.
    const attempts = attemptsTable.getByRole('row').filter({ hasText: 'tweet.new' });
    const tried = await attempts.count();
    expect(tried).toBe(Number(/failed(\d+) of 10/.exec(failedText)?.[1]));
    for (let i = 0; i < tried; i++) {
      const text = String(await attempts.nth(i).textContent());
      expect(text).toContain(`${i + 1} of 10`);
      expect(text).toContain('HTTP 500');
      expect(text).toMatch(/\d+ ms/);
    }
    await checkPage('06-delivery-log-failed');

    receiver.respond = () => ({ status: 200 });
    await page.getByRole('link', { name: 'All webhooks' }).click();
    await page.getByRole('button', { name: `Send a signed test and resume: ${receiver.url}` }).click();
    await page.waitForURL(`${base}/dashboard/webhooks?done=resumed`);
    expect(await page.getByRole('status').textContent()).toContain('The signed test succeeded');
    expect(await page.getByRole('row').filter({ hasText: receiver.url }).textContent()).toContain('active');
    expect(receiver.received.some((r) => r.event?.eventType === 'webhook.test')).toBe(true);
    await checkPage('07-webhooks-resumed');

    // The parked delivery goes out again and succeeds; its log shows it delivered.
    await until('the parked delivery to succeed', async () =>
      receiver.received.some((r) => r.event?.eventType === 'tweet.new' && !r.verifyError)
        ? (await api('GET', `/api/v1/webhooks/${hookId}/deliveries`)).body.deliveries.some(
            (d: Json) => d.status === 'delivered' && d.eventType === 'tweet.new',
          )
        : false,
    );
    await page.goto(`${base}/dashboard/webhooks/${hookId}`);
    expect(await deliveriesTable.getByRole('row').filter({ hasText: 'tweet.new' }).textContent()).toContain(
      'delivered',
    );
    // The attempt that succeeded follows the failed ones.
    expect(await attempts.count()).toBe(tried + 1);
    const last = String(await attempts.last().textContent());
    expect(last).toContain(`${tried + 1} of 10`);
    expect(last).toContain('200');
    expect(last).toContain('delivered');
    await checkPage('08-delivery-log-delivered');
  });

  it('lists a finished extraction whose export links download with the session', async () => {
    const job = await api('POST', '/api/v1/extractions', {
      toolType: 'follower_explorer',
      targetUsername: 'jack',
    });
    expect(job.status, JSON.stringify(job.body)).toBe(202);
    await until('the extraction to complete', async () => {
      const got = await api('GET', `/api/v1/extractions/${job.body.id}`);
      return got.body.job.status === 'completed';
    });
    await page.getByRole('link', { name: 'Extractions & draws' }).click();
    await page.waitForURL(`${base}/dashboard/jobs`);
    const csv = page.getByRole('link', { name: `Extraction ${job.body.id} as CSV` });
    const href = String(await csv.getAttribute('href'));
    const download = await context.request.get(`${base}${href}`);
    expect(download.status()).toBe(200);
    expect(download.headers()['content-type']).toMatch(/^text\/csv/);
    expect((await download.text()).split('\n').length).toBeGreaterThan(1);
    await checkPage('09-jobs');
  });

  it('shows the overview, credits with the plan and the ledger, connected accounts and support', async () => {
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.waitForURL(`${base}/dashboard`);
    await checkPage('10-overview');
    // On a phone the charts and facts reflow to one column, with nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 800 });
    await checkPage('10b-overview-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.goto(`${base}/dashboard/monitors`);
    await checkPage('10c-monitors-phone');
    await page.setViewportSize({ width: 1200, height: 800 });
    await page.goto(`${base}/dashboard`);
    await page.getByRole('link', { name: 'Credits' }).click();
    expect(await page.locator('dl.facts').textContent()).toMatch(/Plan\w+/);
    expect(await page.getByRole('row').filter({ hasText: 'grant:bootstrap' }).count()).toBe(1);
    await checkPage('11-credits');
    await page.getByRole('link', { name: 'Connected accounts' }).click();
    await checkPage('12-connected-accounts');
    await page.getByRole('link', { name: 'Support' }).click();
    await page.getByLabel('Subject').fill('The dashboard');
    await page.getByLabel('Message').fill('It works in a real browser.');
    await page.getByRole('button', { name: 'Open the ticket' }).click();
    expect(await page.getByRole('status').textContent()).toMatch(/^Ticket \S+ is open\.$/);
    await checkPage('13-support');
  });

  it('approves an OAuth consent shown in the dashboard look, and the token works', async () => {
    const client = await fetch(`${base}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Browser agent', redirect_uris: [callbackUrl] }),
    }).then((r) => r.json() as Promise<Json>);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: callbackUrl,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: `${base}/mcp`,
      state: 'browser-state',
    });
    await page.goto(`${base}/api/oauth/authorize?${q}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Allow Browser agent to use your account?',
    );
    // The dashboard's stylesheet dresses it (its primary button colour).
    const approve = page.getByRole('button', { name: 'Approve' });
    expect(await approve.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(29, 78, 216)');
    await checkPage('14-oauth-consent');
    await approve.click();
    await page.waitForURL(`${callbackUrl}?**`);
    const back = new URL(page.url());
    expect(back.searchParams.get('state')).toBe('browser-state');
    const token = await fetch(`${base}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: String(back.searchParams.get('code')),
        code_verifier: verifier,
        client_id: client.client_id,
        redirect_uri: callbackUrl,
        resource: `${base}/mcp`,
      }),
    }).then((r) => r.json() as Promise<Json>);
    // The token acts as the signed-in account: it sees the monitor the CLI created.
    const monitors = await fetch(`${base}/api/v1/monitors`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(monitors.status).toBe(200);
    expect(((await monitors.json()) as Json).monitors).toMatchObject([{ username: 'jack' }]);
  });

  it('works by keyboard: a skip link, a visible focus on every stop, a form sent with Enter', async () => {
    await page.goto(`${base}/dashboard/keys`);
    await page.keyboard.press('Tab');
    expect(await focusedElement(page)).toMatchObject({ tag: 'a', text: 'Skip to content', visible: true });
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const field = await focusedElement(page);
    expect(field).toMatchObject({ tag: 'input', visible: true });
    await page.keyboard.type('typed by keyboard');
    await page.keyboard.press('Tab');
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Create a key', visible: true });
    // Every stop of the page shows where the focus is.
    await page.keyboard.press('Shift+Tab');
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      const at = await focusedElement(page);
      if (at.tag === 'body') break;
      expect(at, `focus stop ${i}: ${at.tag} ${at.text}`).toMatchObject({ visible: true });
    }
    await page.getByLabel('Name of the new key').focus();
    await page.keyboard.press('Enter');
    await page.locator('#new-key').waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'typed by keyboard' }).count()).toBe(1);
  });

  it('signs in, creates a key and approves a consent with JavaScript switched off', async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    try {
      const tab = await noScript.newPage();
      await tab.goto(`${base}/dashboard/sign-in`);
      await tab.getByLabel('E-mail address').fill('no-script@example.com');
      await tab.getByRole('button', { name: 'Send the sign-in link' }).click();
      await tab.getByRole('heading', { name: 'Check for your sign-in link' }).waitFor();
      await tab.goto(String(links.at(-1)));
      await tab.goto(`${base}/dashboard/keys`);
      await tab.getByLabel('Name of the new key').fill('made without scripts');
      await tab.getByRole('button', { name: 'Create a key' }).click();
      const key = String(await tab.locator('#new-key').textContent());
      expect(key).toMatch(/^svc_[0-9a-f]{64}$/);
      // No copy button without the script; the key is there to select.
      expect(await tab.getByRole('button', { name: 'Copy the new API key' }).count()).toBe(0);
      expect((await api('GET', '/api/v1/account', undefined, key)).status).toBe(200);

      const client = await fetch(`${base}/api/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Plain agent', redirect_uris: [callbackUrl] }),
      }).then((r) => r.json() as Promise<Json>);
      const q = new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: callbackUrl,
        code_challenge: createHash('sha256').update(randomBytes(32)).digest('base64url'),
        code_challenge_method: 'S256',
        resource: `${base}/mcp`,
      });
      await tab.goto(`${base}/api/oauth/authorize?${q}`);
      await tab.getByRole('button', { name: 'Approve' }).click();
      await tab.waitForURL(`${callbackUrl}?**`);
      expect(new URL(tab.url()).searchParams.get('code')).toMatch(/^xac_/);
    } finally {
      await noScript.close();
    }
  });

  it('signs out: the session cookie is gone and the pages ask to sign in again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/dashboard/sign-in`);
    expect((await context.cookies()).some((c) => c.name === 'session_token')).toBe(false);
    await page.goto(`${base}/dashboard/keys`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    expect(problems, failedLoads.join('\n')).toEqual([]);
  });
});
