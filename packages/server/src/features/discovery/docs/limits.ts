import type { Guide } from './guide.js';

export const limits: Guide = {
  slug: 'limits',
  title: 'Rate limits and credits',
  summary: 'Per-account rate limits by method tier, credit costs, and size bounds.',
  body: `
## Rate limits (per account, fixed windows)

| tier | methods | limit | Retry-After |
|---|---|---|---|
| read | GET, HEAD, OPTIONS | 300 per second | 1 |
| write | POST, PUT, PATCH | 120 per minute | 60 |
| delete | DELETE | 60 per minute | 60 |

Over a limit: 429 \`rate_limit_exceeded\` with \`Retry-After\` (seconds) and \`retryAfter\` in the body.
Following accounts allows 20 per minute and 400 per day.

## Credits

Reads are metered per result or per call (a single tweet 1 credit, trends 3 per call, extractions 1 per
result, deleting a tweet 10); an active monitor costs about 21 credits per hour. Account, webhooks, compose
and cached styles are free. A paid read returns fewer results when the balance cannot cover them, and 402
\`insufficient_credits\` when it covers none. Credit amounts are integer strings (they may exceed 2^53).

## Bounds

Up to 100 active API keys per account; monitors, webhooks and key lists up to 200 items; batch lookups up to
100 ids; \`/ask\` queries 1-500 characters and POST bodies at most 8 KiB; Note Tweets up to 25,000 characters.
`,
};
