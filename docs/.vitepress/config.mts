import { type AnyOperation, operations } from '@xsvc/sdk/contract';
import { type DefaultTheme, defineConfig } from 'vitepress';

/** The reference sidebar: one group per tag of the contract, one link per operation. */
function referenceSidebar(): DefaultTheme.SidebarItem[] {
  const byTag = new Map<string, AnyOperation[]>();
  for (const op of operations as readonly AnyOperation[])
    byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op]);
  return [
    { text: 'Overview', link: '/reference/' },
    ...[...byTag.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([tag, ops]) => ({
        text: tag,
        collapsed: true,
        items: ops.map((op) => ({ text: op.id, link: `/reference/${op.id}` })),
      })),
  ];
}

const guides: DefaultTheme.SidebarItem[] = [
  { text: 'Getting started', link: '/getting-started' },
  {
    text: 'Guides',
    items: [
      { text: 'Use the SDK in an app', link: '/guides/sdk' },
      { text: 'Use the CLI', link: '/guides/cli' },
      { text: 'Run the server', link: '/guides/server' },
      { text: 'Verify webhooks', link: '/guides/verify-webhooks' },
    ],
  },
  {
    text: 'Areas',
    items: [
      { text: 'Reads and pagination', link: '/areas/reads' },
      { text: 'Monitors and webhooks', link: '/areas/monitors' },
      { text: 'Extractions and exports', link: '/areas/extractions' },
      { text: 'Draws', link: '/areas/running-draws' },
      { text: 'Verifiable draws', link: '/guides/draws' },
      { text: 'Composition', link: '/areas/composition' },
      { text: 'Billing and payments', link: '/areas/billing' },
      { text: 'MCP and OAuth', link: '/areas/mcp-oauth' },
    ],
  },
  {
    text: 'Concepts',
    items: [
      { text: 'Authentication', link: '/concepts/authentication' },
      { text: 'Pagination', link: '/concepts/pagination' },
      { text: 'Errors and retries', link: '/concepts/errors' },
      { text: 'Rate limits and credits', link: '/concepts/limits' },
      { text: 'Webhook signatures', link: '/concepts/webhooks' },
      { text: 'Response contracts', link: '/concepts/opt-in-contract' },
      { text: 'Deprecation policy', link: '/concepts/deprecations' },
      { text: 'Self-hosting: /sim, sign-in, checkouts', link: '/concepts/self-hosting' },
    ],
  },
];

/** The home page's layout (front matter is kept out of the Markdown, which Biome formats). */
const home = {
  layout: 'home',
  hero: {
    name: 'xsvc',
    text: 'Social data and automation, one contract',
    tagline:
      'A typed SDK, a CLI, a self-hostable server, a webhook verifier and MCP tools for agents, all generated from one contract.',
    actions: [
      { theme: 'brand', text: 'Get started in 5 minutes', link: '/getting-started' },
      { theme: 'alt', text: 'API reference', link: '/reference/' },
    ],
  },
  features: [
    {
      title: 'SDK',
      details:
        'Every operation typed, one iterator for both pagination styles, retries that honour Retry-After, durable writes, msw mocks.',
      link: '/guides/sdk',
    },
    {
      title: 'CLI',
      details:
        'Every operation as `xsvc resource action`, --json and --jq, profiles, live monitors, webhooks listen and trigger.',
      link: '/guides/cli',
    },
    {
      title: 'Server',
      details:
        'SQLite or Postgres with several instances, a simulated network or the X API, signed webhooks, OAuth 2.1 and /mcp.',
      link: '/guides/server',
    },
    {
      title: 'Webhooks',
      details:
        'Verify signed deliveries in Express, Fastify, Next.js, Hono, Workers, Deno and Bun, with nonce and de-duplication stores.',
      link: '/guides/verify-webhooks',
    },
  ],
};

export default defineConfig({
  transformPageData(pageData) {
    if (pageData.relativePath === 'index.md') pageData.frontmatter = { ...pageData.frontmatter, ...home };
  },
  title: 'xsvc',
  description:
    'The toolkit for the Social Data and Automation Service: SDK, CLI, server, webhook verifier and MCP.',
  lang: 'en-US',
  cleanUrls: true,
  lastUpdated: false,
  srcExclude: ['dev/**', 'README.md', 'node_modules/**', 'scripts/**', 'test/**'],
  // Nothing is fetched at build time: local search, no external fonts or analytics.
  themeConfig: {
    search: { provider: 'local' },
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Guides', link: '/guides/sdk' },
      { text: 'Reference', link: '/reference/' },
    ],
    sidebar: { '/reference/': referenceSidebar(), '/': guides },
    outline: [2, 3],
  },
});
