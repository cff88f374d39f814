import { parseEvent } from './payload.js';
import { prepareSignature, signatureHeaders } from './sign-core.js';
import type {
  WebhookEvent,
  WebhookSignatureHeaders,
  WebhookSignOptions,
  WebhookVerifyOptions,
} from './types.js';
import { decodeBody } from './utf8.js';
import { acceptNonce, decodeSignatureHex, prepareDelivery, signatureMismatch } from './verify-core.js';
import { signedBytes, signHmac, verifyHmac } from './web-crypto.js';

/**
 * Verifies a delivery and returns its event: headers, timestamp, signature, then the nonce (only once the
 * signature is valid), then the JSON. Rejects with a `WebhookVerificationError` for a bad delivery and a
 * `TypeError` for misuse; never throws synchronously. Web Crypto build: runs anywhere `crypto.subtle` does.
 */
export async function verifyWebhook(options: WebhookVerifyOptions): Promise<WebhookEvent> {
  const delivery = prepareDelivery(options, 'verifyWebhook', decodeSignatureHex);
  const data = signedBytes(delivery.prefix, delivery.body);
  if (!(await verifyHmac(delivery.secrets, data, delivery.signature))) throw signatureMismatch();
  const store = delivery.nonceStore;
  if (store !== undefined) {
    acceptNonce(await store.checkAndStore(delivery.nonceKey, delivery.nonceExpiresAt, delivery.receivedAt));
  }
  return parseEvent(decodeBody(delivery.body));
}

/**
 * Signs a body the way the service does (spec 6.3) and returns the three headers to send with it. The
 * service signs its own deliveries with this, so sender and receiver cannot disagree on the format.
 */
export async function signWebhook(options: WebhookSignOptions): Promise<WebhookSignatureHeaders> {
  const prepared = prepareSignature(options, 'signWebhook');
  return signatureHeaders(
    prepared,
    await signHmac(prepared.secret, signedBytes(prepared.prefix, prepared.body)),
  );
}
