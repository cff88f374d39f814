/**
 * Cold start of the `xsvc` command, measured on the BUILT package (`pnpm -C packages/cli build` first;
 * `pnpm bench` does) beside `node -e 0` in the same run, interleaved so that load on the machine colours
 * every figure alike:
 *   node -e 0                  the floor: starting Node itself;
 *   xsvc --help                the program with every resource listed;
 *   xsvc tweets get --help     one resource's commands and flags built;
 *   xsvc completion bash       every command built (for scale; no goal);
 *   GET /api/v1/x/users/jack   the request alone, on a fresh connection from a warm process;
 *   xsvc users get jack        an operation command end to end against a local server (in this process).
 * Each command is spawned from a small plain-Node process, so tsx's own spawn overhead is not counted.
 * Goals: both help paths within 100 ms and within 2.5x `node -e 0` (medians); none of the SDK, zod, ink or
 * react among the packages the bin loads before it knows the command; and the operation command within
 * 1.8x `node -e 0` plus the request's own time (the contract is not loaded to check its parameters, and
 * only the command table of the resource named is).
 * When NODE_EXTRA_CA_CERTS is set, the commands are also timed without it and printed for information.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrapOwner, createServer, parseConfig } from '@xsvc/server';
import { HEAVY_PACKAGES, staticPackages } from '../packages/cli/scripts/static-packages.js';
import { goal, median, table } from './src/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'packages', 'cli', 'dist', 'bin.js');
const ROUNDS = 25;
const KEY = `svc_${'c1'.repeat(32)}`;

// The local server answers in this process while the runner child times the commands (hence `spawn`, not
// `spawnSync`, below). Reads are not rate limited here: the rounds would exceed a plan's limit.
const config = parseConfig({
  databaseUrl: ':memory:',
  seedSize: 'tiny',
  logLevel: 'silent',
  keyFile: '',
  bootstrapApiKey: KEY,
});
const server = await createServer(config, {
  rateLimits: {
    read: { limit: 1_000_000_000, windowMs: 1_000, retryAfterSeconds: 1 },
    write: { limit: 120, windowMs: 60_000, retryAfterSeconds: 60 },
    delete: { limit: 60, windowMs: 60_000, retryAfterSeconds: 60 },
  },
});
await bootstrapOwner(server.services.database, config, Date.now());
await server.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}`;
const configHome = mkdtempSync(join(tmpdir(), 'xsvc-bench-cli-'));

const REQUEST = 'GET /api/v1/x/users/jack';
const OPERATION = 'xsvc users get jack';
const cases: [string, string[] | { get: string; headers: Record<string, string> }][] = [
  ['node -e 0', ['-e', '0']],
  ['xsvc --help', [bin, '--help']],
  ['xsvc tweets get --help', [bin, 'tweets', 'get', '--help']],
  ['xsvc completion bash', [bin, 'completion', 'bash']],
  [REQUEST, { get: `${base}/api/v1/x/users/jack`, headers: { authorization: `Bearer ${KEY}` } }],
  [OPERATION, [bin, 'users', 'get', 'jack']],
];

/** Times every case in a plain-Node child (see cold-start-runner.mjs): the figures are the commands', not tsx's. */
function timeCases(env: NodeJS.ProcessEnv): Promise<Map<string, number[]>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(here, 'src', 'cold-start-runner.mjs'), String(ROUNDS), JSON.stringify(cases)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...env,
          NODE_OPTIONS: '',
          XSVC_BASE_URL: base,
          XSVC_API_KEY: KEY,
          XDG_CONFIG_HOME: configHome,
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`the cold-start runner failed: ${stderr}`));
      else resolve(new Map(Object.entries(JSON.parse(stdout) as Record<string, number[]>)));
    });
  });
}

/** Prints the medians of a timing run, against its `node -e 0`. */
function printTimes(title: string, run: Map<string, number[]>): void {
  const base = median(run.get('node -e 0')!);
  console.log(`\n${title}`);
  table([
    ['command', 'ms', 'vs node -e 0'],
    ...cases.map(([name]) => {
      const m = median(run.get(name)!);
      return [name, m.toFixed(1), `${(m / base).toFixed(2)}x`];
    }),
  ]);
}

// The goals are measured in the environment as it is. NODE_EXTRA_CA_CERTS (set on some machines, these
// among them) makes Node read and parse that certificate bundle at every start, before any of our code
// runs: it lengthens `node -e 0` and every command alike, which lowers the ratios. When it is set, the
// same commands are timed again without it and printed for information (no goal).
const times = await timeCases(process.env);
const { NODE_EXTRA_CA_CERTS: extraCerts, ...withoutCerts } = process.env;
const timesWithoutCerts = extraCerts ? await timeCases(withoutCerts) : undefined;
await server.close();
rmSync(configHome, { recursive: true, force: true });

const floor = median(times.get('node -e 0')!);
printTimes(`Cold start, median of ${ROUNDS} interleaved runs (wall clock, spawn included)`, times);
if (timesWithoutCerts) {
  printTimes(
    'INFO: the same without NODE_EXTRA_CA_CERTS, which is set here (Node parses that bundle at every start)',
    timesWithoutCerts,
  );
}

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
const request = median(times.get(REQUEST)!);
const operation = median(times.get(OPERATION)!);
/** The operation command's goal: this many `node -e 0` starts beside the request's own time. */
const STARTS = 1.8;
const budget = STARTS * floor + request;
console.log(
  `\n${OPERATION}: ${operation.toFixed(1)} ms = ${((operation - request) / floor).toFixed(2)}x node -e 0 ` +
    `+ the request (${request.toFixed(1)} ms); budget ${STARTS}x + the request = ${budget.toFixed(1)} ms, ` +
    `ratio ${(operation / budget).toFixed(2)}`,
);
ok =
  goal(
    `${OPERATION} <= ${STARTS}x node -e 0 + the request's own time`,
    operation <= budget,
    `${operation.toFixed(1)} ms vs ${budget.toFixed(1)} ms`,
  ) && ok;
if (!ok) process.exitCode = 1;
