/**
 * A Fetch-API receiver for the service's webhooks: `(request: Request) => Promise<Response>`, the shape of a
 * Next.js App Router route handler, a Hono handler, a Cloudflare Worker's `fetch`, `Deno.serve` and
 * `Bun.serve`. It imports the `/web` build (Web Crypto, no Node APIs) so the code that runs here under Node is
 * the code those runtimes run; the package root would also pick that build automatically there.
 */
import {
  createMemoryDedupeStore,
  createMemoryNonceStore,
  type DedupeStore,
  handleOnce,
  type NonceStore,
  receiverAnswer,
  verifyWebhookRequest,
  type WebhookEvent,
} from '@xsvc/webhook-verifier/web';

/** What the receiver needs; the stores default to in-memory ones (use shared ones for several instances). */
export interface ReceiverOptions {
  /** The endpoint secret, or several during a rotation. */
  readonly secret: string | readonly string[];
  /** Your code: runs once per event; throw to have the service retry. */
  readonly onEvent: (event: WebhookEvent) => unknown;
  readonly nonceStore?: NonceStore;
  readonly dedupeStore?: DedupeStore;
}

/** Builds the handler. It reads the raw body itself (`request.arrayBuffer()`): do not read it before. */
export function createWebhookHandler(options: ReceiverOptions): (request: Request) => Promise<Response> {
  const nonceStore = options.nonceStore ?? createMemoryNonceStore();
  const dedupeStore = options.dedupeStore ?? createMemoryDedupeStore();
  return async (request) => {
    if (request.method !== 'POST') return Response.json({ error: 'method_not_allowed' }, { status: 405 });
    try {
      const event = await verifyWebhookRequest(request, { secret: options.secret, nonceStore });
      const answer = receiverAnswer(await handleOnce(event, dedupeStore, options.onEvent))!;
      return Response.json(answer.body, { status: answer.status });
    } catch (error) {
      const answer = receiverAnswer(error);
      if (answer !== undefined) return Response.json(answer.body, { status: answer.status });
      // A failing handler or store: 500, so the service retries the delivery later.
      console.error('webhook handler failed', error);
      return Response.json({ error: 'internal_error' }, { status: 500 });
    }
  };
}
