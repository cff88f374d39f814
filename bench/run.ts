/**
 * `pnpm bench`: runs every `*.bench.ts` file beside this one, in name order, each in its own process so
 * that one benchmark's heap and JIT state cannot colour another's figures. Each file prints its own
 * table with ratios against a peer or a floor measured in the same run.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(here, file)], {
    stdio: 'inherit',
    cwd: here,
  });
  if (r.status !== 0) failed++;
}
if (failed > 0) {
  console.error(`${failed} benchmark file(s) failed`);
  process.exit(1);
}
