import { type AnyOperation, operations } from '@xsvc/sdk/contract';
import type { Guide } from './guide.js';

const day = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(0, 10);

/** One row per deprecated operation, parameter or field of the contract. */
function rows(): string[] {
  const out: string[] = [];
  for (const op of operations as readonly AnyOperation[]) {
    const dep = op.deprecated;
    if (!dep) continue;
    const request = `\`${op.method} ${op.path}\``;
    const replacement = (r: string) => (r ? `\`${r}\`` : 'none');
    if (dep.operation) out.push(`| ${request} | the operation | see its description | ${day(dep.since)} |`);
    for (const [p, r] of Object.entries(dep.params ?? {}))
      out.push(`| ${request} | \`${p}\` parameter | ${replacement(r)} | ${day(dep.since)} |`);
    for (const [f, r] of Object.entries(dep.fields ?? {})) {
      out.push(`| ${request} | \`${f}\` field | ${r ? replacement(r) : 'none'} | ${day(dep.since)} |`);
    }
  }
  return out;
}

/**
 * The deprecation policy (spec part 9), with the current deprecations listed from the contract itself, so
 * the page cannot disagree with the `deprecated` marks of `/openapi.json`. Deprecated responses link here
 * with `Link: <…/docs/deprecations.md>; rel="deprecation"; type="text/markdown"`.
 */
export function deprecationsGuide(): Guide {
  return {
    slug: 'deprecations',
    title: 'Deprecation policy',
    summary: 'How fields, parameters and operations are deprecated and removed, and what is deprecated now.',
    body: `
## Policy

1. The REST API is version v1 and stays compatible: fields, parameters and endpoints may be added at any
   time; clients must ignore unknown fields.
2. Breaking removals are announced at least 90 days ahead in the public changelog. A security or legal
   emergency may shorten the notice. The OpenAPI description marks a deprecated operation, field or parameter
   as \`deprecated\` until it is removed.
3. The default response contract does not change; the opt-in contract is selected with the header
   \`svc-api-contract: 2026-04-29\`.
4. A response that touches a deprecated item carries:
   - \`Deprecation: @<unix seconds>\` (RFC 9745), the time of the deprecation;
   - \`Link: <this page>; rel="deprecation"; type="text/markdown"\`;
   - \`Sunset: <HTTP date>\` (RFC 8594), only once a removal is scheduled.

## Deprecated now

No removal is scheduled, so no response carries \`Sunset\` yet.

| request | deprecated item | replacement | since |
|---|---|---|---|
${rows().join('\n')}
`,
  };
}
