import type { WebhookVerifyOptions } from '@xsvc/webhook-verifier';
import { WebhooksResource } from '../resources.generated.js';
import type { TypedWebhookEvent } from '../webhook-events.js';

/**
 * Loaded on first use: most programs never verify a delivery, and the verifier's crypto need not cost them
 * start-up time.
 */
async function verify(options: WebhookVerifyOptions): Promise<TypedWebhookEvent> {
  const { verifyWebhook } = await import('@xsvc/webhook-verifier');
  return (await verifyWebhook(options)) as TypedWebhookEvent;
}

/** `client.webhooks`: the webhook operations, plus verification of deliveries. */
export class WebhooksApi extends WebhooksResource {
  /**
   * Verifies a delivery (signature, timestamp, nonce: `@xsvc/webhook-verifier`) and returns the event typed
   * by `eventType`. Pass the RAW body bytes or string, never a parsed object.
   */
  verify(options: WebhookVerifyOptions): Promise<TypedWebhookEvent> {
    return verify(options);
  }
}

/** Verifies a webhook delivery without a client; see {@link WebhooksApi.verify}. */
export function verifyWebhookEvent(options: WebhookVerifyOptions): Promise<TypedWebhookEvent> {
  return verify(options);
}
