import { z } from 'zod';
import { EVENT_TYPES } from '../events.js';
import { openEnum } from '../zod-helpers.js';

/** Health of a webhook endpoint (spec 3.4): `needs_attention` once failures reach `failureHardCap`. */
export const WEBHOOK_DELIVERY_STATUSES = ['active', 'paused', 'needs_attention'] as const;

/** State of one delivery (spec 3.3). */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'exhausted'] as const;

/** A webhook endpoint as listed and updated (spec 2.6); the secret is never shown again after creation. */
export const WebhookSchema = z.object({
  id: z.string().describe('Identifier of the webhook.'),
  url: z.string().describe('HTTPS endpoint that receives the signed deliveries.'),
  eventTypes: z.array(openEnum(EVENT_TYPES)).describe('Event types delivered to this endpoint.'),
  isActive: z.boolean().describe('False once the webhook was deactivated; inactive endpoints get nothing.'),
  deliveryStatus: openEnum(WEBHOOK_DELIVERY_STATUSES).describe(
    'Endpoint health: `needs_attention` after repeated failures; resume it with a succeeding signed test.',
  ),
  consecutiveFailures: z.number().int().describe('Failed deliveries in a row since the last success.'),
  failureHardCap: z
    .number()
    .int()
    .describe('Consecutive failures at which the endpoint is set to `needs_attention`.'),
  createdAt: z.string().describe('When the webhook was created (ISO 8601).'),
});

/** The answer of webhook creation: the only time the signing secret is shown. */
export const WebhookWithSecretSchema = z.object({
  id: z.string().describe('Identifier of the new webhook.'),
  url: z.string().describe('HTTPS endpoint that receives the signed deliveries.'),
  eventTypes: z.array(openEnum(EVENT_TYPES)).describe('Event types delivered to this endpoint.'),
  secret: z.string().describe('Hex signing secret for `X-Svc-Signature`; shown only now, store it safely.'),
  createdAt: z.string().describe('When the webhook was created (ISO 8601).'),
});

/** One delivery of a stored event to a webhook endpoint (spec 2.6, 3.3). */
export const DeliverySchema = z.object({
  id: z.string().describe('Identifier of the delivery record.'),
  status: openEnum(DELIVERY_STATUSES).describe(
    '`pending` before the first answer, `delivered` on 2xx, `failed` while retrying, `exhausted` after 10 attempts or a 410.',
  ),
  attempts: z.number().int().describe('Attempts made so far (at most 10).'),
  lastStatusCode: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('HTTP status of the last attempt; null or absent when no answer was received.'),
  lastError: z
    .string()
    .optional()
    .describe('Why the last attempt failed (timeout, connection error, status).'),
  createdAt: z.string().describe('When the delivery was queued (ISO 8601).'),
  deliveredAt: z.string().optional().describe('When the endpoint answered 2xx (ISO 8601), once delivered.'),
  streamEventId: z.string().describe('Stored event this delivery carries; joins to the events operations.'),
  deliveryId: z.string().describe('Delivery id sent in the payload, the receiver-side idempotency key.'),
  eventType: openEnum(EVENT_TYPES).describe('Event type of the delivered event.'),
  nextAttemptAt: z
    .string()
    .optional()
    .describe('When the next retry is scheduled (ISO 8601), while failing.'),
});

/** The answer of the webhook test: the outcome of one `webhook.test` delivery. */
export const WebhookTestResultSchema = z.object({
  success: z.boolean().describe('True when the endpoint answered 2xx.'),
  statusCode: z.number().int().describe('HTTP status the endpoint answered with (0 when unreachable).'),
  error: z.string().optional().describe('Why the test failed, when it did.'),
});

/** The answer of a successful resume: the signed test passed and deliveries restart. */
export const WebhookResumeResultSchema = z.object({
  success: z.boolean().describe('True: the signed test succeeded and the endpoint is delivering again.'),
  statusCode: z.number().int().describe('HTTP status the endpoint answered the signed test with.'),
  webhook: WebhookSchema.describe('The webhook after resuming.'),
});

export type Webhook = z.infer<typeof WebhookSchema>;
export type WebhookWithSecret = z.infer<typeof WebhookWithSecretSchema>;
export type Delivery = z.infer<typeof DeliverySchema>;
export type WebhookTestResult = z.infer<typeof WebhookTestResultSchema>;
export type WebhookResumeResult = z.infer<typeof WebhookResumeResultSchema>;
