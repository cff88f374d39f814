import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_EMAIL } from '../../src/core/auth/sign-in-account.js';
import { num } from '../../src/core/db/database.js';
import { claimJobs, jobId } from '../../src/core/jobs/index.js';
import { readableTime } from '../../src/features/dashboard/format.js';
import { DELIVERY_JOB_KIND, listAttemptRows } from '../../src/features/webhooks/deliveries-repository.js';
import type { DeliveryEngine } from '../../src/features/webhooks/engine.js';
import { fanOutEvents } from '../../src/features/webhooks/fanout.js';
import { boundError, MAX_ATTEMPT_ERROR_LENGTH, recordResults } from '../../src/features/webhooks/results.js';
import { deliveryEngineFor } from '../../src/features/webhooks/runtime.js';
import { DashboardBrowser } from '../dashboard/browser-session.js';
import { ENGINES, ownerAccountId, startTestServer, type TestServer } from '../helpers/server.js';
import { deadPort, insertEvent, type Receiver, startReceiver } from './helpers.js';

/** Past any retry delay of the first attempts (1 s, 2 s, with up to 10 % jitter). */
const PAST_RETRY_MS = 120_000;
const retry = { random: () => 0, jitterRatio: 0 };

/** The cells of each row of the dashboard table that follows `heading`, as text. */
function tableAfter(html: string, heading: string): string[][] {
  const from = html.indexOf(heading);
  expect(from, `${heading} on the page`).toBeGreaterThanOrEqual(0);
  const body = html.slice(from).match(/<tbody>([\s\S]*?)<\/tbody>/)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) =>
      (cell[1] ?? '').replace(/<[^>]+>/g, '').trim(),
    ),
  );
}

