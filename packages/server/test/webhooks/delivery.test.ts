import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../src/core/auth/accounts.js';
import { num } from '../../src/core/db/database.js';
import type { ResolvedAddress, Resolver } from '../../src/core/ssrf/target.js';
import { writeResults } from '../../src/features/webhooks/results.js';
import { ENGINES } from '../helpers/server.js';
import {
  deadPort,
  insertEvent,
  type Receiver,
  startReceiver,
  startWebhookServer,
  testResolver,
  type WebhookTestServer,
} from './helpers.js';

/** Test DNS that a test can re-point (DNS rebinding between attempts). */
const dns = new Map<string, ResolvedAddress[]>();
const mutableResolver: Resolver = async (host) => dns.get(host) ?? testResolver(host);

const SCHEDULE_S = [1, 2, 4, 8, 16, 32, 60, 60, 60];

describe.each(ENGINES)('webhook deliveries (%s)', (engine) => {
  let t: WebhookTestServer;
  let receiver: Receiver;
  let accounts = 0;

  beforeAll(async () => {
    t = await startWebhookServer(engine, { failureHardCap: 3, resolver: mutableResolver });
    receiver = await startReceiver(() => t.clock.now());
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });
  afterEach(async () => {
    receiver.respond = () => ({ status: 200 });
    receiver.received.length = 0;
    // Each test's leftovers (retries still scheduled) must not count in the next one's attempts.
    const db = t.server.services.database.db;
    await db.updateTable('webhooks').set({ is_active: 0 }).execute();
    await db.updateTable('webhook_deliveries').set({ next_attempt_at: null }).execute();
  });

  /** A fresh account (so events of one test reach only its own webhooks) and a webhook of it. */
  async function setUp(eventTypes = ['tweet.new'], url = receiver.url) {
    const db = t.server.services.database.db;
    const now = t.clock.now();
    const account = await createAccount(db, {
      email: `a${accounts++}-${engine}@x.test`,
      isOwner: false,
      credits: 0n,
      now,
    });
    const { fullKey } = await createApiKey(db, { accountId: account.id, name: 'k', now });
    const r = await t.request('POST', '/api/v1/webhooks', { key: fullKey, body: { url, eventTypes } });
    expect(r.status).toBe(201);
    receiver.secret = r.body.secret;
    return { accountId: account.id, key: fullKey, webhook: r.body as { id: string; secret: string } };
  }

  async function deliveries(key: string, webhookId: string) {
    const r = await t.request('GET', `/api/v1/webhooks/${webhookId}/deliveries`, { key });
    expect(r.status).toBe(200);
    return r.body.deliveries as Record<string, unknown>[];
  }

  async function webhook(key: string, id: string) {
    const r = await t.request('GET', '/api/v1/webhooks', { key });
    return r.body.webhooks.find((w: { id: string }) => w.id === id) as Record<string, unknown>;
  }

  async function outboxSize(): Promise<number> {
    const rows = await t.server.services.database.db.selectFrom('event_outbox').select('event_id').execute();
    return rows.length;
  }

  it('delivers a stored event: one signed POST, headers and payload exactly as spec 6.3', async () => {
    const { accountId, key, webhook: w } = await setUp(['tweet.new']);
    const at = t.clock.now();
    const eventId = await insertEvent(t.server.services.database, accountId, 'tweet.new', at);
    await insertEvent(t.server.services.database, accountId, 'tweet.quote', at);
    const summary = await t.engine.runDue();
    expect(summary).toEqual({ events: 2, attempts: 1 });
    expect(await outboxSize()).toBe(0);
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.verifyError).toBeUndefined();
    expect(got.method).toBe('POST');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe('xsvc-webhooks/1.0');
    expect(got.headers['x-svc-timestamp']).toBe(String(t.clock.now()));
    expect(got.headers['x-svc-nonce']).toMatch(/^[0-9a-f]{32}$/);
    expect(got.headers['x-svc-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    const payload = JSON.parse(got.body);
    expect(Object.keys(payload)).toEqual([
      'eventType',
      'schemaVersion',
      'deliveryId',
      'streamEventId',
      'occurredAt',
      'username',
      'data',
    ]);
    expect(payload).toMatchObject({
      eventType: 'tweet.new',
      schemaVersion: 1,
      streamEventId: eventId,
      occurredAt: new Date(at).toISOString(),
      username: 'alice',
      data: { text: 'hello 👋 world', author: { userName: 'alice' } },
    });
    const [d] = await deliveries(key, w.id);
    expect(d).toEqual({
      id: payload.deliveryId,
      deliveryId: payload.deliveryId,
      streamEventId: eventId,
      eventType: 'tweet.new',
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      createdAt: new Date(at).toISOString(),
      deliveredAt: new Date(at).toISOString(),
    });
  });

  it('creates one delivery per subscribed webhook of the account, each with its own deliveryId', async () => {
    const first = await setUp(['tweet.reply']);
    const second = await t.request('POST', '/api/v1/webhooks', {
      key: first.key,
      body: { url: `${receiver.url}?second`, eventTypes: ['tweet.reply', 'tweet.new'] },
    });
    const other = await setUp(['tweet.new']);
    receiver.secret = '';
    receiver.respond = () => ({ status: 200 });
    const secrets = new Map([
      ['/hooks/xsvc', first.webhook.secret],
      ['/hooks/xsvc?second', second.body.secret as string],
    ]);
    const eventId = await insertEvent(
      t.server.services.database,
      first.accountId,
      'tweet.reply',
      t.clock.now(),
    );
    // Verify each delivery with its own webhook's secret.
    const summary = await t.engine.runDue();
    expect(summary.attempts).toBe(2);
    expect(receiver.received.map((r) => r.url).sort()).toEqual(['/hooks/xsvc', '/hooks/xsvc?second']);
    const ids = new Set<string>();
    for (const r of receiver.received) {
      const { verifyWebhook } = await import('@xsvc/webhook-verifier');
      const event = await verifyWebhook({
        payload: r.body,
        headers: r.headers,
        secret: secrets.get(r.url)!,
        now: () => t.clock.now(),
        nonceStore: false,
      });
      expect(event).toMatchObject({ streamEventId: eventId });
      ids.add((event as { deliveryId: string }).deliveryId);
    }
    expect(ids.size).toBe(2);
    expect(await deliveries(other.key, other.webhook.id)).toEqual([]);
  });

  it('retries a receiver that is down on the exact schedule 1, 2, 4, 8, 16, 32, 60, 60, 60 s, then exhausts', async () => {
    const port = await deadPort();
    const { accountId, key, webhook: w } = await setUp(['tweet.new'], `http://127.0.0.1:${port}/down`);
    // This server's cap is 3 (for the needs_attention test); this endpoint may fail all 10 times.
    const db = t.server.services.database.db;
    await db.updateTable('webhooks').set({ failure_hard_cap: 50 }).where('id', '=', w.id).execute();
    const start = t.clock.now();
    await insertEvent(t.server.services.database, accountId, 'tweet.new', start);
    expect(await t.engine.runDue()).toEqual({ events: 1, attempts: 1 });
    let [d] = await deliveries(key, w.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 1 });
    expect(d!.lastError).toMatch(/ECONNREFUSED/);
    expect(d).not.toHaveProperty('lastStatusCode');
    const attemptTimes = [start];
    for (const [i, seconds] of SCHEDULE_S.entries()) {
      expect(d!.nextAttemptAt).toBe(new Date(t.clock.now() + seconds * 1000).toISOString());
      t.clock.advance(seconds * 1000 - 1);
      expect((await t.engine.runDue()).attempts, `one ms before retry ${i + 1}`).toBe(0);
      t.clock.advance(1);
      expect((await t.engine.runDue()).attempts, `retry ${i + 1}`).toBe(1);
      attemptTimes.push(t.clock.now());
      [d] = await deliveries(key, w.id);
    }
    expect(attemptTimes.slice(1).map((at, i) => (at - attemptTimes[i]!) / 1000)).toEqual(SCHEDULE_S);
    expect(d).toMatchObject({ status: 'exhausted', attempts: 10 });
    expect(d).not.toHaveProperty('nextAttemptAt');
    t.clock.advance(3_600_000);
    expect((await t.engine.runDue()).attempts).toBe(0);
  });

  it.runIf(engine === 'sqlite')(
    'adds jitter of at most 10% on top of the delay, never less than the schedule',
    async () => {
      const port = await deadPort();
      const jittery = await startWebhookServer(engine, { random: () => 0.999 });
      try {
        const r = await jittery.request('POST', '/api/v1/webhooks', {
          body: { url: `http://127.0.0.1:${port}/`, eventTypes: ['tweet.new'] },
        });
        await insertEvent(
          jittery.server.services.database,
          jittery.accountId,
          'tweet.new',
          jittery.clock.now(),
        );
        for (const seconds of [1, 2, 4]) {
          const before = jittery.clock.now();
          await jittery.engine.runDue();
          const list = await jittery.request('GET', `/api/v1/webhooks/${r.body.id}/deliveries`);
          const next = Date.parse(list.body.deliveries[0].nextAttemptAt) - before;
          expect(next).toBeGreaterThanOrEqual(seconds * 1000);
          expect(next).toBeLessThan(seconds * 1100);
          expect(next).toBe(seconds * 1000 + Math.floor(seconds * 1000 * 0.1 * 0.999));
          jittery.clock.advance(next);
        }
      } finally {
        await jittery.close();
      }
    },
  );

  it('a 410 exhausts the delivery and stops deliveries to the endpoint until a resume succeeds', async () => {
    const { accountId, key, webhook: w } = await setUp(['tweet.new']);
    receiver.respond = () => ({ status: 410 });
    const db = t.server.services.database;
    await insertEvent(db, accountId, 'tweet.new', t.clock.now());
    expect((await t.engine.runDue()).attempts).toBe(1);
    const [d] = await deliveries(key, w.id);
    expect(d).toMatchObject({ status: 'exhausted', attempts: 1, lastStatusCode: 410, lastError: 'HTTP 410' });
    // One 410 is enough, far below the failure cap (3 here): the endpoint is out of service.
    expect(await webhook(key, w.id)).toMatchObject({
      deliveryStatus: 'needs_attention',
      consecutiveFailures: 1,
      isActive: true,
    });
    // A later event is stored and queued for the endpoint, but nothing is sent, whatever the time.
    receiver.respond = () => ({ status: 200 });
    await insertEvent(db, accountId, 'tweet.new', t.clock.now());
    t.clock.advance(600_000);
    expect(await t.engine.runDue()).toEqual({ events: 1, attempts: 0 });
    expect(receiver.received).toHaveLength(1);
    const waiting = (await deliveries(key, w.id)).find((x) => x.status === 'pending');
    expect(waiting).toBeDefined();
    expect(waiting).not.toHaveProperty('nextAttemptAt');
    // A resume whose signed test succeeds puts it back in service; the waiting delivery goes out, the
    // exhausted one does not come back.
    const resumed = await t.request('POST', `/api/v1/webhooks/${w.id}/resume`, { key });
    expect(resumed.status).toBe(200);
    expect(resumed.body.webhook).toMatchObject({ deliveryStatus: 'active', consecutiveFailures: 0 });
    expect((await t.engine.runDue()).attempts).toBe(1);
    expect((await deliveries(key, w.id)).map((x) => x.status).sort()).toEqual(['delivered', 'exhausted']);
  });

  it('in one batch, a 410 after the last success takes the endpoint out of service, one before does not', async () => {
    const db = t.server.services.database.db;
    const attempt = (webhookId: string, accountId: string, n: number, statusCode: number) => ({
      delivery: { id: `d${n}`, webhookId, accountId, eventId: `e${n}`, eventType: 'tweet.new', attempts: 0 },
      outcome:
        statusCode === 200
          ? { ok: true, statusCode }
          : { ok: false, statusCode, error: `HTTP ${statusCode}` },
      at: t.clock.now(),
      startedAt: t.clock.now(),
      durationMs: 1,
    });
    const first = await setUp(['tweet.new']);
    await db
      .transaction()
      .execute((trx) =>
        writeResults(trx, [
          attempt(first.webhook.id, first.accountId, 1, 410),
          attempt(first.webhook.id, first.accountId, 2, 200),
        ]),
      );
    expect(await webhook(first.key, first.webhook.id)).toMatchObject({
      deliveryStatus: 'active',
      consecutiveFailures: 0,
    });
    const second = await setUp(['tweet.new']);
    const summary = await db
      .transaction()
      .execute((trx) =>
        writeResults(trx, [
          attempt(second.webhook.id, second.accountId, 3, 200),
          attempt(second.webhook.id, second.accountId, 4, 410),
        ]),
      );
    expect(summary.needsAttention).toEqual([second.webhook.id]);
    expect(await webhook(second.key, second.webhook.id)).toMatchObject({
      deliveryStatus: 'needs_attention',
      consecutiveFailures: 1,
    });
  });

  it('a success resets the failure count and keeps the same deliveryId across retries', async () => {
    const { accountId, key, webhook: w } = await setUp(['tweet.new']);
    let calls = 0;
    receiver.respond = () => ({ status: calls++ === 0 ? 500 : 200 });
    await insertEvent(t.server.services.database, accountId, 'tweet.new', t.clock.now());
    await t.engine.runDue();
    expect(await webhook(key, w.id)).toMatchObject({ consecutiveFailures: 1, deliveryStatus: 'active' });
    t.clock.advance(1000);
    await t.engine.runDue();
    expect(await webhook(key, w.id)).toMatchObject({ consecutiveFailures: 0 });
    const ids = receiver.received.map((r) => (r.event as { deliveryId: string }).deliveryId);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);
    const [d] = await deliveries(key, w.id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 200, deliveryId: ids[0] });
    expect(d).not.toHaveProperty('lastError');
  });

  it('sets needs_attention at the failure cap; deliveries stop until a resume whose signed test succeeds', async () => {
    const { accountId, key, webhook: w } = await setUp(['tweet.new']);
    receiver.respond = () => ({ status: 500 });
    const db = t.server.services.database;
    await insertEvent(db, accountId, 'tweet.new', t.clock.now());
    await insertEvent(db, accountId, 'tweet.new', t.clock.now());
    await t.engine.runDue();
    expect(await webhook(key, w.id)).toMatchObject({ consecutiveFailures: 2, deliveryStatus: 'active' });
    t.clock.advance(1000);
    await t.engine.runDue();
    const hook = await webhook(key, w.id);
    expect(hook).toMatchObject({ deliveryStatus: 'needs_attention', failureHardCap: 3, isActive: true });
    expect(num(hook.consecutiveFailures as number)).toBeGreaterThanOrEqual(3);
    // Nothing goes out any more, not even new events, whatever the time.
    await insertEvent(db, accountId, 'tweet.new', t.clock.now());
    t.clock.advance(3_600_000);
    expect(await t.engine.runDue()).toEqual({ events: 1, attempts: 0 });
    const parked = await deliveries(key, w.id);
    expect(parked).toHaveLength(3);
    for (const d of parked) expect(d).not.toHaveProperty('nextAttemptAt');
    const sent = receiver.received.length;
    // A plain test that succeeds does not resume; a resume whose test fails does not either.
    receiver.respond = () => ({ status: 200 });
    expect((await t.request('POST', `/api/v1/webhooks/${w.id}/test`, { key })).body.success).toBe(true);
    expect((await webhook(key, w.id)).deliveryStatus).toBe('needs_attention');
    receiver.respond = () => ({ status: 502 });
    expect((await t.request('POST', `/api/v1/webhooks/${w.id}/resume`, { key })).status).toBe(400);
    expect((await webhook(key, w.id)).deliveryStatus).toBe('needs_attention');
    expect((await t.engine.runDue()).attempts).toBe(0);
    // Resume with a succeeding signed test: every waiting delivery goes out.
    receiver.respond = () => ({ status: 200 });
    const resumed = await t.request('POST', `/api/v1/webhooks/${w.id}/resume`, { key });
    expect(resumed.body.webhook).toMatchObject({ deliveryStatus: 'active', consecutiveFailures: 0 });
    expect((await t.engine.runDue()).attempts).toBe(3);
    // Sent since: the plain test, the failed resume's test, the resume's test and the 3 deliveries.
    expect(receiver.received.length - sent).toBe(3 + 3);
    expect((await deliveries(key, w.id)).map((d) => d.status)).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ]);
  });

  it('counts a redirect as a failure and does not follow it', async () => {
    const other = await startReceiver(() => t.clock.now());
    try {
      const { accountId, key, webhook: w } = await setUp(['tweet.new']);
      receiver.respond = () => ({ status: 307, headers: { location: other.url } });
      await insertEvent(t.server.services.database, accountId, 'tweet.new', t.clock.now());
      await t.engine.runDue();
      const [d] = await deliveries(key, w.id);
      expect(d).toMatchObject({ status: 'failed', lastStatusCode: 307 });
      expect(d!.lastError).toMatch(/redirect .* not followed/);
      expect(other.received).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('re-resolves the host on every attempt and refuses it once it points at a private address', async () => {
    dns.set('flip.example.com', [{ address: '93.184.216.34', family: 4 }]);
    const { accountId, key, webhook: w } = await setUp(['tweet.new'], 'https://flip.example.com/hook');
    dns.set('flip.example.com', [{ address: '10.0.0.7', family: 4 }]);
    await insertEvent(t.server.services.database, accountId, 'tweet.new', t.clock.now());
    await t.engine.runDue();
    const [d] = await deliveries(key, w.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 1 });
    expect(d!.lastError).toMatch(/^refused: the URL host resolves to a refused address: private/);
    dns.delete('flip.example.com');
  });

  it('exhausts a delivery whose stored event is damaged without blaming the endpoint', async () => {
    const { accountId, key, webhook: w } = await setUp(['tweet.new']);
    const db = t.server.services.database;
    const id = await insertEvent(db, accountId, 'tweet.new', t.clock.now());
    await db.db.updateTable('events').set({ payload: '{broken' }).where('id', '=', id).execute();
    await t.engine.runDue();
    const [d] = await deliveries(key, w.id);
    expect(d).toMatchObject({ status: 'exhausted', attempts: 1 });
    expect(d!.lastError).toMatch(/not JSON/);
    expect(await webhook(key, w.id)).toMatchObject({ consecutiveFailures: 0 });
    expect(receiver.received).toHaveLength(0);
  });

  it('sends nothing to a switched-off webhook, and fans out to it again once switched on', async () => {
    const { accountId, key, webhook: w } = await setUp(['tweet.new']);
    await t.request('PATCH', `/api/v1/webhooks/${w.id}`, { key, body: { isActive: false } });
    await insertEvent(t.server.services.database, accountId, 'tweet.new', t.clock.now());
    expect(await t.engine.runDue()).toEqual({ events: 1, attempts: 0 });
    expect(await deliveries(key, w.id)).toEqual([]);
    await t.request('PATCH', `/api/v1/webhooks/${w.id}`, { key, body: { isActive: true } });
    await insertEvent(t.server.services.database, accountId, 'tweet.new', t.clock.now());
    expect(await t.engine.runDue()).toEqual({ events: 1, attempts: 1 });
    expect(receiver.received).toHaveLength(1);
  });
});
