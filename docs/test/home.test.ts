/**
 * The home page: a page for users (one title, no notes for contributors), feature cards whose HTML shows
 * code as code, and a hero code card that shows only what the page itself shows, whose code blocks
 * `code-blocks.test.ts` type-checks and runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../.vitepress/config.mjs';
import { codeBlocks } from '../scripts/code-blocks.js';
import { DOCS_DIR } from '../scripts/generate-reference.js';

const index = readFileSync(join(DOCS_DIR, 'index.md'), 'utf8');
const blocks = codeBlocks('index.md', index);
const hero = readFileSync(join(DOCS_DIR, '.vitepress/theme/HeroCode.vue'), 'utf8');

interface Feature {
  readonly title: string;
  readonly details: string;
  readonly link?: string;
}

/** The home page's front matter, as the site's config sets it. */
function homeFrontmatter(): { layout?: string; hero?: { name?: string }; features?: Feature[] } {
  const page = { relativePath: 'index.md', frontmatter: {} } as Parameters<
    NonNullable<typeof config.transformPageData>
  >[0];
  config.transformPageData?.(page, { siteConfig: {} as never });
  return page.frontmatter;
}

/** The text of the hero card's code blocks, without their highlighting tags. */
function heroCode(): string[] {
  return [...hero.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );
}

describe('the home page', () => {
  it('is for users: the hero is its only title, and no line speaks to contributors', () => {
    expect(index).not.toMatch(/^# /m);
    expect(index).not.toMatch(/\.vitepress|config\.mts|this page is the site/i);
    expect(homeFrontmatter().layout).toBe('home');
    expect(homeFrontmatter().hero?.name).toBe('xsvc');
  });

  it('shows each of the ways to use it with an example and a link to its guide', () => {
    for (const [heading, guide] of [
      ['The SDK', './guides/sdk.md'],
      ['The CLI', './guides/cli.md'],
      ['The server', './guides/server.md'],
      ['The webhook verifier', './guides/verify-webhooks.md'],
      ['MCP tools', './areas/mcp-oauth.md'],
    ] as const) {
      const section = index.split(/^### /m).find((s) => s.startsWith(heading));
      expect(section, heading).toBeDefined();
      expect(section, heading).toMatch(/```\w+\n/);
      expect(section, heading).toContain(`](${guide})`);
    }
  });

  it('has feature cards in HTML, code as <code>, each linking somewhere', () => {
    const features = homeFrontmatter().features ?? [];
    expect(features.length % 3).toBe(0); // full rows of three
    for (const f of features) {
      expect(f.details, f.title).not.toContain('`');
      expect(f.details.match(/<code>/g)?.length ?? 0, f.title).toBe(
        f.details.match(/<\/code>/g)?.length ?? 0,
      );
      expect(f.link, f.title).toBeDefined();
    }
  });

  it('fills the hero with code that the page shows and checks', () => {
    const [terminal, app] = heroCode();
    const shell = blocks.filter((b) => b.lang === 'sh').map((b) => b.code.split('\n'));
    const commands = terminal!.split('\n').map((l) => l.replace(/^\$ /, ''));
    expect(commands.length).toBeGreaterThan(0);
    for (const c of commands) expect(shell.flat(), c).toContain(c);
    const ts = blocks.find((b) => b.lang === 'ts')!.code.split('\n');
    const lines = app!.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(3);
    for (const l of lines) expect(ts, l).toContain(l);
  });
});
