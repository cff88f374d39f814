import type { Guide } from './guide.js';

export const errors: Guide = {
  slug: 'errors',
  title: 'Errors and retries',
  summary: 'The error body, the codes by HTTP status, and which errors to retry.',
  body: `
## Body

\`{ "error": "<code>", "message": "…", "retryAfter": 1 }\`; some errors add \`reason\` or \`retryAfterMs\`.
Under the opt-in contract (header \`svc-api-contract: 2026-04-29\`) the body is
\`{ "error": { "type", "code", "message" } }\`.

## Codes

| status | codes | what to do |
|---|---|---|
| 400 | \`invalid_input\`, \`invalid_json\`, \`invalid_id\`, \`too_many_ids\`, \`invalid_format\`, … | fix the request; do not retry |
| 401 | \`unauthenticated\`, \`x_auth_failure\` | fix credentials or re-authenticate the connected account |
| 402 | \`no_credits\`, \`insufficient_credits\`, \`no_subscription\`, … | billing; never auto-checkout |
| 403 | \`api_key_limit_reached\`, \`account_restricted\`, \`x_account_protected\`, … | permissions or account health |
| 404 | \`not_found\`, \`user_not_found\`, \`tweet_not_found\` (may carry \`reason\`), … | verify the resource |
| 409 / 410 | \`coverage_cursor_unavailable\` (retry the same cursor once) / \`coverage_cursor_gone\` (restart) | |
| 422 | \`x_duplicate_action\`, \`x_content_too_long\`, \`x_rejected\`, … | change the request before retrying |
| 429 | \`rate_limit_exceeded\`, \`login_cooldown\`, \`x_rate_limited\`, \`x_daily_limit\` | wait \`Retry-After\` |
| 5xx / 424 | \`internal_error\`, \`x_api_unavailable\`, \`service_unavailable\`, … | exponential backoff, at most 3 attempts |

Writes are retried only when the answer says \`safeToRetry\`; a 202 \`x_write_unconfirmed\` means the write
is pending: poll the write action, never send it again. The full list of codes is the \`Error\` schema of
\`/openapi.json\`.
`,
};
