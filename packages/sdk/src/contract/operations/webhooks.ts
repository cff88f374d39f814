import { z } from 'zod';
import { EventTypeArray } from '../events.js';
import { defineOperation } from '../operation.js';
import { SuccessSchema } from '../schemas/common.js';
import {
  DeliverySchema,
  WebhookResumeResultSchema,
  WebhookSchema,
  WebhookTestResultSchema,
  WebhookWithSecretSchema,
} from '../schemas/webhooks.js';
import { ResourceId } from '../zod-helpers.js';

const keyOrToken = ['apiKey', 'oauth', 'session'] as const;

const webhookId = z.object({ id: ResourceId.describe('Identifier of the webhook.') });

/**
 * Plain http is accepted by the schema only towards `127.0.0.1` or `localhost`, so that a server started
 * for local development (`XSVC_ALLOW_LOOPBACK_WEBHOOKS=1`) can deliver to a receiver on the same machine;
 * every other server refuses those too (it checks every URL and where it resolves).
 */
function isHttpsOrLoopbackHttp(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.hostname === '127.0.0.1' || u.hostname === 'localhost';
  } catch {
    return false;
  }
}

const httpsUrl = z
  .url({ protocol: /^https?$/ })
  .refine(isHttpsOrLoopbackHttp, 'the URL must be https')
  .describe(
    'HTTPS endpoint to deliver to. It must not resolve to a private or internal address ' +
      '(loopback, 10.x, 172.16-31.x, 192.168.x, 169.254.x): the server checks where it resolves.',
  );

export const listWebhooks = defineOperation({
  id: 'listWebhooks',
  method: 'GET',
  path: '/api/v1/webhooks',
  tag: 'Webhooks',
  summary: 'List the webhooks with their delivery health',
  description: 'Returns every webhook of the account (at most 200), without pagination and without secrets.',
  sdk: ['webhooks', 'list'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: z.object({ webhooks: z.array(WebhookSchema).describe('The webhooks, at most 200.') }),
  errors: [],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'webhooks list',
});

export const createWebhook = defineOperation({
  id: 'createWebhook',
  method: 'POST',
  path: '/api/v1/webhooks',
  tag: 'Webhooks',
  summary: 'Register an HTTPS endpoint for signed event deliveries',
  description:
    'The answer carries the signing secret, shown only this once. Every matching event is POSTed to the URL, ' +
    'signed with `X-Svc-Signature` over `<timestamp>.<nonce>.<body>`.',
  sdk: ['webhooks', 'create'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: z.object({
    url: httpsUrl,
    eventTypes: EventTypeArray.describe('Event types to deliver: at least one of the 21, no repeats.'),
  }),
  success: [201],
  response: WebhookWithSecretSchema,
  errors: ['invalid_input'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example: 'webhooks create --url https://example.com/hooks/xsvc --event-types tweet.new,tweet.reply',
});

export const updateWebhook = defineOperation({
  id: 'updateWebhook',
  method: 'PATCH',
  path: '/api/v1/webhooks/{id}',
  tag: 'Webhooks',
  summary: 'Change the URL or event types of a webhook, or switch it on or off',
  sdk: ['webhooks', 'update'],
  auth: keyOrToken,
  params: webhookId,
  query: null,
  body: z
    .object({
      url: httpsUrl.optional(),
      eventTypes: EventTypeArray.optional().describe('New event types; replaces the current list.'),
      isActive: z
        .boolean()
        .optional()
        .describe('False stops deliveries to the endpoint; true restarts them.'),
    })
    .refine((b) => b.url !== undefined || b.eventTypes !== undefined || b.isActive !== undefined, {
      message: 'at least one of url, eventTypes or isActive is required',
    }),
  success: [200],
  response: WebhookSchema,
  errors: ['invalid_id', 'invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'webhooks update 1234567890 --event-types tweet.new',
});

export const deleteWebhook = defineOperation({
  id: 'deleteWebhook',
  method: 'DELETE',
  path: '/api/v1/webhooks/{id}',
  tag: 'Webhooks',
  summary: 'Deactivate a webhook',
  description: 'Stops all deliveries to the endpoint.',
  sdk: ['webhooks', 'delete'],
  auth: keyOrToken,
  params: webhookId,
  query: null,
  body: null,
  success: [200],
  response: SuccessSchema,
  errors: ['invalid_id', 'invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'webhooks delete 1234567890',
});

export const listWebhookDeliveries = defineOperation({
  id: 'listWebhookDeliveries',
  method: 'GET',
  path: '/api/v1/webhooks/{id}/deliveries',
  tag: 'Webhooks',
  summary: 'List the recent deliveries of a webhook',
  description:
    'Each delivery names the stored event it carried (`streamEventId`); re-read failed or exhausted ones ' +
    'through the events operations.',
  sdk: ['webhooks', 'deliveries'],
  auth: keyOrToken,
  params: webhookId,
  query: null,
  body: null,
  success: [200],
  response: z.object({
    deliveries: z.array(DeliverySchema).describe('Recent delivery records of the webhook.'),
  }),
  errors: ['invalid_id', 'invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'webhooks deliveries 1234567890',
});

export const testWebhook = defineOperation({
  id: 'testWebhook',
  method: 'POST',
  path: '/api/v1/webhooks/{id}/test',
  tag: 'Webhooks',
  summary: 'Send a signed `webhook.test` delivery to the endpoint',
  description:
    'The test payload has no `deliveryId` or `streamEventId`; the answer reports what the endpoint said.',
  sdk: ['webhooks', 'test'],
  auth: keyOrToken,
  params: webhookId,
  query: null,
  body: null,
  success: [200],
  response: WebhookTestResultSchema,
  errors: ['invalid_id', 'invalid_input', 'not_found', 'webhook_inactive'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example: 'webhooks test 1234567890',
});

export const resumeWebhook = defineOperation({
  id: 'resumeWebhook',
  method: 'POST',
  path: '/api/v1/webhooks/{id}/resume',
  tag: 'Webhooks',
  summary: 'Test the endpoint with a signed delivery and resume deliveries if it succeeds',
  description:
    'For an endpoint in `needs_attention`. When the signed test fails the answer is 400 with ' +
    '`{ success: false, statusCode, error }` and the endpoint stays paused.',
  sdk: ['webhooks', 'resume'],
  auth: keyOrToken,
  params: webhookId,
  query: null,
  body: null,
  success: [200],
  response: WebhookResumeResultSchema,
  errors: ['invalid_id', 'invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example: 'webhooks resume 1234567890',
});

/** The Webhooks operations. */
export const webhooksOperations = [
  listWebhooks,
  createWebhook,
  updateWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  testWebhook,
  resumeWebhook,
] as const;
