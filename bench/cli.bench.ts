/**
 * Cold start of the `xsvc` command, measured on the BUILT package (`pnpm -C packages/cli build` first;
 * `pnpm bench` does) beside `node -e 0` in the same run, interleaved so that load on the machine colours
 * every figure alike:
 *   node -e 0                  the floor: starting Node itself;
 *   xsvc --help                the program with every resource listed;
 *   xsvc tweets get --help     one resource's commands and flags built;
 *   xsvc completion bash       every command built (for scale; no goal).
 * Each command is spawned from a small plain-Node process, so tsx's own spawn overhead is not counted.
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

// Timed from a plain-Node child (see cold-start-runner.mjs): the figures are the commands', not tsx's.
const runner = spawnSync(
  process.execPath,
  [join(here, 'src', 'cold-start-runner.mjs'), String(ROUNDS), JSON.stringify(cases)],
  { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, maxBuffer: 16 << 20 },
);
if (runner.status !== 0) throw new Error(`the cold-start runner failed: ${runner.stderr}`);
const times = new Map<string, number[]>(
  Object.entries(JSON.parse(runner.stdout) as Record<string, number[]>),
);

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
