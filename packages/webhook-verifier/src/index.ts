/**
 * @xsvc/webhook-verifier, Web build: verifies signed webhook deliveries of the service with Web Crypto, so the
 * same code runs in Workers, Vercel Edge, Deno, Bun, browsers and Node. It imports nothing from `node:*`
 * (a test bundles it and checks). Node resolves the package root to the node:crypto build instead, which
 * exports the same API plus synchronous variants.
 */

export { type ReceiverAnswer, type ReceiverAnswerBody, receiverAnswer } from './answer.js';
export {
  createMemoryDedupeStore,
  DEFAULT_DEDUPE_WINDOW_MS,
  type DedupeReservation,
  type DedupeStore,
  type MemoryDedupeStoreOptions,
  RETRY_PERIOD_MS,
} from './dedupe-store.js';
export {
  isWebhookVerificationError,
  WEBHOOK_VERIFICATION_REASONS,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './errors.js';
export { dedupeKeys, type HandleOnceResult, handleOnce } from './handle-once.js';
export {
  WEBHOOK_HEADERS,
  WEBHOOK_NONCE_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from './headers.js';
export {
  createMemoryNonceStore,
  type MemoryNonceStore,
  type MemoryNonceStoreOptions,
  type NonceStore,
} from './nonce-store.js';
export {
  type HeadersLike,
  isWebhookTestEvent,
  type MonitorWebhookEvent,
  type RequestLike,
  type WebhookEvent,
  type WebhookHeaders,
  type WebhookPayload,
  type WebhookRequestVerifyOptions,
  type WebhookSignatureHeaders,
  type WebhookSignOptions,
  type WebhookTestEvent,
  type WebhookVerifyOptions,
} from './types.js';
export { DEFAULT_TOLERANCE_MS } from './verify-core.js';
export { signWebhook, verifyWebhook } from './web-verify.js';

import { verifyRequestWith } from './request.js';
import { verifyWebhook } from './web-verify.js';

/**
 * Verifies a Fetch `Request` (Next.js App Router, Hono, Workers, Deno, Bun): reads its raw bytes with
 * `arrayBuffer()` and checks them against its headers. Do not read the body before calling it.
 */
export const verifyWebhookRequest = verifyRequestWith(verifyWebhook);
