/**
 * `pnpm start` (the README's first command) builds quietly: a line per package, a failing build's output in
 * full and a non-zero exit before anything starts, else the server. Run as a real process on a fixture
 * workspace: a copy of `scripts/start.mjs` next to three tiny packages, one depending on another.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/start.mjs');

let roots: string[] = [];
afterEach(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
  roots = [];
});

/** A workspace whose packages build with `builds` (name → shell-free Node one-liner), and a fake server. */
function fixture(builds: Record<string, { script: string; deps?: string[] }>): string {
  const root = mkdtempSync(join(tmpdir(), 'xsvc-start-'));
  roots.push(root);
  mkdirSync(join(root, 'scripts'));
  copyFileSync(SCRIPT, join(root, 'scripts', 'start.mjs'));
  for (const [name, { script, deps = [] }] of Object.entries(builds)) {
    const dir = join(root, 'packages', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'build.cjs'), script);
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: `@fx/${name}`,
        version: '1.0.0',
        scripts: { build: 'node build.cjs' },
        dependencies: Object.fromEntries(deps.map((d) => [`@fx/${d}`, 'workspace:^'])),
      }),
    );
  }
  mkdirSync(join(root, 'packages', 'server', 'dist'), { recursive: true });
  writeFileSync(join(root, 'packages', 'server', 'dist', 'bin.js'), "console.log('the server runs');\n");
  return root;
}

function start(root: string) {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, out: r.stdout + r.stderr };
}

const NOISY = "for (let i = 0; i < 500; i++) console.log('compiling chunk ' + i);";

describe('pnpm start', () => {
  it('prints one line per package, in dependency order, then starts the server', () => {
    const root = fixture({
      zeta: { script: NOISY },
      alpha: { script: NOISY, deps: ['zeta'] },
      server: { script: NOISY, deps: ['alpha'] },
    });
    const r = start(root);
    expect(r.code, r.out).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toBe('Building 3 packages');
    expect(lines.slice(1, 4)).toEqual([
      expect.stringMatching(/^ {2}✓ @fx\/zeta +\d+\.\d s$/),
      expect.stringMatching(/^ {2}✓ @fx\/alpha +\d+\.\d s$/),
      expect.stringMatching(/^ {2}✓ @fx\/server +\d+\.\d s$/),
    ]);
    expect(lines[4]).toMatch(/^Built in \d+\.\d s$/);
    expect(lines.at(-1)).toBe('the server runs');
    expect(r.out).not.toContain('compiling chunk');
  });

  it('stops at a failing build with its whole output and its exit code, before the server starts', () => {
    const root = fixture({
      good: { script: NOISY },
      bad: {
        script: `${NOISY}\nconsole.error('src/index.ts(3,1): error TS2304: Cannot find name nope');\nprocess.exit(3);`,
        deps: ['good'],
      },
      server: { script: '', deps: ['bad'] },
    });
    const r = start(root);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/ {2}✓ @fx\/good /);
    expect(r.out).toMatch(/ {2}✗ @fx\/bad /);
    expect(r.out).not.toContain('@fx/server');
    expect(r.out).toContain('The build of @fx/bad failed');
    // In full: every line, the error included.
    for (const i of [0, 250, 499]) expect(r.out).toContain(`compiling chunk ${i}\n`);
    expect(r.out).toContain('error TS2304: Cannot find name nope');
    expect(r.out).not.toContain('the server runs');
  });
});
