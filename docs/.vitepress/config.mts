import { type AnyOperation, operations } from '@xsvc/sdk/contract';
import { type DefaultTheme, defineConfig } from 'vitepress';
import { DOCS_BASE_URL } from '../site.js';

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

/**
 * The home page's hero and feature cards (front matter is kept out of the Markdown, which Biome formats). A
 * card's `details` is HTML, not Markdown: code is written `<code>…</code>`. The hero's right half is the code
 * card of `theme/HeroCode.vue`.
 */
const home = {
  layout: 'home',
  hero: {
    name: 'xsvc',
    text: 'Social data and automation you host yourself',
    tagline:
      'Read tweets, users and trends, watch accounts with monitors that deliver signed webhooks, and run it all on your own server: from a typed SDK, a CLI, or an agent over MCP.',
    actions: [
      { theme: 'brand', text: 'Get started in 5 minutes', link: '/getting-started' },
      { theme: 'alt', text: 'Guides', link: '/guides/sdk' },
      { theme: 'alt', text: 'API reference', link: '/reference/' },
    ],
  },
  features: [
    {
      title: 'SDK',
      details:
        'Every operation as a typed method with examples in your editor; one <code>for await</code> for every listing, retries that honour Retry-After, mocks for your tests.',
      link: '/guides/sdk',
      linkText: 'Use the SDK',
    },
    {
      title: 'CLI',
      details:
        'Every operation as <code>xsvc &lt;resource&gt; &lt;action&gt;</code>: tables for people, <code>--json</code> and <code>--jq</code> for scripts, live monitors, webhooks you can listen to locally.',
      link: '/guides/cli',
      linkText: 'Use the CLI',
    },
    {
      title: 'Self-hosted server',
      details:
        'One process on SQLite, or Postgres behind several instances; a simulated network or the X API; a dashboard, signed webhooks and OAuth 2.1.',
      link: '/guides/server',
      linkText: 'Run the server',
    },
    {
      title: 'Webhook verifier',
      details:
        'Verify signatures, timestamps and nonces in Express, Fastify, Next.js, Hono, Workers, Deno and Bun, and handle each event once.',
      link: '/guides/verify-webhooks',
      linkText: 'Verify webhooks',
    },
    {
      title: 'MCP tools',
      details:
        'The API as MCP tools for agents: over stdio, or remotely at the server’s <code>/mcp</code> with an API key or OAuth. Reads only unless you enable writes.',
      link: '/areas/mcp-oauth',
      linkText: 'Connect an agent',
    },
    {
      title: 'One contract',
      details:
        'The SDK, the CLI, the server, the tools and the reference are generated from one typed contract: every operation documented with its cost, errors and the same call four ways.',
      link: '/reference/',
      linkText: 'Browse the reference',
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
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }]],
  cleanUrls: true,
  lastUpdated: false,
  srcExclude: ['dev/**', 'README.md', 'node_modules/**', 'scripts/**', 'test/**'],
  // `pnpm docs:dev` serves the site where the SDK's method docs link to (see ../site.ts).
  vite: { server: { port: Number(new URL(DOCS_BASE_URL).port), strictPort: true } },
  // Nothing is fetched at build time: local search, no external fonts or analytics.
  themeConfig: {
    logo: '/favicon.svg',
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
