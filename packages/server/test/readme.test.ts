import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('the README', () => {
  it('documents every environment variable the configuration reads', () => {
    const config = read('../src/core/config.ts');
    const block = /const ENV[^=]*=\s*\{([\s\S]*?)\};/.exec(config)?.[1] ?? '';
    const names = [...block.matchAll(/:\s*'([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(10);
    const readme = read('../README.md');
    const missing = names.filter((name) => !readme.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('names the limits the server enforces as the code defines them', async () => {
    const readme = read('../README.md');
    const { SIGN_IN_LIMITS } = await import('../src/core/limits/sign-in-limits.js');
    const { CHECKOUT_TTL_MS } = await import('../src/core/billing/checkouts.js');
    const { COVERAGE_TTL_MS, COVERAGE_MAX_PAGES, STANDARD_MAX_PAGES } = await import(
      '../src/features/reads/walks/limits.js'
    );
    expect(readme).toContain(`${SIGN_IN_LIMITS.perEmail.limit} per e-mail address`);
    expect(readme).toContain(`${SIGN_IN_LIMITS.perClient.limit} per client address`);
    expect(readme).toContain(`every ${SIGN_IN_LIMITS.perEmail.windowMs / 60_000} minutes`);
    expect(readme).toContain(`within ${CHECKOUT_TTL_MS / 3_600_000} hours`);
    expect(readme).toContain(`idle for an hour`);
    expect(COVERAGE_TTL_MS).toBe(3_600_000);
    expect(readme).toContain(`after ${COVERAGE_MAX_PAGES} platform pages`);
    expect(readme).toContain(`${STANDARD_MAX_PAGES}-page budget`);
  });
});
