/**
 * `pnpm start`: builds every package quietly, then starts the server. Each package's build runs with its
 * output captured and says one line (`✓ @xsvc/sdk  3.2 s`); a failing build prints its whole output and
 * stops with its exit code, before anything starts. Then `packages/server/dist/bin.js` runs in this
 * terminal (its banner, its progress bar, its request log), and this process exits with it.
 *
 * The order is the workspace's dependency order, read from the packages' own `package.json` files (the
 * same order `pnpm -r run build` follows); the builds run one after another (the tools that build them
 * already use every core).
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** @typedef {{ name: string, dir: string, deps: string[], hasBuild: boolean }} WorkspacePackage */

/**
 * The packages under `<root>/packages` that have a build script, dependencies first.
 * @param {string} root
 * @returns {WorkspacePackage[]}
 */
export function buildOrder(root) {
  const dir = join(root, 'packages');
  /** @type {Map<string, WorkspacePackage>} */
  const byName = new Map();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(join(dir, entry.name, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    const all = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies };
    byName.set(manifest.name, {
      name: manifest.name,
      dir: join(dir, entry.name),
      deps: Object.keys(all).filter((d) => String(all[d]).startsWith('workspace:')),
      hasBuild: typeof manifest.scripts?.build === 'string',
    });
  }
  /** @type {WorkspacePackage[]} */
  const order = [];
  const seen = new Set();
  /** @param {WorkspacePackage} pkg */
  const visit = (pkg) => {
    if (seen.has(pkg.name)) return;
    seen.add(pkg.name);
    for (const dep of pkg.deps) {
      const d = byName.get(dep);
      if (d) visit(d);
    }
    order.push(pkg);
  };
  for (const name of [...byName.keys()].sort()) visit(/** @type {WorkspacePackage} */ (byName.get(name)));
  return order.filter((p) => p.hasBuild);
}

/**
 * The line of a finished build: a mark, the package, how long it took.
 * @param {{ name: string, ok: boolean, ms: number, width: number, color: boolean }} r
 */
export function resultLine({ name, ok, ms, width, color }) {
  const mark = ok ? '✓' : '✗';
  const painted = color ? `\u001b[${ok ? 32 : 31}m${mark}\u001b[0m` : mark;
  return `  ${painted} ${name.padEnd(width)}  ${(ms / 1000).toFixed(1)} s`;
}

/**
 * Runs `pnpm run build` in `pkg.dir` with its output captured: stdout and stderr go to one temporary file, in
 * the order they were written. A file rather than a pipe: writes to a file are synchronous, so a build tool
 * that calls `process.exit()` right after printing its errors (as `tsc` does) loses none of them.
 * @param {WorkspacePackage} pkg
 * @param {string} pnpm the command that runs pnpm
 * @returns {Promise<{ code: number, output: string, ms: number }>}
 */
export function runBuild(pkg, pnpm = process.env.npm_execpath ?? 'pnpm') {
  const started = Date.now();
  // npm_execpath is pnpm's own script when `pnpm start` runs this; it is run with this Node.
  const [command, args] = /\.[cm]?js$/.test(pnpm) ? [process.execPath, [pnpm]] : [pnpm, []];
  const dir = mkdtempSync(join(tmpdir(), 'xsvc-build-'));
  const file = join(dir, 'output.log');
  const fd = openSync(file, 'w');
  return new Promise((resolveRun) => {
    let finished = false;
    const finish = (/** @type {number} */ code, /** @type {string} */ extra = '') => {
      if (finished) return;
      finished = true;
      closeSync(fd);
      const output = readFileSync(file, 'utf8') + extra;
      rmSync(dir, { recursive: true, force: true });
      resolveRun({ code, output, ms: Date.now() - started });
    };
    const child = spawn(command, [...args, 'run', 'build'], {
      cwd: pkg.dir,
      env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
      stdio: ['ignore', fd, fd],
    });
    child.on('error', (err) => finish(1, `${err.message}\n`));
    child.on('exit', (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Builds `packages` in order, a line each on `out`; stops at the first failure, after writing its output in
 * full. Returns the failing build's exit code, or 0.
 * @param {WorkspacePackage[]} packages
 * @param {{ out?: NodeJS.WriteStream, run?: typeof runBuild }} [options]
 */
export async function buildQuietly(packages, { out = process.stdout, run = runBuild } = {}) {
  const tty = out.isTTY === true;
  const color = tty && process.env.NO_COLOR === undefined;
  const width = Math.max(...packages.map((p) => p.name.length));
  const started = Date.now();
  out.write(`Building ${packages.length} packages\n`);
  for (const pkg of packages) {
    if (tty) out.write(`  … ${pkg.name}`);
    const r = await run(pkg);
    if (tty) out.write('\r\u001b[K');
    out.write(`${resultLine({ name: pkg.name, ok: r.code === 0, ms: r.ms, width, color })}\n`);
    if (r.code !== 0) {
      out.write(`\nThe build of ${pkg.name} failed (exit code ${r.code}); its output:\n\n${r.output}`);
      if (!r.output.endsWith('\n')) out.write('\n');
      return r.code;
    }
  }
  out.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return 0;
}

/**
 * Runs the built server in this terminal and resolves with its exit code. Ctrl+C reaches it directly (same
 * process group); this process waits for it to finish stopping.
 * @param {string} root
 */
export function startServer(root) {
  const bin = join(root, 'packages', 'server', 'dist', 'bin.js');
  return new Promise((resolveExit) => {
    const child = spawn(process.execPath, [bin], { stdio: 'inherit' });
    const forward = (/** @type {NodeJS.Signals} */ signal) => () => child.kill(signal);
    // A terminal's Ctrl+C already goes to the child too; a `kill` of this process alone is passed on.
    process.on('SIGINT', () => {});
    process.on('SIGTERM', forward('SIGTERM'));
    child.on('exit', (code, signal) => resolveExit(code ?? (signal === 'SIGINT' ? 130 : 1)));
  });
}

async function main() {
  const root = resolve(fileURLToPath(import.meta.url), '../..');
  const code = await buildQuietly(buildOrder(root));
  if (code !== 0) process.exit(code);
  process.stdout.write('\n');
  process.exit(await startServer(root));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
