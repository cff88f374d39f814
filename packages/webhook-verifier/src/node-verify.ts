import { decodeSignature, hmac, verifyHmac } from './node-crypto.js';
import { decodeBody } from './node-utf8.js';
import { parseEvent } from './payload.js';
import { prepareSignature, signatureHeaders } from './sign-core.js';
import type {
  WebhookEvent,
  WebhookSignatureHeaders,
  WebhookSignOptions,
  WebhookVerifyOptions,
} from './types.js';
import { acceptNonce, isThenable, prepareDelivery, signatureMismatch } from './verify-core.js';

/**
 * Synchronous verification for Node: for code paths that cannot await (a sync framework hook, a stream
 * transform). Same checks and errors as `verifyWebhook`; the nonce store must answer synchronously (the
 * default memory store does), an asynchronous one is a `TypeError` here.
 */
export function verifyWebhookSync(options: WebhookVerifyOptions): WebhookEvent {
  const delivery = prepareDelivery(options, 'verifyWebhookSync', decodeSignature);
  if (!verifyHmac(delivery.secrets, delivery.prefix, delivery.body, delivery.signature))
    throw signatureMismatch();
  const store = delivery.nonceStore;
  if (store !== undefined) {
    const fresh = store.checkAndStore(delivery.nonceKey, delivery.nonceExpiresAt, delivery.receivedAt);
    if (isThenable(fresh)) {
      throw new TypeError('verifyWebhookSync: the nonce store is asynchronous; use verifyWebhook instead.');
    }
    acceptNonce(fresh);
  }
  return parseEvent(decodeBody(delivery.body));
}

/**
 * Verifies a delivery and returns its event, like the Web build's `verifyWebhook` (same API, same results)
 * but on node:crypto. Only an asynchronous nonce store costs a real await; errors are always rejections.
 */
export function verifyWebhook(options: WebhookVerifyOptions): Promise<WebhookEvent> {
  try {
    const delivery = prepareDelivery(options, 'verifyWebhook', decodeSignature);
    if (!verifyHmac(delivery.secrets, delivery.prefix, delivery.body, delivery.signature)) {
      throw signatureMismatch();
    }
    const store = delivery.nonceStore;
    if (store !== undefined) {
      const fresh = store.checkAndStore(delivery.nonceKey, delivery.nonceExpiresAt, delivery.receivedAt);
      if (isThenable(fresh)) {
        return Promise.resolve(fresh).then((settled) => {
          acceptNonce(settled);
          return parseEvent(decodeBody(delivery.body));
        });
      }
      acceptNonce(fresh);
    }
    return Promise.resolve(parseEvent(decodeBody(delivery.body)));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Synchronous `signWebhook` for Node: a sender can sign inline without awaiting. */
export function signWebhookSync(options: WebhookSignOptions): WebhookSignatureHeaders {
  return sign(options, 'signWebhookSync');
}

/** Signs a body the way the service does (spec 6.3) and returns the three headers to send with it. */
export function signWebhook(options: WebhookSignOptions): Promise<WebhookSignatureHeaders> {
  try {
    return Promise.resolve(sign(options, 'signWebhook'));
  } catch (error) {
    return Promise.reject(error);
  }
}

function sign(options: WebhookSignOptions, caller: string): WebhookSignatureHeaders {
  const prepared = prepareSignature(options, caller);
  return signatureHeaders(prepared, hmac(prepared.secret, prepared.prefix, prepared.body));
}
