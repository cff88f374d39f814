/**
 * `pnpm test:changed`: the inner loop. Runs, at the same time, the typecheck of every workspace package the
 * uncommitted change touches and the vitest tests the change can affect (`vitest run --changed`: changed test
 * files, and test files whose module graph imports a changed file). Exits non-zero when either fails.
 *
 * Other packages see a package through its built `dist/` (its package.json exports): after a change a
 * dependent package's tests must see, run `pnpm -C packages/<name> build` first. Extra arguments go to vitest
 * (e.g. `pnpm test:changed -- --project server`, or `--changed HEAD~1` to take the last commit too).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2).filter((a) => a !== '--');

/** Paths the uncommitted change touches (staged, unstaged and untracked), relative to the root. */
function changedPaths() {
  const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '-z'], {
    cwd: root,
    encoding: 'utf8',
  });
  // `XY path\0`, and a rename's `XY new\0old\0`: both paths count.
  return status
    .split('\0')
    .filter(Boolean)
    .map((entry) => (/^[ MADRCU?!]{2} /.test(entry) ? entry.slice(3) : entry));
}

/** The workspace package (a directory with a `typecheck` script) that holds `path`, if any. */
function packageOf(path) {
  const parts = path.split('/');
  const dir = parts[0] === 'docs' ? 'docs' : parts.length > 2 ? `${parts[0]}/${parts[1]}` : undefined;
  if (!dir || !existsSync(join(root, dir, 'package.json'))) return undefined;
  const scripts = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).scripts ?? {};
  return scripts.typecheck ? dir : undefined;
}

const packages = [...new Set(changedPaths().map(packageOf).filter(Boolean))].sort();
const run = (name, command, commandArgs) =>
  new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
    child.on('close', (code) => {
      console.log(
        `■ ${name}: ${code === 0 ? 'ok' : 'FAILED'} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      resolve(code === 0);
    });
  });

console.log(packages.length ? `Typechecking ${packages.join(', ')}` : 'No package touched: no typecheck.');
const results = await Promise.all([
  ...packages.map((dir) => run(`typecheck ${dir}`, 'pnpm', ['-s', '-C', dir, 'typecheck'])),
  run('vitest --changed', 'pnpm', ['exec', 'vitest', 'run', '--changed', '--passWithNoTests', ...args]),
]);
process.exit(results.every(Boolean) ? 0 : 1);
