/**
 * `pnpm test`: builds the packages once, then runs every check that needs the build — vitest, the typecheck,
 * lint, the docs site build, the docs run as written against the packed tarballs (scripts/docs-run.mjs) and the
 * Bun and Deno suites — at the same time, so that the two cores of a CI
 * machine stay busy instead of waiting on one single-threaded step after another. At its end it prints the
 * time of each phase, the counts of test files, tests and `expect` calls, and the slowest test files, so a
 * regression shows in the next CI log.
 *
 * Every phase runs to its end even when another one fails (all failures show in one run); the driver exits
 * non-zero when any phase failed and prints that phase's whole output again below the tables.
 * The vitest output streams live; the other phases' outputs are printed, whole, as each one ends.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'xsvc-test-'));
const summaryFile = join(work, 'vitest-summary.json');

/**
 * @typedef {object} Phase
 * @property {string} name
 * @property {string} command  run by `sh -c` from the repository root
 * @property {string[]} [after]  phases that must have passed first
 * @property {boolean} [live]  stream the output as it comes (one phase at most)
 * @property {Record<string, string>} [env]
 */

/** @type {Phase[]} */
const phases = [
  { name: 'build', command: 'pnpm -r --filter "./packages/**" run build' },
  {
    name: 'vitest',
    after: ['build'],
    live: true,
    // One test file per core, not vitest's default of one less: most files spend much of their time waiting
    // on a child process, a socket or the database, and on two cores the default is a single worker.
    command: `pnpm exec vitest run --maxWorkers=${Math.max(2, availableParallelism())} --reporter=default --reporter=./scripts/test/summary-reporter.mjs`,
    env: { XSVC_TEST_SUMMARY: summaryFile },
  },
  { name: 'typecheck', after: ['build'], command: 'pnpm typecheck' },
  { name: 'lint', after: ['build'], command: 'pnpm lint' },
  { name: 'docs', after: ['build'], command: 'pnpm docs:build' },
  // Getting started and the guides, run as written in an empty folder against the packed tarballs.
  { name: 'docs-run', after: ['build'], command: 'node scripts/docs-run.mjs' },
  { name: 'bun-verifier', after: ['build'], command: 'pnpm -C packages/webhook-verifier test:bun' },
  { name: 'bun-sdk', after: ['bun-verifier'], command: 'pnpm -C packages/sdk test:bun' },
  { name: 'deno-verifier', after: ['bun-sdk'], command: 'pnpm -C packages/webhook-verifier test:deno' },
  { name: 'deno-sdk', after: ['deno-verifier'], command: 'pnpm -C packages/sdk test:deno' },
];

// `XSVC_TEST_PHASES=typecheck,lint pnpm test` runs only the phases named (those they come after are taken
// as done): for a rerun of what failed, and for trying the driver itself.
const only = process.env.XSVC_TEST_PHASES?.split(',')
  .map((n) => n.trim())
  .filter(Boolean);
if (only) {
  const unknown = only.filter((n) => !phases.some((p) => p.name === n));
  if (unknown.length) {
    console.error(
      `XSVC_TEST_PHASES names no phase ${unknown.join(', ')}; the phases: ${phases.map((p) => p.name).join(', ')}`,
    );
    process.exit(2);
  }
  for (const phase of phases) phase.after = (phase.after ?? []).filter((d) => only.includes(d));
  phases.splice(0, phases.length, ...phases.filter((p) => only.includes(p.name)));
}

/** The `times` line of the phase's shell (user and system CPU of its children, e.g. `1m2.5s 0m3.1s`). */
function cpuSeconds(times) {
  const line = times.trim().split('\n').at(-1) ?? '';
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return parts.length === 2 ? parts[0] + parts[1] : Number.NaN;
}

const t0 = performance.now();
const since = (t) => (t - t0) / 1000;
/** @type {Map<string, {state: 'waiting'|'running'|'passed'|'failed'|'skipped', start?: number, end?: number, cpu?: number, output: string}>} */
const status = new Map(phases.map((p) => [p.name, { state: 'waiting', output: '' }]));
/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();

