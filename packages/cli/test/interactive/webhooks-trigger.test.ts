import {
  type EVENT_TYPES,
  ProfileEventDataSchema,
  TWEET_EVENT_TYPES,
  TweetEventDataSchema,
  WebhookEventPayloadSchema,
  WebhookTestPayloadSchema,
} from '@xsvc/sdk/contract';
import { verifyWebhook } from '@xsvc/webhook-verifier';
import { afterEach, describe, expect, it } from 'vitest';
import { newDeliveryId } from '../../src/interactive/webhooks/delivery.js';
import { samplePayload, snowflakeIds, TRIGGER_TYPES } from '../../src/interactive/webhooks/samples.js';
import { parseTriggerOptions, run, trigger } from '../../src/interactive/webhooks-trigger.js';
import { contextFor, fakeIo, jsonLines, mockClient } from './helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

const SECRET = 'ab'.repeat(32);
const NOW = Date.parse('2026-04-29T12:00:00.000Z');
const deps = () => {
  let tick = 0;
  return { clock: () => (tick += 3), now: () => NOW, newId: () => 'dlv_fixed' };
};

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('webhook sample payloads', () => {
  it('cover the 21 event types and webhook.test, each valid against the contract', () => {
    expect(TRIGGER_TYPES).toHaveLength(22);
    for (const type of TRIGGER_TYPES) {
      const payload = samplePayload(type, { now: NOW, deliveryId: 'd', nextId: snowflakeIds(NOW) });
      if (type === 'webhook.test') {
        expect(WebhookTestPayloadSchema.safeParse(payload).success).toBe(true);
        continue;
      }
      expect(WebhookEventPayloadSchema.parse(payload).eventType).toBe(type);
      const data = (payload as { data: unknown }).data;
      const schema = (TWEET_EVENT_TYPES as readonly string[]).includes(type)
        ? TweetEventDataSchema
        : ProfileEventDataSchema;
      expect(schema.safeParse(data).success, type).toBe(true);
    }
  });

  it('carry what each tweet type is about', () => {
    const of = (type: (typeof EVENT_TYPES)[number]) =>
      (
        samplePayload(type, { now: NOW, deliveryId: 'd', nextId: snowflakeIds(NOW) }) as {
          data: Record<string, unknown>;
        }
      ).data;
    expect(of('tweet.reply')).toMatchObject({ isReply: true, inReplyToId: expect.any(String) });
    expect(of('tweet.quote')).toMatchObject({
      isQuote: true,
      quoted_tweet: { author: { userName: 'platform_news' } },
    });
    expect(of('tweet.retweet')).toMatchObject({ isRetweet: true, retweeted_tweet: expect.any(Object) });
    expect(of('tweet.media').media).toHaveLength(1);
    expect(of('tweet.poll')).toMatchObject({ poll: { votingStatus: 'open' } });
    expect(String(of('tweet.longform').text).length).toBeGreaterThan(280);
    expect(of('profile.username.changed')).toMatchObject({ field: 'username', current: 'xsvc_demo' });
  });
});

describe('webhooks trigger', () => {
  it('sends every type to a real receiver that verifies the signature', async () => {
    receiver = await startReceiver(SECRET, () => NOW);
    for (const eventType of TRIGGER_TYPES) {
      const io = fakeIo(false);
      const options = parseTriggerOptions({ eventType, forwardTo: receiver.url, secret: SECRET }, {});
      expect(await trigger(contextFor(mockClient().client, io), options, deps())).toBe(0);
      expect(io.stdout.text()).toBe(`${eventType} → ${receiver.url}: 200 · 3 ms\n`);
    }
    expect(receiver.rejected).toEqual([]);
    expect(receiver.received.map((r) => r.event.eventType)).toEqual([...TRIGGER_TYPES]);
  });

  it('exits 1 when the receiver refuses, and reports it as JSON with --json', async () => {
    receiver = await startReceiver(
      SECRET,
      () => NOW,
      () => 410,
    );
    const io = fakeIo(false);
    const options = parseTriggerOptions(
      { eventType: 'tweet.new', forwardTo: receiver.url, secret: SECRET },
      {},
    );
    expect(await trigger(contextFor(mockClient().client, io, { json: true }), options, deps())).toBe(1);
    expect(jsonLines(io.stdout)).toEqual([
      {
        eventType: 'tweet.new',
        deliveryId: 'dlv_fixed',
        forwardTo: receiver.url,
        status: 410,
        ok: false,
        latencyMs: 3,
      },
    ]);
  });

  it('prints a signed delivery that verifies when there is nowhere to send it', async () => {
    const io = fakeIo(false);
    const options = parseTriggerOptions(
      { eventType: 'profile.bio.changed' },
      { XSVC_WEBHOOK_SECRET: SECRET },
    );
    expect(options.secretGenerated).toBe(false);
    expect(await trigger(contextFor(mockClient().client, io), options, deps())).toBe(0);
    const [head, body] = io.stdout.text().split('\n\n');
    const headers = Object.fromEntries(head!.split('\n').map((l) => l.split(': ') as [string, string]));
    const event = await verifyWebhook({ payload: body!.trimEnd(), headers, secret: SECRET, now: () => NOW });
    expect(event.eventType).toBe('profile.bio.changed');
    expect(io.stderr.text()).toBe('');
  });

  it('generates and prints a secret when none is given', async () => {
    const io = fakeIo(false);
    const options = parseTriggerOptions({ eventType: 'webhook.test' }, {});
    await trigger(contextFor(mockClient().client, io, { json: true }), options, deps());
    expect(io.stderr.text()).toContain(options.secret);
    const [printed] = jsonLines(io.stdout) as { headers: Record<string, string>; body: unknown }[];
    expect(printed!.body).toMatchObject({ eventType: 'webhook.test', data: { message: expect.any(String) } });
    expect(printed!.headers['X-Svc-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('sends delivery ids of the form real deliveries carry (dlv_…), a new one each time', async () => {
    const ids: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const io = fakeIo(false);
      const ctx = contextFor(mockClient().client, io, { json: true });
      expect(await run(ctx, { eventType: 'tweet.new', secret: SECRET })).toBe(0);
      const [printed] = jsonLines(io.stdout) as { body: { deliveryId?: string } }[];
      ids.push(printed!.body.deliveryId);
    }
    for (const id of ids) expect(id).toMatch(/^dlv_[0-9a-f]{32}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(newDeliveryId()).toMatch(/^dlv_[0-9a-f]{32}$/);
  });

  it('rejects an unknown or missing event type with exit code 2', async () => {
    for (const raw of [{ eventType: 'follower.gained' }, {}]) {
      const io = fakeIo(false);
      expect(await run(contextFor(mockClient().client, io), raw)).toBe(2);
      expect(io.stderr.text()).toContain('<event-type>');
    }
  });
});
