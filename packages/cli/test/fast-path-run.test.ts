import { describe, expect, it, vi } from 'vitest';
import { cli, recordRequests, serveMockedApi } from './helpers.js';

// Commander is what a plain operation line no longer loads (see src/program/fast-path.ts).
vi.mock('commander', () => {
  throw new Error('commander was loaded');
});

serveMockedApi();

describe('an operation line runs without commander', () => {
  it('sends the request and prints the answer', async () => {
    const seen = recordRequests();
    const res = await cli(['users', 'get', 'jack', '--json', 'id']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(Object.keys(res.json<object>())).toEqual(['id']);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /api/v1/x/users/jack']);
  });

  it('with flags, globals and a listing', async () => {
    const seen = recordRequests();
    const res = await cli(['--no-color', 'tweets', 'search', 'from:jack', '--limit', '2', '--json']);
    expect(res.code).toBe(0);
    expect(seen[0]?.path).toBe('/api/v1/x/tweets/search');
    expect(seen[0]?.query.q).toBe('from:jack');
  });

  it('an error the command throws is reported as before (exit code and message)', async () => {
    const res = await cli(['tweets', 'search', 'from:jack', '--limit', 'many']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--limit');
    expect(res.stderr).not.toContain('commander was loaded');
  });

  it('a line the fast path declines is commander’s (loaded only then)', async () => {
    const res = await cli(['users', 'get', '--help']);
    expect(res.stderr).toMatch(/commander was loaded|error when mocking/);
  });
});
