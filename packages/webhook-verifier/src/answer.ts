import { isWebhookVerificationError, type WebhookVerificationReason } from './errors.js';

/** The JSON a receiver sends back; the sender only looks at the status, people read the body. */
export type ReceiverAnswerBody =
  | { readonly ok: true; readonly duplicate?: true }
  | { readonly error: WebhookVerificationReason | 'in_progress' };

/** A status and JSON body for the receiver to send. */
export interface ReceiverAnswer {
  readonly status: 200 | 400 | 409;
  readonly body: ReceiverAnswerBody;
}

/**
 * What to answer the sender (spec 6.4), in one place so every framework answers alike: 200 for a processed
 * event and for a duplicate (rule 4: already accepted), 400 `{ error: reason }` for a rejected delivery,
 * 409 while the same event is being processed by another delivery (so it is retried). Never 410, which
 * would stop all deliveries to the endpoint (rule 6). Anything else (a bug, a failing store or handler) is
 * not a delivery outcome: `undefined` is returned, so rethrow it and answer 500 (the sender retries).
 * `outcome` is a `handleOnce` result or a caught error.
 */
export function receiverAnswer(outcome: unknown): ReceiverAnswer | undefined {
  if (isWebhookVerificationError(outcome)) return { status: 400, body: { error: outcome.reason } };
  const status = (outcome as { status?: unknown } | null)?.status;
  if (status === 'processed') return { status: 200, body: { ok: true } };
  if (status === 'duplicate') return { status: 200, body: { ok: true, duplicate: true } };
  if (status === 'in_progress') return { status: 409, body: { error: 'in_progress' } };
  return undefined;
}
