import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as web from '../src/index.js';
import * as node from '../src/node.js';
import { BODY, NOW, SECRET, signed } from './helpers.js';

describe.each([
  ['web', web.verifyWebhookRequest],
  ['node', node.verifyWebhookRequest],
] as const)('%s build: verifyWebhookRequest', (_, verifyWebhookRequest) => {
  const request = (body: BodyInit, headers: Record<string, string>) =>
    new Request('https://receiver.example/webhooks', { method: 'POST', body, headers });

  it('verifies the raw bytes of a Fetch Request', async () => {
    const { body, headers } = signed();
    const event = await verifyWebhookRequest(request(body, headers), {
      secret: SECRET,
      now: () => NOW,
      nonceStore: false,
    });
    expect(event).toEqual(JSON.parse(BODY));
  });

  it('rejects a tampered body', async () => {
    const { body, headers } = signed();
    await expect(
      verifyWebhookRequest(request(`${body}\n`, headers), {
        secret: SECRET,
        now: () => NOW,
        nonceStore: false,
      }),
    ).rejects.toMatchObject({ reason: 'signature_mismatch' });
  });

  it('a body already read is a TypeError that says to verify first', async () => {
    const { body, headers } = signed();
    const r = request(body, headers);
    await r.json();
    await expect(verifyWebhookRequest(r, { secret: SECRET })).rejects.toThrow(/already read/);
  });
});

describe('readRawBody (node build)', () => {
  it('joins chunks into one Buffer that verifies, emoji split across chunks included', async () => {
    const { body, headers } = signed();
    const bytes = Buffer.from(body);
    const chunks = [bytes.subarray(0, 150), bytes.subarray(150, 151), bytes.subarray(151)];
    const raw = await node.readRawBody(Readable.from(chunks));
    expect(raw.equals(bytes)).toBe(true);
    expect(
      node.verifyWebhookSync({ payload: raw, headers, secret: SECRET, now: () => NOW, nonceStore: false }),
    ).toEqual(JSON.parse(body));
  });

  it('stops with a RangeError past limitBytes', async () => {
    await expect(
      node.readRawBody(Readable.from([Buffer.alloc(10), Buffer.alloc(10)]), { limitBytes: 15 }),
    ).rejects.toThrow(RangeError);
    await expect(
      node.readRawBody(Readable.from([Buffer.alloc(15)]), { limitBytes: 15 }),
    ).resolves.toHaveLength(15);
  });

  it('accepts string chunks and rejects a non-stream', async () => {
    expect((await node.readRawBody(Readable.from(['é', 'a'], { objectMode: true }))).toString()).toBe('éa');
    await expect(node.readRawBody({} as AsyncIterable<Uint8Array>)).rejects.toThrow(TypeError);
  });
});
