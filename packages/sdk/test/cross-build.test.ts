/**
 * Errors across builds: the package ships ESM and CommonJS, and an app can load both (an ESM app using a
 * CommonJS dependency that uses the SDK). An error thrown by one copy must satisfy the other's guards and
 * `instanceof`. Loads the built `dist/index.js` and `dist/index.cjs` side by side.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

type Sdk = typeof import('../src/index.js');
const esm = (await import(new URL('../dist/index.js', import.meta.url).href)) as Sdk;
const cjs = createRequire(import.meta.url)('../dist/index.cjs') as Sdk;

function clientOf(sdk: Sdk, status: number, code: string) {
  const fetch = (async () =>
    new Response(JSON.stringify({ error: code, message: 'mock' }), {
      status,
      headers: { 'content-type': 'application/json' },
    })) as typeof globalThis.fetch;
  return new sdk.Xsvc({
    apiKey: `svc_${'0'.repeat(64)}`,
    baseUrl: 'http://127.0.0.1:9',
    fetch,
    maxRetries: 0,
  });
}

async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('error guards across the ESM and CommonJS builds', () => {
  it('loads two distinct copies', () => {
    expect(esm.ApiError).not.toBe(cjs.ApiError);
  });

  for (const [from, to, fromName, toName] of [
    [cjs, esm, 'CommonJS', 'ESM'],
    [esm, cjs, 'ESM', 'CommonJS'],
  ] as const) {
    it(`recognises a ${fromName} error with the ${toName} guards and instanceof`, async () => {
      const err = await thrown(clientOf(from, 404, 'tweet_not_found').tweets.get('1'));
      expect(err).toBeInstanceOf(from.NotFoundError);
      expect(to.isApiError(err)).toBe(true);
      expect(to.isXsvcError(err)).toBe(true);
      expect(to.isErrorWithCode(err, 'tweet_not_found')).toBe(true);
      expect(to.isErrorWithCode(err, 'user_not_found')).toBe(false);
      expect(err instanceof to.NotFoundError).toBe(true);
      expect(err instanceof to.ApiError).toBe(true);
      expect(err instanceof to.XsvcError).toBe(true);
      expect(err instanceof to.ConflictError).toBe(false);
      expect(err instanceof to.ConnectionError).toBe(false);
      expect(err instanceof to.WriteActionFailedError).toBe(false);

      const limited = await thrown(clientOf(from, 429, 'rate_limited').account.get());
      expect(limited instanceof to.RateLimitError).toBe(true);
      expect(limited instanceof to.NotFoundError).toBe(false);

      const timeout = new from.TimeoutError(5);
      expect(timeout instanceof to.TimeoutError).toBe(true);
      expect(to.isXsvcError(timeout)).toBe(true);
      expect(to.isApiError(timeout)).toBe(false);
    });
  }

  it('does not take look-alikes for SDK errors', () => {
    const fake = Object.assign(new Error('x'), { name: 'ApiError', code: 'tweet_not_found', status: 404 });
    expect(esm.isApiError(fake)).toBe(false);
    expect(fake instanceof esm.ApiError).toBe(false);
    expect(esm.isXsvcError(null)).toBe(false);
    expect(esm.isApiError('ApiError')).toBe(false);
  });
});
