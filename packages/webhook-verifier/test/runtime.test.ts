import { describe, expect, it } from 'vitest';

/**
 * The runtime this suite runs in. `pnpm test:runtimes` runs the suite under Bun and Deno as well and names
 * the one it expects in `XSVC_EXPECT_RUNTIME`, so a runner that silently fell back to Node fails here.
 */
const runtime = 'Bun' in globalThis ? 'bun' : 'Deno' in globalThis ? 'deno' : 'node';

describe('runtime', () => {
  it('is the one this run expects', () => {
    expect(runtime).toBe(process.env.XSVC_EXPECT_RUNTIME ?? 'node');
  });
});
