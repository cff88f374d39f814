import { WebhookEventPayloadSchema } from '@xsvc/sdk/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { WEBHOOK_USER_AGENT } from '../../src/interactive/webhooks/delivery.js';
import { listen, parseListenOptions, run } from '../../src/interactive/webhooks-listen.js';
import { scriptedEvents, tweetEvent } from './fixtures.js';
import { contextFor, fakeIo, instantSleep, jsonLines, mockClient, queryOf } from './helpers.js';
import { closedPort, type Receiver, startReceiver } from './receiver.js';

const SECRET = 'c0ffee'.repeat(8);
const NOW = Date.parse('2026-04-29T12:00:00.000Z');

function deps(controller: AbortController, stopAfter: number) {
  let tick = 0;
  let ids = 0;
  return {
    ...instantSleep(controller, stopAfter),
    clock: () => (tick += 7),
    now: () => NOW,
    newId: () => `dlv_${++ids}`,
  };
}

function keywordEvent(id: string) {
  const base = tweetEvent(id, 'keyword hit');
  const { username: _drop, ...rest } = base;
  return { ...rest, monitorType: 'keyword', keywordMonitorId: 'kw_1', query: 'xsvc' };
}

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('webhooks listen', () => {
  it('forwards each new event as a signed delivery the verifier accepts, with the status and latency', async () => {
    receiver = await startReceiver(
      SECRET,
      () => NOW,
      (n) => (n === 2 ? 500 : 200),
    );
    const events = scriptedEvents([
      { events: [tweetEvent('1')] },
      // Newest first, as the service lists them.
      { events: [keywordEvent('3'), tweetEvent('2', 'a reply', 'tweet.reply'), tweetEvent('1')] },
    ]);
    const { client } = mockClient({ listEvents: events.answer });
    const io = fakeIo(false);
    const controller = new AbortController();
    const options = parseListenOptions(
      { forwardTo: receiver.url, secret: SECRET },
      { XSVC_POLL_INTERVAL_MS: '20' },
    );
    const d = deps(controller, 2);
    expect(await listen(contextFor(client, io, { signal: controller.signal }), options, d)).toBe(0);

    expect(receiver.rejected).toEqual([]);
    expect(receiver.received.map((r) => r.event)).toEqual([
      {
        eventType: 'tweet.reply',
        schemaVersion: 1,
        deliveryId: 'dlv_1',
        streamEventId: '2',
        occurredAt: '2026-04-29T12:00:00.000Z',
        username: 'jack',
        data: tweetEvent('2', 'a reply', 'tweet.reply').data,
      },
      {
        eventType: 'tweet.new',
        schemaVersion: 1,
        deliveryId: 'dlv_2',
        streamEventId: '3',
        occurredAt: '2026-04-29T12:00:00.000Z',
        query: 'xsvc',
        data: keywordEvent('3').data,
      },
    ]);
    for (const r of receiver.received) {
      expect(WebhookEventPayloadSchema.safeParse(JSON.parse(r.raw)).success).toBe(true);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
      expect(r.headers['x-svc-timestamp']).toBe(String(NOW));
    }
    expect(jsonLines(io.stdout)).toEqual([
      expect.objectContaining({
        deliveryId: 'dlv_1',
        streamEventId: '2',
        status: 200,
        ok: true,
        latencyMs: 7,
      }),
      expect.objectContaining({
        deliveryId: 'dlv_2',
        streamEventId: '3',
        status: 500,
        ok: false,
        latencyMs: 7,
      }),
    ]);
    expect(d.waits).toEqual([20, 20]);
  });

  it('forwards only the --events types, filtering one type on the service side', async () => {
    receiver = await startReceiver(SECRET, () => NOW);
    const events = scriptedEvents([
      { events: [] },
      { events: [tweetEvent('6'), tweetEvent('5', 'r', 'tweet.reply')] },
    ]);
    const { client, requests } = mockClient({ listEvents: events.answer });
    const controller = new AbortController();
    const options = parseListenOptions(
      { forwardTo: receiver.url, secret: SECRET, events: 'tweet.reply' },
      {},
    );
    await listen(
      contextFor(client, fakeIo(false), { signal: controller.signal }),
      options,
      deps(controller, 2),
    );
    expect(receiver.received.map((r) => r.event.eventType)).toEqual(['tweet.reply']);
    expect(queryOf(requests[0]!).eventType).toBe('tweet.reply');
  });

  it('reports an unreachable endpoint and keeps listening', async () => {
    const port = await closedPort();
    const events = scriptedEvents([
      { events: [] },
      { events: [tweetEvent('7')] },
      { events: [tweetEvent('8')] },
    ]);
    const { client } = mockClient({ listEvents: events.answer });
    const io = fakeIo(false);
    const controller = new AbortController();
    const options = parseListenOptions({ forwardTo: `http://127.0.0.1:${port}/hook`, secret: SECRET }, {});
    await listen(contextFor(client, io, { signal: controller.signal }), options, deps(controller, 3));
    const lines = jsonLines(io.stdout) as { ok: boolean; error?: string; streamEventId: string }[];
    expect(lines.map((l) => [l.streamEventId, l.ok, l.error])).toEqual([
      ['7', false, 'ECONNREFUSED'],
      ['8', false, 'ECONNREFUSED'],
    ]);
  });

  it('shows the generated secret and each answer in the terminal view', async () => {
    const events = scriptedEvents([{ events: [] }, { events: [tweetEvent('9', 't', 'tweet.quote')] }]);
    const { client } = mockClient({ listEvents: events.answer });
    const io = fakeIo(true);
    const controller = new AbortController();
    const options = parseListenOptions({ forwardTo: 'http://127.0.0.1:9/hook' }, {});
    expect(options.secretGenerated).toBe(true);
    expect(options.secret).toMatch(/^[0-9a-f]{64}$/);
    receiver = await startReceiver(options.secret, () => NOW);
    const at = { ...options, forwardTo: receiver.url };
    await listen(contextFor(client, io, { signal: controller.signal }), at, deps(controller, 2));
    const out = io.stdout.text();
    expect(out).toContain(`Forwarding events to ${receiver.url}`);
    expect(out).toContain(`Signing secret: ${options.secret}`);
    expect(out).toContain('1 delivered · 0 failed');
    expect(out).toContain('tweet.quote');
    expect(out).toContain('→ 200 · 7 ms');
    expect(receiver.received).toHaveLength(1);
  });

  it('rejects bad input with exit code 2 naming the flag', async () => {
    const cases: [Record<string, unknown>, Record<string, string>, string][] = [
      [{}, {}, '--forward-to'],
      [{ forwardTo: 'localhost:3000' }, {}, '--forward-to'],
      [{ forwardTo: 'ftp://127.0.0.1/x' }, {}, '--forward-to'],
      [{ forwardTo: 'http://127.0.0.1:3000', events: ['tweet.new', 'follower.gained'] }, {}, '--events'],
      [{ forwardTo: 'http://127.0.0.1:3000', secret: 'xyz' }, {}, '--secret'],
      [{ forwardTo: 'http://127.0.0.1:3000' }, { XSVC_WEBHOOK_SECRET: 'short' }, 'XSVC_WEBHOOK_SECRET'],
    ];
    for (const [raw, env, flag] of cases) {
      const { client, requests } = mockClient();
      const io = fakeIo(false);
      expect(await run(contextFor(client, io, { json: true, env }), raw)).toBe(2);
      expect(jsonLines(io.stderr)).toEqual([expect.objectContaining({ flag })]);
      expect(requests).toHaveLength(0);
    }
  });
});
