/**
 * Cold start of the `xsvc` command, measured on the BUILT package (`pnpm -C packages/cli build` first;
 * `pnpm bench` does) beside `node -e 0` in the same run, interleaved so that load on the machine colours
 * every figure alike:
 *   node -e 0                  the floor: starting Node itself;
 *   xsvc --help                the program with every resource listed;
 *   xsvc tweets get --help     one resource's commands and flags built;
 *   xsvc completion bash       every command built (for scale; no goal).
 * Goals: both help paths within 100 ms and within 2.5x `node -e 0` (medians), and none of the SDK, zod,
 * ink or react among the packages the bin loads before it knows the command.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HEAVY_PACKAGES, staticPackages } from '../packages/cli/scripts/static-packages.js';
import { goal, median, table } from './src/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'packages', 'cli', 'dist', 'bin.js');
const ROUNDS = 25;

const cases: [string, string[]][] = [
  ['node -e 0', ['-e', '0']],
  ['xsvc --help', [bin, '--help']],
  ['xsvc tweets get --help', [bin, 'tweets', 'get', '--help']],
  ['xsvc completion bash', [bin, 'completion', 'bash']],
];

function once(args: string[]): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

for (const [, args] of cases) once(args); // warm the file system cache
const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, args] of cases) times.get(name)!.push(once(args));
}

const floor = median(times.get('node -e 0')!);
console.log(`\nCold start, median of ${ROUNDS} interleaved runs (wall clock, spawn included)`);
table([
  ['command', 'ms', 'vs node -e 0'],
  ...cases.map(([name]) => {
    const m = median(times.get(name)!);
    return [name, m.toFixed(1), `${(m / floor).toFixed(2)}x`];
  }),
]);

const eager = [...staticPackages(bin)].sort();
console.log(`\nPackages loaded on every start: ${eager.join(', ')}`);
const heavy = eager.filter((p) => HEAVY_PACKAGES.test(p));

let ok = goal('no SDK, zod, ink or react on the help path', heavy.length === 0, heavy.join(', ') || 'none');
for (const name of ['xsvc --help', 'xsvc tweets get --help']) {
  const m = median(times.get(name)!);
  ok =
    goal(
      `${name} <= 100 ms and <= 2.5x node -e 0`,
      m <= 100 && m / floor <= 2.5,
      `${m.toFixed(1)} ms, ${(m / floor).toFixed(2)}x`,
    ) && ok;
}
if (!ok) process.exitCode = 1;
