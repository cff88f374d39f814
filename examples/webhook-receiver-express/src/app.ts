/**
 * An Express 5 receiver for the service's webhooks: `express.raw` keeps the body as bytes (the signature
 * covers them), `verifyWebhook` checks signature, time and nonce, and `handleOnce` runs the handler once
 * per event even when the service redelivers it with a fresh signature.
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
import express, { type Express } from 'express';

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

/** Builds the Express app, separate from `listen` so tests and hosts choose the port. */
export function createApp(options: ReceiverOptions): Express {
  const nonceStore = options.nonceStore ?? createMemoryNonceStore();
  const dedupeStore = options.dedupeStore ?? createMemoryDedupeStore();
  const app = express();

  // Raw bytes, never express.json(): a parsed and re-serialised body no longer matches the signature.
  app.post(
    options.path ?? '/webhooks',
    express.raw({ type: 'application/json', limit: '1mb' }),
    async (req, res) => {
      if (!Buffer.isBuffer(req.body)) {
        res.status(415).json({ error: 'expected Content-Type: application/json' });
        return;
      }
      try {
        const event = await verifyWebhook({
          payload: req.body,
          headers: req.headers,
          secret: options.secret,
          nonceStore,
        });
        const answer = receiverAnswer(await handleOnce(event, dedupeStore, options.onEvent))!;
        res.status(answer.status).json(answer.body);
      } catch (error) {
        const answer = receiverAnswer(error);
        if (answer !== undefined) {
          res.status(answer.status).json(answer.body);
          return;
        }
        // A failing handler or store: 500, so the service retries the delivery later.
        console.error('webhook handler failed', error);
        res.status(500).json({ error: 'internal_error' });
      }
    },
  );
  return app;
}
