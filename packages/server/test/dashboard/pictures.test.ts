/**
 * The dashboard's pictures and monitor actions over `app.inject`, on SQLite and Postgres: the charts'
 * queries against rows written for the test (credits spent per day, events per hour by type, delivery
 * attempts per hour with their failure rate, each monitor's last day), what the pages draw from them (the
 * SVG's title and description, the table alternative), numbers and dates for a reader, "unlimited" monitor
 * slots, and pausing, resuming and deleting monitors with the dashboard's forms.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_EMAIL } from '../../src/core/auth/sign-in-account.js';
import {
  CHART_DAYS,
  CHART_HOURS,
  creditsSpentPerDay,
  DAY_MS,
  deliveryAttemptsPerHour,
  eventsPerHour,
  HOUR_MS,
  monitorActivity,
} from '../../src/features/dashboard/activity.js';
import { allowance, count, readableTime, signedCount, when } from '../../src/features/dashboard/format.js';
import { sinceText } from '../../src/features/dashboard/pictures.js';
import { ENGINES, ownerAccountId, startTestServer, type TestServer } from '../helpers/server.js';
import { insertEvents } from '../webhooks/helpers.js';
import { DashboardBrowser } from './browser-session.js';

describe('numbers and dates for a reader', () => {
  it('groups thousands, keeps every digit of big integer strings, and says unlimited', () => {
    expect(count('9999976')).toBe('9,999,976');
    expect(count(9999976)).toBe('9,999,976');
    expect(count('-1500')).toBe('-1,500');
    expect(count('123456789012345678901')).toBe('123,456,789,012,345,678,901');
    expect(count('12.5')).toBe('12.5');
    expect(count(0)).toBe('0');
    expect(count('n/a')).toBe('n/a');
    expect(signedCount('1000')).toBe('+1,000');
    expect(signedCount('-21')).toBe('-21');
    expect(allowance(9007199254740991)).toBe('unlimited');
    expect(allowance(200)).toBe('200');
  });

  it('shows dates in words, in UTC', () => {
    expect(readableTime('2026-04-29T12:05:09.123Z')).toBe('29 Apr 2026, 12:05:09 UTC');
    expect(when('2026-04-29T12:05:09.123Z')).toBe(
      '<time datetime="2026-04-29T12:05:09.123Z"><span class="nw">29 Apr 2026,</span> <span class="nw">12:05:09 UTC</span></time>',
    );
    expect(when(undefined)).toContain('—');
    expect(when('not a date')).toContain('—');
    expect(sinceText(30_000)).toBe('just now');
    expect(sinceText(5 * 60_000)).toBe('5 min ago');
    expect(sinceText(3 * HOUR_MS)).toBe('3 h ago');
    expect(sinceText(3 * DAY_MS)).toBe('3 days ago');
  });
});

describe.each(ENGINES)('dashboard pictures and monitor actions (%s)', (engine) => {
  let t: TestServer;
  let browser: DashboardBrowser;
  let accountId = '';
  /** The test's "now": half past the clock's hour, so the current hour is a partial one. */
  let now = 0;
  const hourStart = () => now - (now % HOUR_MS);
  const dayStart = () => now - (now % DAY_MS);

  beforeAll(async () => {
    t = await startTestServer(engine, { allowLoopbackWebhooks: true });
    t.clock.advance(30 * 60_000);
    now = t.clock.now();
    browser = new DashboardBrowser(t.server.app);
    await browser.signIn(OWNER_EMAIL);
    accountId = await ownerAccountId(t.server);
  });
  afterAll(async () => t?.close());

  const db = () => t.server.services.database.db;

  /** Writes a ledger line as the billing core would (the test only needs its amount and time). */
  async function ledger(delta: number, at: number): Promise<void> {
    await db()
      .insertInto('credit_ledger')
      .values({
        id: `led_${randomBytes(8).toString('hex')}`,
        account_id: accountId,
        delta,
        balance_after: 0,
        operation: delta < 0 ? 'test.charge' : 'test.grant',
        units: 1,
        request_id: null,
        created_at: at,
      })
      .execute();
  }

  it('sums the charges of each day over the last 30 days, and draws them on the credits page', async () => {
    await ledger(-100, dayStart() + 60_000);
    await ledger(-23, now - 1_000);
    await ledger(9_999, now - 2_000);
    await ledger(-5_000, dayStart() - 3 * DAY_MS + 5 * HOUR_MS);
    await ledger(-1_234_567, dayStart() - 3 * DAY_MS + 6 * HOUR_MS);
    await ledger(-777, dayStart() - CHART_DAYS * DAY_MS + HOUR_MS);
    // Today's other charges (the bootstrap, monitors) count too: read them to know the day's total.
    const today = await db()
      .selectFrom('credit_ledger')
      .select('delta')
      .where('account_id', '=', accountId)
      .where('created_at', '>=', dayStart())
      .execute();
    const spentToday = today
      .map((r) => Number(r.delta))
      .filter((d) => d < 0)
      .reduce((a, d) => a - d, 0);
    expect(spentToday).toBeGreaterThanOrEqual(123);

    const days = await creditsSpentPerDay(db(), accountId, now);
    expect(days).toHaveLength(CHART_DAYS);
    expect(days.at(-1)).toEqual({ start: dayStart(), value: spentToday });
    expect(days.at(-4)).toEqual({ start: dayStart() - 3 * DAY_MS, value: 1_239_567 });
    expect(days[0]?.start).toBe(dayStart() - (CHART_DAYS - 1) * DAY_MS);
    // The charge 30 days back is outside the window; nothing else was spent in it.
    expect(days.reduce((a, d) => a + d.value, 0)).toBe(spentToday + 1_239_567);

    const page = await browser.get('/dashboard/credits');
    expect(page.status).toBe(200);
    expect(page.body).toContain(
      '<svg class="chart-svg wide" role="img" aria-labelledby="chart-credits-title chart-credits-desc"',
    );
    expect(page.body).toContain(
      '<svg class="chart-svg narrow" role="img" aria-labelledby="chart-credits-title chart-credits-desc"',
    );
    expect(page.body).toContain('id="chart-credits-title">Credits spent per day, last 30 days</span>');
    expect(page.body).toContain(
      `${count(spentToday + 1_239_567)} credits spent in the last 30 days; the most on Sun, 26 Apr 2026: 1,239,567.`,
    );
    // The table alternative has every day; the tooltip of the bar says the same.
    expect(page.body).toContain(
      '<tr><th scope="row">Sun, 26 Apr 2026</th><td class="num">1,239,567</td></tr>',
    );
    expect(page.body.match(/<tr><th scope="row">/g)).toHaveLength(CHART_DAYS);
    expect(page.body).toContain('<title>Sun, 26 Apr 2026: 1,239,567 credits</title>');
    // The ledger's amounts are grouped and signed.
    expect(page.body).toContain('<td class="num">-1,234,567</td>');
    expect(page.body).toContain('<td class="num">+9,999</td>');
  });

  it('counts events per hour by type, and each monitor’s last day, on the monitors page', async () => {
    const jack = await t.request('POST', '/api/v1/monitors', {
      body: { username: 'jack', eventTypes: ['tweet.new', 'tweet.reply'] },
    });
    expect(jack.status, JSON.stringify(jack.body)).toBe(201);
    const search = await t.request('POST', '/api/v1/monitors/keywords', {
      body: { query: 'coffee <beans>', eventTypes: ['tweet.new'] },
    });
    expect(search.status, JSON.stringify(search.body)).toBe(201);
    const two = hourStart() - 2 * HOUR_MS + 10 * 60_000;
    const ids = [
      ...(await insertEvents(
        t.server.services.database,
        accountId,
        ['tweet.new', 'tweet.new', 'tweet.new', 'tweet.reply'],
        two,
      )),
      ...(await insertEvents(
        t.server.services.database,
        accountId,
        ['tweet.new', 'tweet.new'],
        now - 60_000,
      )),
    ];
    const old = await insertEvents(
      t.server.services.database,
      accountId,
      ['tweet.quote'],
      now - 25 * HOUR_MS,
    );
    await db()
      .updateTable('events')
      .set({ monitor_id: jack.body.id })
      .where('id', 'in', [...ids, ...old])
      .execute();
    const keyword = await insertEvents(t.server.services.database, accountId, ['tweet.new'], now - 90_000);
    await db()
      .updateTable('events')
      .set({ monitor_id: null, keyword_monitor_id: search.body.id })
      .where('id', 'in', keyword)
      .execute();

    const hours = await eventsPerHour(db(), accountId, now);
    expect(hours).toHaveLength(CHART_HOURS);
    expect(hours.at(-1)?.start).toBe(hourStart());
    expect(Object.fromEntries(hours.at(-1)?.value ?? [])).toEqual({ 'tweet.new': 3 });
    expect(Object.fromEntries(hours.at(-3)?.value ?? [])).toEqual({ 'tweet.new': 3, 'tweet.reply': 1 });
    expect(hours.reduce((a, h) => a + [...h.value.values()].reduce((x, n) => x + n, 0), 0)).toBe(7);

    const activity = await monitorActivity(db(), accountId, now);
    const ofJack = activity.get(jack.body.id);
    expect(ofJack?.hourly.at(-1)?.value).toBe(2);
    expect(ofJack?.hourly.at(-3)?.value).toBe(4);
    expect(ofJack?.hourly.reduce((a, b) => a + b.value, 0)).toBe(6);
    expect(ofJack?.lastEventAt).toBe(now - 60_000);
    expect(activity.get(search.body.id)?.hourly.reduce((a, b) => a + b.value, 0)).toBe(1);

    const page = await browser.get('/dashboard/monitors');
    expect(page.body).toContain('id="chart-events-title">Events per hour by type, last 24 hours</span>');
    expect(page.body).toContain(
      '7 events in the last 24 hours (6 tweet.new, 1 tweet.reply); the busiest hour began at 10:00 UTC with 4.',
    );
    expect(page.body).toContain(
      '<tr><th scope="row">29 Apr, 10:00–11:00 UTC</th><td class="num">3</td><td class="num">1</td><td class="num">4</td></tr>',
    );
    expect(page.body).toContain(
      'aria-label="6 events in 24 h, last event 1 min ago: events per hour, last 24 hours"',
    );
    expect(page.body).toContain('<code>coffee &lt;beans&gt;</code>');
    expect(page.body).toContain('1 event in 24 h');
  });

  it('counts delivery attempts per hour with their failure rate, on the webhooks page', async () => {
    const hook = await t.request('POST', '/api/v1/webhooks', {
      body: { url: 'http://127.0.0.1:9/hook', eventTypes: ['tweet.new'] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const deliveryId = `dlv_${randomBytes(6).toString('hex')}`;
    await db()
      .insertInto('webhook_deliveries')
      .values({
        id: deliveryId,
        webhook_id: hook.body.id,
        account_id: accountId,
        event_id: 'evt_test',
        event_type: 'tweet.new',
        status: 'delivered',
        attempts: 6,
        last_status_code: 200,
        last_error: null,
        created_at: now - 7 * HOUR_MS,
        delivered_at: now - 5 * HOUR_MS,
        next_attempt_at: null,
      })
      .execute();
    const five = hourStart() - 5 * HOUR_MS;
    const six = hourStart() - 6 * HOUR_MS;
    const attempts: [number, string][] = [
      [six + 1_000, 'failed'],
      [six + 2_000, 'exhausted'],
      [five + 1_000, 'failed'],
      [five + 2_000, 'delivered'],
      [five + 3_000, 'delivered'],
      [five + 4_000, 'delivered'],
      [now - 30 * HOUR_MS, 'failed'],
    ];
    await db()
      .insertInto('webhook_delivery_attempts')
      .values(
        attempts.map(([at, outcome], i) => ({
          id: `att_${randomBytes(6).toString('hex')}`,
          delivery_id: deliveryId,
          webhook_id: hook.body.id,
          account_id: accountId,
          attempt: i + 1,
          started_at: at,
          duration_ms: 12,
          status_code: outcome === 'delivered' ? 200 : 500,
          error: outcome === 'delivered' ? null : 'HTTP 500',
          outcome,
        })),
      )
      .execute();
    const hours = await deliveryAttemptsPerHour(db(), accountId, now);
    expect(hours).toHaveLength(CHART_HOURS);
    expect(hours.at(-6)).toEqual({ start: five, value: { delivered: 3, failed: 1 } });
    expect(hours.at(-7)).toEqual({ start: six, value: { delivered: 0, failed: 2 } });
    expect(hours.filter((h) => h.value.delivered + h.value.failed > 0)).toHaveLength(2);

    const page = await browser.get('/dashboard/webhooks');
    expect(page.body).toContain(
      'id="chart-deliveries-title">Webhook deliveries per hour, last 24 hours</span>',
    );
    expect(page.body).toContain(
      '6 delivery attempts in the last 24 hours: 3 delivered, 3 failed (50% failure rate).',
    );
    expect(page.body).toContain(
      '<tr><th scope="row">29 Apr, 07:00–08:00 UTC</th><td class="num">3</td><td class="num">1</td><td class="num">4</td><td class="num">25%</td></tr>',
    );
    expect(page.body).toContain(
      '<tr><th scope="row">29 Apr, 06:00–07:00 UTC</th><td class="num">0</td><td class="num">2</td><td class="num">2</td><td class="num">100%</td></tr>',
    );
    expect(page.body).toContain('<path class="rate" d="M');
  });

  it('shows unlimited monitor slots and grouped balances on the overview, with its three charts', async () => {
    const account = await t.request('GET', '/api/v1/account');
    // The API keeps its contract: the deprecated number stays as it was.
    expect(account.body.monitorsAllowed).toBe(Number.MAX_SAFE_INTEGER);
    const page = await browser.get('/dashboard');
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(page.body).toMatch(/<dt>Active monitors<\/dt><dd>\d+ of unlimited<\/dd>/);
    expect(page.body).toContain(`<dd>${count(account.body.creditInfo.balance)} credits</dd>`);
    for (const id of ['chart-credits', 'chart-events', 'chart-deliveries'])
      expect(page.body).toContain(`aria-labelledby="${id}-title ${id}-desc"`);
    // The monitors, busiest first, each with its last day.
    const tile = page.body.slice(page.body.indexOf('id="tile-monitors-title"'));
    expect(tile).toContain('Monitors, last 24 hours</h2>');
    expect(tile).toContain('2 monitors; the busiest of the last 24 hours first.');
    expect(tile.indexOf('@jack')).toBeGreaterThan(0);
    expect(tile.indexOf('@jack')).toBeLessThan(tile.indexOf('coffee &lt;beans&gt;'));
    expect(tile).toContain('<span>6 events in 24 h</span>');
    // Compact on the overview (no wide drawing), each with a link to its page.
    expect(page.body).not.toContain('chart-svg wide');
    expect(page.body).toContain('<a href="/dashboard/monitors">Each monitor and its events</a>');
    expect(page.body).toContain('<a href="/dashboard/webhooks">Each endpoint and its delivery log</a>');
  });

  it('pauses, resumes and deletes monitors with the forms of the monitors page', async () => {
    const list = await t.request('GET', '/api/v1/monitors');
    const jack = list.body.monitors.find((m: { username: string }) => m.username === 'jack');
    const keywords = await t.request('GET', '/api/v1/monitors/keywords');
    const search = keywords.body.monitors[0];
    let page = await browser.get('/dashboard/monitors');
    const csrf = DashboardBrowser.csrfOf(page);
    const pause = `/dashboard/monitors/account/${jack.id}/pause`;
    expect(page.body).toContain(`action="${pause}"`);
    expect(page.body).toContain('aria-label="Pause @jack"');
    expect(page.body).toContain('aria-label="Pause the search &quot;coffee &lt;beans&gt;&quot;"');

    // A forged pause changes nothing.
    const forged = await browser.post(pause, { csrf }, { 'sec-fetch-site': 'cross-site' });
    expect(forged.status).toBe(403);
    expect((await browser.post(pause, { csrf: 'nope' })).status).toBe(403);
    expect((await t.request('GET', `/api/v1/monitors/${jack.id}`)).body.isActive).toBe(true);

    const paused = await browser.post(pause, { csrf });
    expect(paused.status).toBe(303);
    expect(paused.headers.location).toBe('/dashboard/monitors?done=paused');
    expect((await t.request('GET', `/api/v1/monitors/${jack.id}`)).body.isActive).toBe(false);
    page = await browser.get(String(paused.headers.location));
    expect(page.body).toContain('The monitor is paused');
    expect(page.body).toContain('aria-label="Resume @jack"');

    const resumed = await browser.post(`/dashboard/monitors/account/${jack.id}/resume`, { csrf });
    expect(resumed.headers.location).toBe('/dashboard/monitors?done=resumed');
    expect((await t.request('GET', `/api/v1/monitors/${jack.id}`)).body.isActive).toBe(true);

    const pausedSearch = await browser.post(`/dashboard/monitors/keyword/${search.id}/pause`, { csrf });
    expect(pausedSearch.status).toBe(303);
    expect((await t.request('GET', `/api/v1/monitors/keywords/${search.id}`)).body.isActive).toBe(false);

    // Delete asks first: the link leads to a confirmation page, whose form deletes.
    const deletePath = `/dashboard/monitors/account/${jack.id}/delete`;
    expect(page.body).toContain(`href="${deletePath}" aria-label="Delete @jack"`);
    const confirm = await browser.get(deletePath);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain('<h1>Delete the monitor of @jack?</h1>');
    expect(confirm.body).toContain(`<form method="post" action="${deletePath}">`);
    expect(confirm.body).toContain('href="/dashboard/monitors">Cancel</a>');
    expect((await t.request('GET', `/api/v1/monitors/${jack.id}`)).status).toBe(200);
    const deleted = await browser.post(deletePath, { csrf: DashboardBrowser.csrfOf(confirm) });
    expect(deleted.headers.location).toBe('/dashboard/monitors?done=deleted');
    expect((await t.request('GET', `/api/v1/monitors/${jack.id}`)).status).toBe(404);
    page = await browser.get('/dashboard/monitors');
    expect(page.body).not.toContain('aria-label="Pause @jack"');

    // Gone, unknown or malformed monitors: nothing to act on.
    expect((await browser.post(deletePath, { csrf })).status).toBe(404);
    expect((await browser.post('/dashboard/monitors/other/x/pause', { csrf })).status).toBe(404);
    expect((await browser.get(deletePath)).body).toContain('No such monitor');
  });
});
