import type { Guide } from './guide.js';

export const webhooks: Guide = {
  slug: 'webhooks',
  title: 'Webhooks: signatures, receivers and retries',
  summary:
    'How monitor events are delivered and signed, how to verify them, and how retries and backfill work.',
  body: `
## Delivery

Every event a monitor matches is stored (read it back with the events endpoints) and POSTed as JSON to every
webhook whose \`eventTypes\` include it, one request per event. The payload carries \`eventType\`,
\`schemaVersion\` (1), \`deliveryId\`, \`streamEventId\`, \`occurredAt\`, \`username\` or \`query\`, and \`data\`
(the tweet or the profile change). \`webhook.test\` carries \`eventType\`, \`data.message\` and \`timestamp\`.

## Signature

| header | value |
|---|---|
| \`X-Svc-Timestamp\` | Unix epoch milliseconds |
| \`X-Svc-Nonce\` | 16 random bytes as hex |
| \`X-Svc-Signature\` | \`sha256=\` + hex HMAC-SHA256 of \`<timestamp>.<nonce>.<rawBody>\` keyed with the endpoint secret |

## Receiver rules

1. Recompute the signature over the raw bytes (before any JSON parsing) and compare in constant time.
2. Reject a timestamp more than 5 minutes from now, and a nonce seen within 5 minutes.
3. Treat a repeated \`deliveryId\` or \`streamEventId\` as already accepted (answer 2xx).
4. Answer 2xx promptly (within 10 seconds); answer 410 only to stop deliveries to the endpoint.

\`@xsvc/webhook-verifier\` does all of this for Node, Workers, Deno and Bun.

## Retries and recovery

Up to 10 attempts with delays of 1, 2, 4, 8, 16, 32 then 60 seconds; after the tenth failure the delivery is
\`exhausted\`. Repeated failures set the endpoint to \`needs_attention\` until a signed test succeeds. To
backfill, page the stored events of the monitor with \`after\` until \`hasMore\` is false.
`,
};
