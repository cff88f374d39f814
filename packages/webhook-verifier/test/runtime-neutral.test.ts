import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const entry = (name: string) => fileURLToPath(new URL(`../src/${name}`, import.meta.url));

async function bundle(file: string) {
  const result = await build({
    entryPoints: [entry(file)],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: ['node:*'],
  });
  const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
  return { code: result.outputFiles[0]!.text, imports };
}

/** Identifier uses of Node-only globals or modules (messages in the code never spell these forms). */
const NODE_ONLY = /\bnode:|\brequire\(|\bBuffer\.|\bprocess\.|\bimport\(["']node/;

describe('the Web build is runtime-neutral', () => {
  it('src/index.ts imports nothing from node:* (bundled with esbuild, checked through the metafile)', async () => {
    const { code, imports } = await bundle('index.ts');
    expect(imports.filter((p) => p.startsWith('node:'))).toEqual([]);
    expect(code).not.toMatch(NODE_ONLY);
  });

  it('the check would catch it: the Node build does import node:crypto', async () => {
    const { code, imports } = await bundle('node.ts');
    expect(imports).toContain('node:crypto');
    expect(code).toMatch(NODE_ONLY);
  });

  it('the built dist/index.{js,cjs} (when built) contain no node: import either', () => {
    const dist = fileURLToPath(new URL('../dist/', import.meta.url));
    for (const file of ['index.js', 'index.cjs']) {
      if (!existsSync(dist + file)) continue;
      expect(readFileSync(dist + file, 'utf8')).not.toMatch(NODE_ONLY);
    }
  });
});
