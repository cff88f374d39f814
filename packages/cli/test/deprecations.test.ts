import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { api, cli, serveMockedApi, V1 } from './helpers.js';

serveMockedApi();

describe('deprecation warnings name the item and concern only what the user sent', () => {
  it('a deprecated field in the answer (account get) does not warn', async () => {
    api.use(
      http.get(`${V1}/account`, () =>
        HttpResponse.json(
          { plan: 'active', monitorsAllowed: 5 },
          { headers: { deprecation: '@1767225600', link: '</docs/deprecations.md>; rel="deprecation"' } },
        ),
      ),
    );
    const res = await cli(['account', 'get']);
    expect(res.code).toBe(0);
    expect(res.stderr).not.toMatch(/deprecat/i);
  });

  it('a deprecated flag the user gave warns once, naming it and its replacement', async () => {
    const res = await cli(['users', 'followers', 'jack', '--after', 'c1']);
    expect(res.code).toBe(0);
    const warnings = res.stderr.split('\n').filter((l) => /deprecated/.test(l));
    expect(warnings).toEqual(['warning: --after is deprecated: use --cursor instead.']);
  });

  it('a replacement with a value becomes the flag and its value', async () => {
    const res = await cli(['extractions', 'get', '00000000-0000-4000-8000-000000000001', '--include-raw']);
    expect(res.stderr).toContain('--include-raw is deprecated: use --output-mode raw instead.');
  });

  it('the same command without the deprecated flag is quiet', async () => {
    const res = await cli(['users', 'followers', 'jack', '--cursor', 'c1']);
    expect(res.stderr).not.toMatch(/deprecat/i);
  });
});