/** Starts one phase; resolves when it has ended. */
function run(phase) {
  const s = status.get(phase.name);
  s.state = 'running';
  s.start = performance.now();
  console.log(`\n▶ ${phase.name}: ${phase.command}`);
  return new Promise((resolve) => {
    // The shell reports its children's CPU time on fd 3 (`times`), keeping the phase's exit code.
    const script = `${phase.command}\nrc=$?\ntimes >&3\nexit $rc`;
    const child = spawn('sh', ['-c', script], {
      cwd: root,
      env: { ...process.env, ...phase.env },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    children.add(child);
    const take = (chunk) => {
      s.output += chunk;
      if (phase.live) process.stdout.write(chunk);
    };
    child.stdout.setEncoding('utf8').on('data', take);
    child.stderr.setEncoding('utf8').on('data', take);
    let times = '';
    child.stdio[3].setEncoding('utf8').on('data', (chunk) => {
      times += chunk;
    });
    child.on('close', (code, signal) => {
      children.delete(child);
      s.end = performance.now();
      s.cpu = cpuSeconds(times);
      s.state = code === 0 ? 'passed' : 'failed';
      const seconds = ((s.end - s.start) / 1000).toFixed(1);
      const verdict = code === 0 ? 'ok' : `FAILED (${signal ?? `exit ${code}`})`;
      if (!phase.live) process.stdout.write(`\n── ${phase.name} output ──\n${s.output}`);
      console.log(`■ ${phase.name}: ${verdict} in ${seconds} s`);
      resolve();
    });
  });
}

/** Runs every phase as soon as those it comes after have passed; a phase after a failed one is skipped. */
async function schedule() {
  const running = new Map();
  for (;;) {
    for (const phase of phases) {
      const s = status.get(phase.name);
      if (s.state !== 'waiting') continue;
      const deps = (phase.after ?? []).map((d) => status.get(d).state);
      if (deps.some((d) => d === 'failed' || d === 'skipped')) s.state = 'skipped';
      else if (deps.every((d) => d === 'passed')) running.set(phase.name, run(phase));
    }
    if (running.size === 0) return;
    await Promise.race([...running].map(([name, p]) => p.then(() => running.delete(name))));
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) {
      try {
        process.kill(-child.pid, signal);
      } catch {}
    }
    process.exit(130);
  });
}

await schedule();
const total = since(performance.now());

const pad = (v, n) => String(v).padStart(n);

console.log('\n══ Phases (seconds from the start of `pnpm test`) ══');
console.log(
  `${'phase'.padEnd(16)} ${pad('start', 7)} ${pad('end', 7)} ${pad('wall', 7)} ${pad('cpu', 7)}  result`,
);
for (const phase of phases) {
  const s = status.get(phase.name);
  const cells =
    s.start === undefined
      ? [pad('', 7), pad('', 7), pad('', 7), pad('', 7)]
      : [
          pad(since(s.start).toFixed(1), 7),
          pad(since(s.end).toFixed(1), 7),
          pad(((s.end - s.start) / 1000).toFixed(1), 7),
          pad(Number.isNaN(s.cpu) ? '?' : s.cpu.toFixed(1), 7),
        ];
  console.log(`${phase.name.padEnd(16)} ${cells.join(' ')}  ${s.state}`);
}
const cpuTotal = phases.reduce((sum, p) => sum + (status.get(p.name).cpu ?? 0), 0);
console.log(
  `${'total'.padEnd(16)} ${pad('', 7)} ${pad(total.toFixed(1), 7)} ${pad(total.toFixed(1), 7)} ${pad(cpuTotal.toFixed(1), 7)}`,
);

let summary;
try {
  summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
} catch {}
if (summary) {
  console.log('\n══ vitest ══');
  console.log(
    `${summary.files} test files, ${summary.tests} tests (${summary.passed} passed, ${summary.failed} failed, ` +
      `${summary.skipped} skipped), ${summary.expects} expect calls`,
  );
  console.log(
    `summed over files: ${summary.importSeconds.toFixed(0)} s importing, ${summary.testSeconds.toFixed(0)} s in tests; ` +
      `run ${summary.wallSeconds.toFixed(0)} s`,
  );
  console.log('\nslowest test files (seconds: whole file / import / tests)');
  for (const f of summary.perFile.slice(0, 15))
    console.log(
      `${pad(f.seconds.toFixed(1), 7)} ${pad(f.importSeconds.toFixed(1), 6)} ${pad(f.testSeconds.toFixed(1), 6)}  ${f.project.padEnd(10)} ${f.file}`,
    );
}
const runtimes = phases.filter((p) => /^(bun|deno)-/.test(p.name));
const counted = runtimes
  .map((p) => {
    const out = stripVTControlCharacters(status.get(p.name).output);
    const files = out.match(/Test Files\s+(.*)/)?.[1]?.trim();
    const tests = out.match(/\n\s+Tests\s+(.*)/)?.[1]?.trim();
    return files ? `${p.name.padEnd(16)} files: ${files}; tests: ${tests}` : undefined;
  })
  .filter(Boolean);
if (counted.length) console.log(`\n══ Bun and Deno ══\n${counted.join('\n')}`);

const failed = phases.filter((p) => status.get(p.name).state !== 'passed');
for (const phase of failed.filter((p) => status.get(p.name).state === 'failed'))
  console.log(`\n══ ${phase.name} FAILED: its whole output ══\n${status.get(phase.name).output}`);
rmSync(work, { recursive: true, force: true });
if (failed.length) {
  console.log(
    `\npnpm test failed: ${failed.map((p) => `${p.name} (${status.get(p.name).state})`).join(', ')}`,
  );
  process.exit(1);
}
console.log(`\npnpm test passed in ${total.toFixed(0)} s`);
