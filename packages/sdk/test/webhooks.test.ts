import { signWebhook, WebhookVerificationError } from '@xsvc/webhook-verifier';
import { describe, expect, it } from 'vitest';
import { verifyWebhookEvent, Xsvc } from '../src/index.js';

const secret = 'a'.repeat(64);
const payload = JSON.stringify({
  eventType: 'tweet.reply',
  schemaVersion: 1,
  deliveryId: 'dlv_1',
  streamEventId: 'evt_1',
  occurredAt: '2026-04-29T12:00:00.000Z',
  username: 'jack',
  data: {
    id: '2',
    text: 'hi',
    author: { id: '1', userName: 'jack', name: 'Jack' },
    isRetweet: false,
    isReply: true,
    isQuote: false,
    createdAt: '2026-04-29T12:00:00.000Z',
    inReplyToId: '1',
  },
});

describe('webhook verification through the SDK', () => {
  it('returns the event typed by eventType', async () => {
    const headers = await signWebhook({ secret, payload });
    const client = new Xsvc({ apiKey: 'svc_x', fetch: globalThis.fetch });
    const event = await client.webhooks.verify({ payload, headers, secret, nonceStore: false });
    expect(event.eventType).toBe('tweet.reply');
    if (event.eventType === 'tweet.reply') expect(event.data.inReplyToId).toBe('1');
  });

  it('rejects a tampered body with the verifier error', async () => {
    const headers = await signWebhook({ secret, payload });
    await expect(
      verifyWebhookEvent({ payload: payload.replace('hi', 'ho'), headers, secret }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});
