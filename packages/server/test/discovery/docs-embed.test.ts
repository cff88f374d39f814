import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { embeddedGuides, OUTPUT, parsePage, renderModule } from '../../scripts/embed-docs.js';
import { guides } from '../../src/features/discovery/docs/index.js';

describe('guides embedded from docs/', () => {
  it('the committed module is what docs/ generates (run `pnpm generate` when this fails)', () => {
    expect(readFileSync(OUTPUT, 'utf8')).toBe(renderModule(embeddedGuides()));
  });

  it('serves every guide page of docs/ once, with relative links turned into /docs links', () => {
    const slugs = guides.map((g) => g.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const slug of [
      'getting-started',
      'sdk',
      'verify-webhooks',
      'authentication',
      'pagination',
      'deprecations',
      'webhooks',
    ])
      expect(slugs).toContain(slug);
    expect(slugs.some((s) => /^[A-Z]|reference/.test(s))).toBe(false);
    for (const g of guides) {
      expect(g.summary.length, g.slug).toBeGreaterThan(10);
      expect(g.body, g.slug).not.toMatch(/\]\((?!\/|#|https?:|mailto:)[^)]*\)/);
      expect(g.body, g.slug).not.toContain('<!-- generated:');
    }
  });

  it('refuses a page without a title and summary', () => {
    expect(() => parsePage('x.md', 'no title here\n')).toThrow(/docs\/x\.md/);
    expect(
      parsePage('a/b.md', '---\ntitle: t\n---\n# B\n\nThe summary\nin two lines.\n\n## One\n'),
    ).toMatchObject({
      slug: 'b',
      title: 'B',
      summary: 'The summary in two lines.',
    });
  });
});
