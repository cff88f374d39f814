import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../src/core/auth/accounts.js';
import { ManualClock } from '../../src/core/clock.js';
import { createDispatcher } from '../../src/features/webhooks/dispatcher.js';
import { createThreadedDispatcher } from '../../src/features/webhooks/threaded-dispatcher.js';
import { closeAgents, createAgents } from '../../src/features/webhooks/transport.js';
import {
  deadPort,
  insertEvents,
  type Receiver,
  startReceiver,
  startWebhookServer,
  testResolver,
  type WebhookTestServer,
} from './helpers.js';

// The sender thread is the built file (dist/sender-thread.js): `pnpm test` builds before it runs the tests.

describe('webhook deliveries through sender threads (XSVC_WEBHOOK_THREADS)', () => {
  let t: WebhookTestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await startWebhookServer('sqlite', { senderThreads: 2 });
    receiver = await startReceiver(() => t.clock.now());
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  async function setUp(url: string) {
    const db = t.server.services.database.db;
    const account = await createAccount(db, {
      email: `threads-${Math.random()}@x.test`,
      isOwner: false,
      credits: 0n,
      now: t.clock.now(),
    });
    const { fullKey } = await createApiKey(db, { accountId: account.id, name: 'k', now: t.clock.now() });
    const r = await t.request('POST', '/api/v1/webhooks', {
      key: fullKey,
      body: { url, eventTypes: ['tweet.new'] },
    });
    expect(r.status).toBe(201);
    return { accountId: account.id, key: fullKey, webhook: r.body as { id: string; secret: string } };
  }

  it('delivers every event once, signed at the server’s clock, over both threads', async () => {
    const { accountId, key, webhook } = await setUp(receiver.url);
    receiver.secret = webhook.secret;
    const ids = await insertEvents(
      t.server.services.database,
      accountId,
      Array.from({ length: 40 }, () => 'tweet.new'),
      t.clock.now(),
    );
    const summary = await t.engine.runDue();
    expect(summary).toEqual({ events: 40, attempts: 40 });
    expect(receiver.received).toHaveLength(40);
    for (const got of receiver.received) {
      expect(got.verifyError).toBeUndefined();
      expect(got.headers['x-svc-timestamp']).toBe(String(t.clock.now()));
      expect(got.headers['user-agent']).toBe('xsvc-webhooks/1.0');
    }
    expect(new Set(receiver.received.map((r) => r.event?.streamEventId))).toEqual(new Set(ids));
    // Two threads, two keep-alive pools: the POSTs came over more than one connection.
    const r = await t.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries`, { key });
    expect((r.body.deliveries as { status: string }[]).every((d) => d.status === 'delivered')).toBe(true);
    expect(r.body.deliveries).toHaveLength(40);
  });

  it('a receiver that is down is a failed attempt, recorded and retried like any other', async () => {
    const { accountId, key, webhook } = await setUp(`http://127.0.0.1:${await deadPort()}/hook`);
    await insertEvents(t.server.services.database, accountId, ['tweet.new'], t.clock.now());
    expect(await t.engine.runDue()).toEqual({ events: 1, attempts: 1 });
    const r = await t.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries`, { key });
    expect(r.body.deliveries).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: 1,
        lastError: expect.stringMatching(/^connection failed \(ECONNREFUSED\)/),
      }),
    ]);
    const attempts = await t.server.services.database.db
      .selectFrom('webhook_delivery_attempts')
      .select(['error', 'outcome'])
      .where('webhook_id', '=', webhook.id)
      .execute();
    expect(attempts).toEqual([
      { error: expect.stringMatching(/connection failed \(ECONNREFUSED\)/), outcome: 'failed' },
    ]);
  });
});

describe('the threaded dispatcher', () => {
  let hanging: Server;
  let url: string;
  const clock = new ManualClock();

  beforeAll(async () => {
    // Takes every request and never answers.
    hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    hanging.closeAllConnections();
    await new Promise<void>((resolve) => hanging.close(() => resolve()));
  });

  const make = () =>
    createThreadedDispatcher({
      policy: { allowLoopback: true },
      resolver: testResolver,
      clock,
      limits: { timeoutMs: 10_000, maxResponseBytes: 1024 },
      threads: 1,
    });

  it('cuts off exactly the POSTs of a stop signal when it aborts', async () => {
    const dispatcher = make();
    const stop = new AbortController();
    const stopped = dispatcher.send(url, 'secret', '{}', stop.signal);
    const other = dispatcher.send(url, 'secret', '{}');
    await new Promise((r) => setTimeout(r, 100));
    stop.abort();
    expect(await stopped).toEqual({
      ok: false,
      statusCode: null,
      error: 'cancelled: the server is stopping',
    });
    // The other POST is still waiting for its answer; closing the thread ends it as a failed attempt.
    const race = await Promise.race([other, new Promise((r) => setTimeout(() => r('pending'), 100))]);
    expect(race).toBe('pending');
    await dispatcher.close();
    expect(await other).toEqual({ ok: false, statusCode: null, error: 'the sender thread was closed' });
  });

  it('refuses a target the guard refuses without bothering a thread', async () => {
    const dispatcher = make();
    const outcome = await dispatcher.send('http://10.0.0.1/hook', 'secret', '{}');
    expect(outcome).toMatchObject({
      ok: false,
      statusCode: null,
      error: expect.stringMatching(/^refused: /),
    });
    await dispatcher.close();
  });

  it('a POST after close starts a new thread', async () => {
    const dispatcher = make();
    await dispatcher.close();
    const stop = new AbortController();
    const pending = dispatcher.send(url, 'secret', '{}', stop.signal);
    await new Promise((r) => setTimeout(r, 50));
    stop.abort();
    expect(await pending).toMatchObject({ ok: false, error: 'cancelled: the server is stopping' });
    await dispatcher.close();
  });
});

describe('the URL checks a dispatcher remembers', () => {
  it('are remembered per policy: a loopback URL one server allows stays refused by another', async () => {
    const receiver = await startReceiver(() => Date.now());
    const agents = createAgents();
    const make = (allowLoopback: boolean) =>
      createDispatcher({
        policy: { allowLoopback },
        resolver: testResolver,
        clock: new ManualClock(),
        limits: { timeoutMs: 5_000, maxResponseBytes: 1024 },
        agents,
      });
    try {
      const open = make(true);
      const closed = make(false);
      for (let i = 0; i < 2; i++) {
        // The receiver does not know this secret and answers 401: what counts is that the POST was made.
        expect(await open.send(receiver.url, 'secret', '{}')).toMatchObject({ statusCode: 401 });
        expect(await closed.send(receiver.url, 'secret', '{}')).toMatchObject({
          ok: false,
          statusCode: null,
          error: expect.stringMatching(/^refused: /),
        });
      }
      expect(receiver.received).toHaveLength(2);
    } finally {
      closeAgents(agents);
      await receiver.close();
    }
  });
});
