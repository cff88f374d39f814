import type { JsonObject } from './json-schema.js';
import { schemaRef, WEBHOOK_EVENT_PAYLOAD, WEBHOOK_TEST_PAYLOAD } from './openapi-components.js';

const signatureHeaders: JsonObject[] = [
  {
    name: 'X-Svc-Timestamp',
    in: 'header',
    required: true,
    description: 'Unix epoch milliseconds of the signature; reject it more than 5 minutes from now.',
    schema: { type: 'string', pattern: '^\\d{13}$' },
  },
  {
    name: 'X-Svc-Nonce',
    in: 'header',
    required: true,
    description: '16 random bytes as hex; reject a nonce seen within 5 minutes.',
    schema: { type: 'string', pattern: '^[0-9a-f]{32}$' },
  },
  {
    name: 'X-Svc-Signature',
    in: 'header',
    required: true,
    description:
      '`sha256=` + hex HMAC-SHA256 of `<timestamp>.<nonce>.<rawBody>` keyed with the endpoint secret.',
    schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
  },
];

const receiverResponses: JsonObject = {
  '200': {
    description:
      'Accepted (any 2xx, within 10 seconds). Duplicates of a `deliveryId` or `streamEventId` should be accepted too.',
  },
  '410': { description: 'Stop: the delivery is exhausted at once.' },
  default: {
    description:
      'A failure: the delivery is retried (up to 10 attempts: 1, 2, 4, 8, 16, 32, then 60 seconds apart).',
  },
};

/** The requests the service sends to webhook endpoints (spec 6.3), as OpenAPI 3.1 `webhooks`. */
export function webhooksObject(): JsonObject {
  return {
    monitorEvent: {
      post: {
        operationId: 'monitorEvent',
        tags: ['Webhooks'],
        summary: 'A monitor event, delivered to your endpoint',
        description:
          'One POST per stored event to every webhook whose `eventTypes` include it. Verify the signature over ' +
          'the raw body before parsing it (see /docs/webhooks.md).',
        parameters: signatureHeaders,
        // The service authenticates itself by the signature headers, not by an OpenAPI security scheme.
        security: [],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: schemaRef(WEBHOOK_EVENT_PAYLOAD) } },
        },
        responses: receiverResponses,
      },
    },
    webhookTest: {
      post: {
        operationId: 'webhookTest',
        tags: ['Webhooks'],
        summary: 'A signed test delivery (`webhook.test`)',
        description: 'Sent by the test operation; it has no `deliveryId` or `streamEventId`.',
        parameters: signatureHeaders,
        // The service authenticates itself by the signature headers, not by an OpenAPI security scheme.
        security: [],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: schemaRef(WEBHOOK_TEST_PAYLOAD) } },
        },
        responses: receiverResponses,
      },
    },
  };
}
