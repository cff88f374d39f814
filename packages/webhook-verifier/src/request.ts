import type {
  RequestLike,
  WebhookEvent,
  WebhookRequestVerifyOptions,
  WebhookVerifyOptions,
} from './types.js';

/**
 * Builds `verifyWebhookRequest` around a build's `verifyWebhook`: reads the raw bytes with
 * `request.arrayBuffer()` (never `request.json()`, which would lose them) and verifies them with the
 * request's own headers.
 */
export function verifyRequestWith(
  verify: (options: WebhookVerifyOptions) => Promise<WebhookEvent>,
): (request: RequestLike, options: WebhookRequestVerifyOptions) => Promise<WebhookEvent> {
  return async (request, options) => {
    if (typeof request !== 'object' || request === null || typeof request.arrayBuffer !== 'function') {
      throw new TypeError('verifyWebhookRequest: expected a Fetch Request.');
    }
    if (request.bodyUsed === true) {
      throw new TypeError(
        'verifyWebhookRequest: the request body was already read (request.json() or text()); verify first, ' +
          'or pass a request.clone() made before reading.',
      );
    }
    const payload = await request.arrayBuffer();
    return verify({ ...options, payload, headers: request.headers });
  };
}
