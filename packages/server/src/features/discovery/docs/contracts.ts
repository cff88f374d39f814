import type { Guide } from './guide.js';

export const contracts: Guide = {
  slug: 'opt-in-contract',
  title: 'Response contracts and versioning',
  summary: 'The default response contract, the opt-in 2026-04-29 contract, and how the API evolves.',
  body: `
## Default contract

camelCase fields, ISO 8601 UTC timestamps, error bodies \`{ error, message? }\`. Optional fields are omitted,
never null. IDs are strings: treat them as opaque.

## Opt-in contract

Send \`svc-api-contract: 2026-04-29\` to get snake_case fields, Unix-second timestamps, structured errors
\`{ error: { type, code, message } }\`, \`has_more\` / \`next_cursor\`, an \`object\` field on known resources
and prefixed ids. Dependency failures that are 502 by default are 424 under it.

## Compatibility

The REST API is v1: fields, parameters and endpoints may be added at any time, so clients must ignore unknown
fields and unknown enum values. Removals are announced at least 90 days ahead; see
[the deprecation policy](/docs/deprecations.md).
`,
};
