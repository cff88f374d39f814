/**
 * The second half of `pnpm check:generated` (the first runs `pnpm generate`): fails when the working tree is
 * not clean, that is when a generator changed a committed file or wrote a new one. On a clean checkout this
 * means a source of a generated file (the contract, a docs page, a generator) changed without the output
 * being regenerated and committed. Run by `.ci/run` before the tests.
 */
import { execFileSync } from 'node:child_process';

const git = (...args) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

const changed = git('status', '--porcelain', '--untracked-files=all').trimEnd();
if (changed) {
  console.error('Generated files are stale (or were never committed): `pnpm generate` changed the tree.\n');
  console.error(changed);
  const diff = git('--no-pager', 'diff', '--no-color').split('\n');
  if (diff.length > 1) {
    console.error(`\n${diff.slice(0, 40).join('\n')}`);
    if (diff.length > 40) console.error(`… (${diff.length - 40} more lines of diff)`);
  }
  console.error('\nRun `pnpm generate` and commit the result.');
  process.exit(1);
}
console.log('Generated files are up to date.');
