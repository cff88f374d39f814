/**
 * The root entry must run where there is no Node: it imports nothing from `node:*` and works in an
 * edge-like runtime (the Web build of the verifier is picked by export conditions there).
 */
import { EdgeVM } from '@edge-runtime/vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The root entry bundled as an edge runtime would load it. `stripComments` drops comments (and only
 * whitespace besides), so that a doc comment's example such as `import { openAsBlob } from 'node:fs'`
 * is not taken for an import.
 */
async function bundle(stripComments = false): Promise<string> {
  const r = await build({
    minifyWhitespace: stripComments,
    entryPoints: [new URL('../src/index.ts', import.meta.url).pathname],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'XsvcSdk',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['worker', 'browser', 'import'],
    logLevel: 'silent',
  });
  return r.outputFiles[0]!.text;
}

describe('root entry in an edge runtime', () => {
  it('imports nothing from node:*', async () => {
    const code = await bundle(true);
    expect(code).not.toMatch(/require\(["']node:|from ["']node:/);
    expect(code).not.toMatch(/["']node:crypto["']/);
  });

  it('runs a call and verifies a webhook without Node globals', async () => {
    const vm = new EdgeVM();
    vm.evaluate(await bundle());
    const result = await vm.evaluate(`(async () => {
      const seen = [];
      const fetchStub = async (url, init) => {
        seen.push([init.method, String(url), init.headers['x-api-key']]);
        return new Response(JSON.stringify({ tweet: { id: '1', text: 'hi', createdAt: '2026-04-29T12:00:00.000Z' } }), { status: 200, headers: { 'content-type': 'application/json' } });
      };
      const client = new XsvcSdk.Xsvc({ apiKey: 'svc_${'0'.repeat(64)}', baseUrl: 'https://svc.example', fetch: fetchStub });
      const r = await client.tweets.get('1');
      return { typeofProcess: typeof process, typeofBuffer: typeof Buffer, typeofRequire: typeof require, text: r.tweet.text, seen };
    })()`);
    expect(result.typeofBuffer).toBe('undefined');
    expect(result.typeofRequire).toBe('undefined');
    expect(result.text).toBe('hi');
    expect(result.seen[0].slice(0, 2)).toEqual(['GET', 'https://svc.example/api/v1/x/tweets/1']);
  });
});
