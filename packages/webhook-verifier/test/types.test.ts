import type { IncomingHttpHeaders } from 'node:http';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  MonitorWebhookEvent,
  WebhookEvent,
  WebhookTestEvent,
  WebhookVerifyOptions,
} from '../src/index.js';
import * as web from '../src/index.js';
import * as node from '../src/node.js';

// Checked by `tsc` (the package's typecheck) as well as run: a wrong type here fails the build.
describe('public types', () => {
  it('both builds expose the same shared API', () => {
    expectTypeOf(node.verifyWebhook).toEqualTypeOf(web.verifyWebhook);
    expectTypeOf(node.signWebhook).toEqualTypeOf(web.signWebhook);
    expectTypeOf(node.verifyWebhookRequest).toEqualTypeOf(web.verifyWebhookRequest);
    expectTypeOf(node.verifyWebhookSync).returns.toEqualTypeOf<WebhookEvent>();
    expectTypeOf(web.verifyWebhook).returns.resolves.toEqualTypeOf<WebhookEvent>();
  });

  it('accepts the inputs receivers actually have', () => {
    const nodeHeaders: IncomingHttpHeaders = {};
    expectTypeOf({
      payload: Buffer.alloc(0),
      headers: nodeHeaders,
      secret: 's',
    }).toExtend<WebhookVerifyOptions>();
    expectTypeOf({
      payload: new ArrayBuffer(0),
      headers: new Headers(),
      secret: ['a', 'b'],
    }).toExtend<WebhookVerifyOptions>();
    expectTypeOf({
      payload: '',
      headers: {},
      secret: 's',
      webhookId: undefined,
      now: undefined,
    }).toExtend<WebhookVerifyOptions>();
    // Signed headers go straight into verifyWebhook and fetch.
    expectTypeOf<web.WebhookSignatureHeaders>().toExtend<WebhookVerifyOptions['headers']>();
    expectTypeOf<web.WebhookSignatureHeaders>().toExtend<HeadersInit>();
  });

  it('rejects a parsed body and a missing secret at compile time', () => {
    // @ts-expect-error a parsed object is not a payload
    const parsed: WebhookVerifyOptions = { payload: { eventType: 'x' }, headers: {}, secret: 's' };
    // @ts-expect-error the secret is required
    const noSecret: WebhookVerifyOptions = { payload: '', headers: {} };
    void parsed;
    void noSecret;
  });

  it('isWebhookTestEvent narrows both ways', () => {
    const handle = (event: WebhookEvent) => {
      if (web.isWebhookTestEvent(event)) {
        expectTypeOf(event).toEqualTypeOf<WebhookTestEvent>();
        expectTypeOf(event.data.message).toBeString();
        return;
      }
      expectTypeOf(event).toEqualTypeOf<MonitorWebhookEvent>();
      expectTypeOf(event.deliveryId).toBeString();
    };
    void handle;
  });

  it('MonitorWebhookEvent can be narrowed by a typed client', () => {
    type TweetNew = MonitorWebhookEvent<'tweet.new', { id: string; text: string }>;
    expectTypeOf<TweetNew['eventType']>().toEqualTypeOf<'tweet.new'>();
    expectTypeOf<TweetNew>().toExtend<WebhookEvent>();
  });

  it('reasons are a closed union', () => {
    expectTypeOf<web.WebhookVerificationReason>().toEqualTypeOf<
      | 'missing_header'
      | 'malformed_header'
      | 'timestamp_out_of_range'
      | 'signature_mismatch'
      | 'nonce_replayed'
      | 'invalid_payload'
    >();
  });
});
