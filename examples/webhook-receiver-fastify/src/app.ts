/**
 * A Fastify 5 receiver for the service's webhooks: the JSON content-type parser is replaced by one that keeps
 * the body as a `Buffer` (the signature covers the bytes), `verifyWebhook` checks signature, time and nonce,
 * and `handleOnce` runs the handler once per event even when the service redelivers it.
 */
import {
  createMemoryDedupeStore,
  createMemoryNonceStore,
  type DedupeStore,
  handleOnce,
  type NonceStore,
  receiverAnswer,
  verifyWebhook,
  type WebhookEvent,
} from '@xsvc/webhook-verifier';
import Fastify, { type FastifyInstance } from 'fastify';

/** What the receiver needs; the stores default to in-memory ones (use Redis ones for several processes). */
export interface ReceiverOptions {
  /** The endpoint secret, or several during a rotation. */
  readonly secret: string | readonly string[];
  /** Your code: runs once per event; throw to have the service retry. */
  readonly onEvent: (event: WebhookEvent) => unknown;
  readonly nonceStore?: NonceStore;
  readonly dedupeStore?: DedupeStore;
  /** Path of the endpoint. Default `/webhooks`. */
  readonly path?: string;
}

/** Builds the Fastify instance, separate from `listen` so tests and hosts choose the port. */
export function createApp(options: ReceiverOptions): FastifyInstance {
  const nonceStore = options.nonceStore ?? createMemoryNonceStore();
  const dedupeStore = options.dedupeStore ?? createMemoryDedupeStore();
  const app = Fastify({ bodyLimit: 1024 * 1024 });

  // Keep the raw bytes: Fastify's default JSON parser would hand over an object that no longer matches the
  // signature. In an app with other JSON routes, register this inside a plugin scoped to the webhook route.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });

  app.post(options.path ?? '/webhooks', async (request, reply) => {
    // Deliveries are always JSON; anything else (Fastify parses text/plain into a string) is refused.
    if (!Buffer.isBuffer(request.body)) {
      return reply.status(415).send({ error: 'expected Content-Type: application/json' });
    }
    try {
      const event = await verifyWebhook({
        payload: request.body,
        headers: request.headers,
        secret: options.secret,
        nonceStore,
      });
      const answer = receiverAnswer(await handleOnce(event, dedupeStore, options.onEvent))!;
      return reply.status(answer.status).send(answer.body);
    } catch (error) {
      const answer = receiverAnswer(error);
      if (answer !== undefined) return reply.status(answer.status).send(answer.body);
      // A failing handler or store: 500, so the service retries the delivery later.
      request.log.error({ err: error }, 'webhook handler failed');
      return reply.status(500).send({ error: 'internal_error' });
    }
  });
  return app;
}
