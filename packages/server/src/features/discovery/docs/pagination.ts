import type { Guide } from './guide.js';

export const pagination: Guide = {
  slug: 'pagination',
  title: 'Pagination',
  summary: 'How to page through lists: cursor styles A (platform lists) and B (platform reads under /x).',
  body: `
## Style A: events, draws, extractions, drafts

Send \`limit\` and, for the next page, \`after\` with the previous page's \`nextCursor\`. The answer carries
\`hasMore\` (boolean) and \`nextCursor\` (present only when \`hasMore\` is true). Stop when \`hasMore\` is false.

## Style B: platform reads (\`/api/v1/x/*\`)

Send \`cursor\` with the previous page's \`next_cursor\`. The answer carries \`has_next_page\` and
\`next_cursor\` (an empty string on the last page).

## Unpaginated lists

Monitors, webhooks and API keys return up to 200 items in one answer.

Cursors are opaque: never build or change one. A cursor that the service did not issue is 400
\`invalid_input\`. The SDK's \`paginate()\` helpers follow either style for you.
`,
};
