import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapOwner } from '../../src/app/bootstrap.js';
import { createServer } from '../../src/app/server.js';
import { parseConfig } from '../../src/core/config.js';
import { httpCaller } from '../helpers/server.js';
import { type Receiver, startReceiver } from '../webhooks/helpers.js';

/**
 * The service's heartbeat end to end, on the wall clock with both engines running as in production: a
 * listening server on the simulated platform, an account monitor, a webhook to a receiver on 127.0.0.1 that
 * verifies every delivery with @xsvc/webhook-verifier. Tweets and a profile change made through the control
 * endpoints come out as stored events and signed deliveries. (Latency figures live in `pnpm bench`; the
 * deadline here is generous so a loaded CI box cannot make it flaky.)
 */
// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field by the assertions
type Json = any;

const KEY = `svc_${randomBytes(32).toString('hex')}`;
const TYPES = [
  'tweet.new',
  'tweet.reply',
  'tweet.quote',
  'tweet.retweet',
  'tweet.media',
  'profile.bio.changed',
] as const;

let base = '';
let receiver: Receiver;
let close: () => Promise<void> = async () => {};

const call = httpCaller(() => base, KEY);

/** Waits until the receiver holds a verified delivery of `type` whose tweet (or field) matches. */
async function deliveryOf(type: string, match: (data: Json) => boolean): Promise<Record<string, Json>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const hit = receiver.received.find(
      (r) => r.event?.eventType === type && match((r.event as { data: unknown }).data),
    );
    if (hit?.event) return hit.event as Record<string, Json>;
    if (Date.now() > deadline) {
      const got = receiver.received.map((r) => r.event?.eventType ?? r.verifyError);
      throw new Error(`no ${type} delivery; got ${JSON.stringify(got)}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  const config = parseConfig({
    databaseUrl: ':memory:',
    seedSize: 'tiny',
    logLevel: 'silent',
    keyFile: '',
    bootstrapApiKey: KEY,
    allowLoopbackWebhooks: true,
  });
  const server = await createServer(config);
  await bootstrapOwner(server.services.database, config, Date.now());
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}`;
  receiver = await startReceiver(() => Date.now());
  close = async () => {
    await server.close();
    await receiver.close();
  };
}, 60_000);
afterAll(() => close());

describe('monitor → stored event → signed webhook delivery', () => {
  it('delivers new tweets, replies, quotes, reposts, media and profile changes, verified', async () => {
    const hook = await call('POST', '/api/v1/webhooks', { url: receiver.url, eventTypes: TYPES });
    expect(hook.status).toBe(201);
    receiver.secret = hook.body.secret;
    const monitor = await call('POST', '/api/v1/monitors', { username: 'jack', eventTypes: TYPES });
    expect(monitor.status).toBe(201);

    const original = await call('POST', '/sim/tweets', { author: 'jack', text: 'e2e: a new tweet' });
    expect(original.status).toBe(201);
    const originalId: string = original.body.id;
    const reply = await call('POST', '/sim/tweets', {
      author: 'jack',
      text: 'e2e: a reply',
      inReplyToId: originalId,
    });
    const quote = await call('POST', '/sim/tweets', {
      author: 'jack',
      text: 'e2e: a quote with a photo',
      quotedTweetId: originalId,
      media: [{ type: 'photo' }],
    });
    const repost = await call('POST', '/sim/tweets', { author: 'jack', retweetOfId: originalId });
    const bio = await call('PATCH', '/sim/users/jack', { description: 'e2e: a new bio' });
    expect([reply.status, quote.status, repost.status, bio.status]).toEqual([201, 201, 201, 200]);

    const created = await deliveryOf('tweet.new', (d) => d.id === originalId);
    expect(created).toMatchObject({
      schemaVersion: 1,
      username: 'jack',
      data: { id: originalId, text: 'e2e: a new tweet', author: { userName: 'jack' }, isReply: false },
    });
    expect(created.deliveryId).toEqual(expect.any(String));
    expect(await deliveryOf('tweet.reply', (d) => d.id === reply.body.id)).toMatchObject({
      data: { isReply: true, inReplyToId: originalId },
    });
    expect(await deliveryOf('tweet.quote', (d) => d.id === quote.body.id)).toMatchObject({
      data: { isQuote: true, quoted_tweet: { id: originalId } },
    });
    await deliveryOf('tweet.media', (d) => d.id === quote.body.id);
    await deliveryOf('tweet.retweet', (d) => d.id === repost.body.id);
    expect(await deliveryOf('profile.bio.changed', () => true)).toMatchObject({
      data: { current: 'e2e: a new bio' },
    });

    // Every request was verified; each delivery joins to its stored event.
    expect(receiver.received.every((r) => r.event !== undefined)).toBe(true);
    const events = await call('GET', `/api/v1/events?monitorId=${monitor.body.id}&limit=100`);
    const stored = new Set((events.body.events as { id: string }[]).map((e) => e.id));
    for (const r of receiver.received) expect(stored.has(String(r.event?.streamEventId))).toBe(true);
    expect(stored.size).toBe(receiver.received.length);

    const deliveries = await call('GET', `/api/v1/webhooks/${hook.body.id}/deliveries`);
    expect(deliveries.status).toBe(200);
  }, 60_000);
});
