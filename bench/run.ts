/**
 * `pnpm bench`: runs every `*.bench.ts` file beside this one, in name order, each in its own process so
 * that one benchmark's heap and JIT state cannot colour another's figures. Each file prints its own
 * table with ratios against a peer or a floor measured in the same run, and its goals as `GOAL PASS` or
 * `GOAL FAIL` lines; at the end, every goal of the run is listed again in one place.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = 0;
/** Every goal line the benchmarks printed, with the file that printed it, for the summary at the end. */
const goals: { file: string; line: string }[] = [];
for (const file of files) {
  console.log(`\n=== ${file}`);
  const status = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', join(here, file)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: here,
    });
    child.stdout.pipe(process.stdout);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('GOAL ')) goals.push({ file, line: line.slice('GOAL '.length) });
    });
    child.on('close', (code) => resolve(code));
  });
  if (status !== 0) failed++;
}
// All the goals in one place: each file prints its own among its tables.
if (goals.length > 0) {
  const failing = goals.filter((g) => g.line.startsWith('FAIL'));
  console.log(`\n=== goals: ${goals.length - failing.length} of ${goals.length} pass`);
  for (const g of goals) console.log(`${g.line.slice(0, 4)}  ${g.file}: ${g.line.slice(6)}`);
}
if (failed > 0) {
  console.error(`${failed} benchmark file(s) failed`);
  process.exit(1);
}