describe.each(ENGINES)('webhook delivery attempts (%s)', (engine) => {
  let t: TestServer;
  let delivery: DeliveryEngine;
  let browser: DashboardBrowser;
  let receiver: Receiver;
  let ownerId = '';

  beforeAll(async () => {
    t = await startTestServer(engine, { allowLoopbackWebhooks: true });
    const found = deliveryEngineFor(t.server.services.database);
    if (!found) throw new Error('webhooks feature not mounted');
    delivery = found;
    browser = new DashboardBrowser(t.server.app);
    await browser.signIn(OWNER_EMAIL);
    receiver = await startReceiver(() => t.clock.now());
    ownerId = await ownerAccountId(t.server);
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  async function createWebhook(url: string): Promise<string> {
    const r = await t.request('POST', '/api/v1/webhooks', { body: { url, eventTypes: ['tweet.new'] } });
    expect(r.status).toBe(201);
    receiver.secret = r.body.secret;
    return r.body.id;
  }

  /** Switches a webhook off, so the events of the next tests (and its retries) stay out of them. */
  async function switchOff(id: string): Promise<void> {
    const r = await t.request('PATCH', `/api/v1/webhooks/${id}`, { body: { isActive: false } });
    expect(r.status).toBe(200);
  }

  /**
   * A delivery's attempts as recorded: the failed ones' history rows and, once delivered, the delivering
   * attempt its delivery row holds (migration 0025), as the dashboard's delivery log reads them.
   */
  async function attemptRows(deliveryId: string) {
    const db = t.server.services.database.db;
    const d = await db
      .selectFrom('webhook_deliveries')
      .select(['webhook_id', 'account_id'])
      .where('id', '=', deliveryId)
      .executeTakeFirst();
    return d ? listAttemptRows(db, d.account_id, d.webhook_id, [deliveryId]) : [];
  }

  /** The history rows stored for a delivery (its failed attempts only, since migration 0025). */
  function storedRows(deliveryId: string) {
    return t.server.services.database.db
      .selectFrom('webhook_delivery_attempts')
      .selectAll()
      .where('delivery_id', '=', deliveryId)
      .orderBy('attempt')
      .execute();
  }

  it('records each attempt of a delivery that fails twice then succeeds, and the dashboard lists them', async () => {
    const hookId = await createWebhook(receiver.url);
    const answers = [
      { status: 500, delayMs: 40 },
      { status: 503, delayMs: 0 },
      { status: 200, delayMs: 0 },
    ];
    let n = 0;
    receiver.respond = async () => {
      const a = answers[Math.min(n++, answers.length - 1)]!;
      if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
      return { status: a.status };
    };
    await insertEvent(t.server.services.database, ownerId, 'tweet.new', t.clock.now());
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      starts.push(t.clock.now());
      expect((await delivery.runDue()).attempts).toBe(1);
      t.clock.advance(PAST_RETRY_MS);
    }
    expect(await delivery.runDue()).toEqual({ events: 0, attempts: 0 });
    expect(receiver.received).toHaveLength(3);

    const deliveries = await t.request('GET', `/api/v1/webhooks/${hookId}/deliveries`);
    expect(deliveries.status).toBe(200);
    const [d] = deliveries.body.deliveries;
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200 });
    // The public delivery record is unchanged: no attempts history in the API.
    expect(d).not.toHaveProperty('attemptHistory');

    // The failed attempts have their history rows; the delivering one is on the delivery row only.
    expect((await storedRows(d.deliveryId)).map((r) => r.outcome)).toEqual(['failed', 'failed']);
    const rows = await attemptRows(d.deliveryId);
    expect(
      rows.map((r) => ({
        attempt: num(r.attempt),
        started: num(r.started_at),
        status: r.status_code === null ? null : num(r.status_code),
        error: r.error,
        outcome: r.outcome,
        webhook: r.webhook_id,
        account: r.account_id,
      })),
    ).toEqual([
      {
        attempt: 1,
        started: starts[0],
        status: 500,
        error: 'HTTP 500',
        outcome: 'failed',
        webhook: hookId,
        account: ownerId,
      },
      {
        attempt: 2,
        started: starts[1],
        status: 503,
        error: 'HTTP 503',
        outcome: 'failed',
        webhook: hookId,
        account: ownerId,
      },
      {
        attempt: 3,
        started: starts[2],
        status: 200,
        error: null,
        outcome: 'delivered',
        webhook: hookId,
        account: ownerId,
      },
    ]);
    // Measured, not clock time (the manual clock stands still during an attempt): the first answer took 40 ms.
    expect(num(rows[0]!.duration_ms)).toBeGreaterThanOrEqual(35);
    for (const r of rows) expect(num(r.duration_ms)).toBeGreaterThanOrEqual(0);

    const page = await browser.get(`/dashboard/webhooks/${hookId}`);
    expect(page.status).toBe(200);
    const shown = tableAfter(page.body, '<h2>Attempts</h2>');
    expect(shown.map((cells) => [cells[0], cells[1], cells[2], cells[4], cells[5], cells[7]])).toEqual([
      [d.deliveryId, 'tweet.new', '1 of 10', '500', 'HTTP 500', 'failed, to be retried'],
      [d.deliveryId, 'tweet.new', '2 of 10', '503', 'HTTP 503', 'failed, to be retried'],
      [d.deliveryId, 'tweet.new', '3 of 10', '200', '', 'delivered'],
    ]);
    expect(shown[0]![3]).toBe(readableTime(starts[0]!));
    expect(shown[0]![6]).toMatch(/^\d+ ms$/);
    expect(Number.parseInt(shown[0]![6]!, 10)).toBeGreaterThanOrEqual(35);
    await switchOff(hookId);
  });

  it('records an attempt that got no answer, and the dashboard says so', async () => {
    const hookId = await createWebhook(`http://127.0.0.1:${await deadPort()}/hook`);
    await insertEvent(t.server.services.database, ownerId, 'tweet.new', t.clock.now());
    expect((await delivery.runDue()).attempts).toBe(1);
    const { body } = await t.request('GET', `/api/v1/webhooks/${hookId}/deliveries`);
    const rows = await attemptRows(body.deliveries[0].deliveryId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status_code: null, outcome: 'failed' });
    expect(rows[0]!.error).toMatch(/^connection failed/);
    const shown = tableAfter((await browser.get(`/dashboard/webhooks/${hookId}`)).body, '<h2>Attempts</h2>');
    expect(shown).toHaveLength(1);
    expect(shown[0]![4]).toBe('no answer');
    expect(shown[0]![5]).toMatch(/^connection failed/);
    await switchOff(hookId);
  });

  it('writes the attempt row and the delivery update together, and only while the lease is held', async () => {
    const db = t.server.services.database;
    const hookId = await createWebhook(receiver.url);
    receiver.respond = () => ({ status: 200 });
    await insertEvent(db, ownerId, 'tweet.new', t.clock.now());
    await insertEvent(db, ownerId, 'tweet.new', t.clock.now());
    // Fan out without attempting: the engine's own run would send them.
    const now = t.clock.now();
    await db.db.updateTable('webhooks').set({ is_active: 0 }).where('id', '!=', hookId).execute();
    await fanOutEvents(db, now, 100);
    const jobs = await claimJobs(db.db, db.dialect, {
      kind: DELIVERY_JOB_KIND,
      owner: 'engine_a',
      now,
      leaseMs: 60_000,
      limit: 10,
    });
    const claimed = (
      await db.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where(
          'id',
          'in',
          jobs.map((j) => j.key as string),
        )
        .orderBy('id')
        .execute()
    ).map((r) => ({
      id: r.id,
      webhookId: r.webhook_id,
      accountId: r.account_id,
      eventId: r.event_id,
      eventType: r.event_type,
      attempts: num(r.attempts),
    }));
    const mine = claimed.filter((c) => c.webhookId === hookId);
    expect(mine).toHaveLength(2);
    const [first, second] = mine as [(typeof mine)[0], (typeof mine)[0]];
    const result = (c: typeof first) => ({
      delivery: c,
      outcome: { ok: true, statusCode: 200 },
      at: now,
      startedAt: now,
      durationMs: 7,
    });

    // A row already there for attempt 1 of `first` makes a batch of failed attempts (each with its history
    // row) fail: nothing of it is written.
    const failed = (c: typeof first) => ({
      ...result(c),
      outcome: { ok: false, statusCode: 500, error: 'HTTP 500' },
    });
    await db.db
      .insertInto('webhook_delivery_attempts')
      .values({
        id: 'planted',
        delivery_id: first.id,
        webhook_id: hookId,
        account_id: ownerId,
        attempt: 1,
        started_at: now,
        duration_ms: 0,
        status_code: null,
        error: null,
        outcome: 'failed',
      })
      .execute();
    await expect(recordResults(db, 'engine_a', [failed(first), failed(second)], retry)).rejects.toThrow();
    const untouched = await db.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'attempts', 'status'])
      .where('id', 'in', [first.id, second.id])
      .execute();
    for (const r of untouched) expect(num(r.attempts)).toBe(0);
    const leases = await db.db
      .selectFrom('jobs')
      .select('lease_owner')
      .where('id', 'in', [jobId(DELIVERY_JOB_KIND, first.id), jobId(DELIVERY_JOB_KIND, second.id)])
      .execute();
    expect(leases.map((r) => r.lease_owner)).toEqual(['engine_a', 'engine_a']);
    expect(await attemptRows(second.id)).toHaveLength(0);
    await db.db.deleteFrom('webhook_delivery_attempts').where('id', '=', 'planted').execute();

    // The lease of `second` passed to another engine: its result is not counted, and gets no row.
    await db.db
      .updateTable('jobs')
      .set({ lease_owner: 'engine_b' })
      .where('id', '=', jobId(DELIVERY_JOB_KIND, second.id))
      .execute();
    await recordResults(db, 'engine_a', [result(first), result(second)], retry);
    expect((await attemptRows(first.id)).map((r) => [num(r.attempt), num(r.duration_ms), r.outcome])).toEqual(
      [[1, 7, 'delivered']],
    );
    expect(await attemptRows(second.id)).toHaveLength(0);
    expect(await storedRows(first.id)).toHaveLength(0);

    // Attempts go with their delivery.
    await db.db.deleteFrom('webhook_deliveries').where('id', '=', first.id).execute();
    expect(await attemptRows(first.id)).toHaveLength(0);
    await db.db.updateTable('webhooks').set({ is_active: 0 }).where('id', '=', hookId).execute();
  });

  it('bounds the stored error text without splitting a character', () => {
    expect(boundError('HTTP 500')).toBe('HTTP 500');
    const long = boundError('x'.repeat(5_000));
    expect(long).toHaveLength(MAX_ATTEMPT_ERROR_LENGTH);
    expect(long.endsWith('…')).toBe(true);
    const emoji = boundError(`${'x'.repeat(MAX_ATTEMPT_ERROR_LENGTH - 2)}😀😀`);
    expect(emoji.length).toBeLessThanOrEqual(MAX_ATTEMPT_ERROR_LENGTH);
    expect(emoji).toBe(`${'x'.repeat(MAX_ATTEMPT_ERROR_LENGTH - 2)}…`);
  });
});
