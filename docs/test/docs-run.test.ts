import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docPages, pageBlocks, parseAttrs, runnable } from '../../scripts/docs-run.mjs';
import { packAll, packedManifest, tarballName } from '../../scripts/pack-all.mjs';
import { DOCS_DIR } from '../scripts/generate-reference.js';

// `pnpm test:docs` (scripts/docs-run.mjs) runs the pages; these check what it reads and what it installs.

describe('the blocks docs-run reads', () => {
  const blocks = docPages().flatMap((p) => pageBlocks(p, readFileSync(join(DOCS_DIR, p), 'utf8')));
  const code = blocks.filter((b) =>
    ['sh', 'bash', 'shell', 'ts', 'typescript', 'js', 'javascript', 'mjs'].includes(b.lang),
  );

  it('parses fences and their attributes', () => {
    expect(parseAttrs('background keep wait-port=8787 no-run="a real X app" file=events.ts')).toEqual({
      background: true,
      keep: true,
      'wait-port': '8787',
      'no-run': 'a real X app',
      file: 'events.ts',
    });
    const [b] = pageBlocks('x.md', 'text\n\n```sh expect=tweet.new\ncurl -s x\n```\n');
    expect(b).toEqual({
      file: 'x.md',
      line: 3,
      lang: 'sh',
      attrs: { expect: 'tweet.new' },
      code: 'curl -s x',
    });
  });

  it('finds getting started and every guide, most of their blocks runnable', () => {
    expect(docPages()[0]).toBe('getting-started.md');
    expect(docPages().filter((p) => p.startsWith('guides/')).length).toBeGreaterThanOrEqual(5);
    expect(code.filter(runnable).length).toBeGreaterThan(25);
  });

  it('says why each block that does not run cannot', () => {
    const unexplained = code
      .filter((b) => b.attrs['no-run'] !== undefined && typeof b.attrs['no-run'] !== 'string')
      .map((b) => `docs/${b.file}:${b.line}`);
    expect(unexplained).toEqual([]);
  });

  it('starts the server getting started describes, waiting until its key file exists', () => {
    const server = code.find(
      (b) => b.file === 'getting-started.md' && /\bxsvc-server$/m.test(b.code) && runnable(b),
    );
    expect(server?.attrs).toMatchObject({ background: true, keep: true, 'wait-file': '.xsvc/owner-api-key' });
  });
});

describe('pack:all', () => {
  const versions = new Map([
    ['@xsvc/sdk', '1.2.3'],
    ['@xsvc/server', '1.2.3'],
  ]);

  it('points sibling dependencies at the sibling tarballs, peers at the version, and drops dev details', () => {
    const packed = packedManifest(
      {
        name: '@xsvc/cli',
        version: '1.2.3',
        scripts: { build: 'tsup' },
        dependencies: { '@xsvc/sdk': 'workspace:^', commander: '^14.0.0' },
        peerDependencies: { '@xsvc/server': 'workspace:^' },
        devDependencies: { '@xsvc/server': 'workspace:*' },
      },
      versions,
      '/packs',
    );
    expect(packed).toEqual({
      name: '@xsvc/cli',
      version: '1.2.3',
      dependencies: { '@xsvc/sdk': 'file:/packs/xsvc-sdk.tgz', commander: '^14.0.0' },
      peerDependencies: { '@xsvc/server': '^1.2.3' },
    });
    expect(tarballName('@xsvc/webhook-verifier')).toBe('xsvc-webhook-verifier.tgz');
  });

  it('refuses a workspace dependency on a package it does not pack', () => {
    expect(() =>
      packedManifest({ name: 'a', version: '1.0.0', dependencies: { b: 'workspace:^' } }, versions, '/p'),
    ).toThrow(/b is not a package of this workspace/);
  });

  const out = mkdtempSync(join(tmpdir(), 'xsvc-packs-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes one tarball per package whose manifest names no workspace: range', () => {
    const written = packAll({ outDir: out, build: false, log: () => {} });
    expect(written.map((w: { name: string }) => w.name)).toEqual([
      '@xsvc/cli',
      '@xsvc/mcp',
      '@xsvc/sdk',
      '@xsvc/server',
      '@xsvc/webhook-verifier',
    ]);
    for (const w of written as { file: string }[]) {
      const manifest = spawnSync('tar', ['-xOzf', w.file, 'package/package.json'], {
        encoding: 'utf8',
      }).stdout;
      expect(manifest, w.file).not.toContain('workspace:');
      const deps = Object.values((JSON.parse(manifest).dependencies ?? {}) as Record<string, string>);
      for (const d of deps.filter((v) => v.startsWith('file:')))
        expect(d).toMatch(new RegExp(`^file:${out}/xsvc-[\\w-]+\\.tgz$`));
    }
  });
});
