/**
 * `pnpm test:docs`: the docs as a newcomer follows them. Runs the shell and code blocks of
 * docs/getting-started.md, then of every guide (docs/guides/*.md), literally and in page order, in an empty
 * folder outside the workspace, against the packed tarballs, and stops at the first block that does not work
 * as written, printing its file, line and text, its output and the output of what runs in the background.
 *
 * What a block is, from its fence's info string (after the language):
 *
 *   ```sh                     run in bash (`set -e -o pipefail`); its exports and `cd` carry on to the next
 *                             blocks of the page, as in one terminal
 *   ```sh background          started in a second terminal and left running until the end of the page
 *                             (`keep`: until the end of the run, e.g. the server the guides talk to);
 *                             `wait-port=N` waits until 127.0.0.1:N accepts connections, `wait-file=F`
 *                             until the file F exists (both: both)
 *   ```sh expect=TEXT         after the block, wait (at most 20 s) until a background block printed TEXT
 *   ```js file=receiver.mjs   a file the page tells the reader to save: written to the folder, not run
 *   ```ts                     a program: saved in the folder and run with `npx tsx` (js/mjs: `node`)
 *   ```sh no-run              cannot run here (a real X app, Postgres, another host, an output sample, a
 *                             fragment); listed in the summary, never skipped silently
 *
 * Other languages (json, text, …) are data, not programs, and are not run. Each guide starts where getting
 * started ended: in its folder, with its server, its CLI profile and its environment.
 *
 * What the runner provides, and why:
 * - The tarballs: it packs the built packages once (scripts/pack-all.mjs, into its own folder) and sets
 *   `XSVC_PACKS` to it, which is what the docs tell a reader with a clone to do.
 * - A private HOME (the CLI's profile), an npm prefix for `npm install -g` (on PATH) and no workspace
 *   binaries on PATH; the real npm cache with `prefer-offline`, no audit, no fund (as npm config
 *   variables, so the commands stay as written).
 * - better-sqlite3's native module: `npm install` of the server runs better-sqlite3's install script,
 *   which downloads a prebuilt binary from GitHub or else compiles SQLite (about 70 s on two cores). The
 *   runner instead hands prebuild-install the binary the workspace already built, as a local prebuild
 *   (`npm_config_better_sqlite3_local_prebuilds`), so the server is installed from its tarball as written,
 *   with its own dependencies, and nothing but the npm registry and loopback is reached.
 * - Ports: the docs use 8787 (the server) and 3000 (a receiver). When one of them is taken on this machine,
 *   another free port is used in its place, in the blocks' text and as `PORT` / `XSVC_BASE_URL`.
 *
 * Flags: `--keep` keeps the folder (and the output of each background block, as background-*.log); `--verbose` prints the end of each block's output; `--only getting-started.md,guides/cli.md` runs only those pages (after
 * getting started, which every guide builds on). Exit code 0 when every runnable block worked.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, relative, resolve } from 'node:path';
import { packAll } from './pack-all.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DOCS = join(ROOT, 'docs');
const SHELL = new Set(['sh', 'bash', 'shell']);
const PROGRAM = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs']);
const BLOCK_TIMEOUT_MS = 120_000;

/**
 * @typedef {object} Block
 * @property {string} file  path under docs/
 * @property {number} line  of the opening fence, 1-based
 * @property {string} lang
 * @property {Record<string, string | true>} attrs  the info string's words after the language
 * @property {string} code
 */

/** The info string's attributes: `no-run`, `background`, `keep`, `wait-port=8787`, `file=x.ts`, `expect=…`. */
export function parseAttrs(meta) {
  /** @type {Record<string, string | true>} */
  const attrs = {};
  for (const m of meta.matchAll(/([\w-]+)(?:=(?:"([^"]*)"|(\S+)))?/g)) attrs[m[1]] = m[2] ?? m[3] ?? true;
  return attrs;
}

/** The fenced blocks of a page (``` or longer fences). */
export function pageBlocks(file, text) {
  /** @type {Block[]} */
  const blocks = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})\s*([\w-]*)\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang, meta] = open;
    const body = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j].trimStart().startsWith(fence); j++)
      body.push(lines[j].slice(indent.length));
    blocks.push({
      file,
      line: i + 1,
      lang: lang.toLowerCase(),
      attrs: parseAttrs(meta),
      code: body.join('\n'),
    });
    i = j;
  }
  return blocks;
}

/** Whether the runner runs a block (or writes it, for `file=`). */
export const runnable = (b) => (SHELL.has(b.lang) || PROGRAM.has(b.lang)) && !b.attrs['no-run'];

/** The pages, in the order a reader takes them: getting started, then the guides. */
export function docPages() {
  const guides = readdirSync(join(DOCS, 'guides'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `guides/${f}`);
  return ['getting-started.md', ...guides];
}

const freePort = () =>
  new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });

const portFree = (port) =>
  new Promise((ok) => {
    const s = createServer();
    s.once('error', () => ok(false));
    s.listen(port, '127.0.0.1', () => s.close(() => ok(true)));
  });

const accepts = (port) =>
  new Promise((ok) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      ok(true);
    });
    c.once('error', () => ok(false));
  });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const tail = (text, n = 60) => text.trimEnd().split('\n').slice(-n).join('\n');

/** The binary of better-sqlite3 the workspace built, packed as prebuild-install looks for a local prebuild. */
function localPrebuild(dir) {
  const server = join(ROOT, 'packages/server');
  const found = spawnSync(
    process.execPath,
    ['-e', "process.stdout.write(require.resolve('better-sqlite3/package.json'))"],
    { cwd: server, encoding: 'utf8' },
  );
  if (found.status !== 0) return undefined;
  const pkgDir = resolve(found.stdout, '..');
  const { version } = JSON.parse(readFileSync(found.stdout, 'utf8'));
  if (!existsSync(join(pkgDir, 'build/Release/better_sqlite3.node'))) return undefined;
  mkdirSync(dir, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const tar = spawnSync('tar', ['-czf', join(dir, name), 'build/Release/better_sqlite3.node'], {
    cwd: pkgDir,
  });
  return tar.status === 0 ? dir : undefined;
}

/** The environment of the blocks: the reader's machine, without the workspace and with a private home. */
function baseEnv(work, packs, prebuilds) {
  const npmCache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|PNPM_|XSVC_|INIT_CWD$|NODE_OPTIONS$|NODE_PATH$|VITEST)/i.test(k)) continue;
    env[k] = v;
  }
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((p) => p && !resolve(p).startsWith(ROOT) && !p.includes('node_modules'));
  Object.assign(env, {
    HOME: join(work, 'home'),
    PATH: [join(work, 'global/bin'), ...path].join(delimiter),
    XSVC_PACKS: packs,
    NO_COLOR: '1',
    npm_config_prefix: join(work, 'global'),
    npm_config_cache: npmCache || join(process.env.HOME ?? work, '.npm'),
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_yes: 'true',
  });
  if (prebuilds) env.npm_config_better_sqlite3_local_prebuilds = prebuilds;
  mkdirSync(env.HOME, { recursive: true });
  return env;
}

/** Reads `env -0` output. */
const parseEnv = (text) =>
  Object.fromEntries(
    text
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );

/**
 * Runs a command in its own process group; resolves with its exit code and output. Kills the group after
 * `timeoutMs`.
 */
function exec(command, args, { cwd, env, timeoutMs = BLOCK_TIMEOUT_MS }) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c) => {
      out += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c) => {
      out += c;
    });
    const timer = setTimeout(() => {
      out += `\n[docs-run: no end after ${timeoutMs / 1000} s, stopped]`;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? (signal ? 128 : 1), out });
    });
  });
}

async function main() {
  const argv = process.argv.slice(2);
  const keep = argv.includes('--keep');
  const verbose = argv.includes('--verbose');
  const onlyAt = argv.indexOf('--only');
  const only = onlyAt >= 0 ? new Set(argv[onlyAt + 1]?.split(',')) : undefined;
  const t0 = performance.now();
  const seconds = () => ((performance.now() - t0) / 1000).toFixed(1);

  const work = mkdtempSync(join(tmpdir(), 'xsvc-docs-run-'));
  if (!relative(ROOT, work).startsWith('..'))
    throw new Error(`the temporary folder ${work} is inside the workspace`);
  const app = join(work, 'app');
  mkdirSync(app);
  /** @type {Set<{ child: import('node:child_process').ChildProcess, block: Block, log: () => string, keep: boolean }>} */
  const background = new Set();
  /** Stops background blocks (their whole process groups): SIGTERM, then SIGKILL after 5 s. */
  const stopAll = async (which = () => true) => {
    const stopping = [...background].filter(which);
    const signal = (b, sig) => {
      try {
        process.kill(-b.child.pid, sig);
      } catch {}
    };
    for (const b of stopping) signal(b, 'SIGTERM');
    const deadline = Date.now() + 5000;
    while (stopping.some((b) => b.child.exitCode === null && b.child.signalCode === null)) {
      if (Date.now() > deadline) {
        for (const b of stopping) signal(b, 'SIGKILL');
        break;
      }
      await sleep(50);
    }
    for (const b of stopping) {
      signal(b, 'SIGKILL'); // what the block left behind in its group
      if (keep)
        writeFileSync(
          join(work, `background-${b.block.file.replace(/\W+/g, '-')}-${b.block.line}.log`),
          b.log(),
        );
      b.child.stdout?.destroy();
      b.child.stderr?.destroy();
      background.delete(b);
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => {
      for (const b of background)
        try {
          process.kill(-b.child.pid, 'SIGKILL');
        } catch {}
      process.exit(130);
    });

  try {
    const packs = join(work, 'packs');
    packAll({ outDir: packs, build: false, log: () => {} });
    const prebuilds = localPrebuild(join(work, 'prebuilds'));
    const env = baseEnv(work, packs, prebuilds);
    console.log(
      `docs-run: packed ${readdirSync(packs).length} tarballs into ${packs} (${seconds()} s); the folder: ${app}` +
        (prebuilds ? '' : '\n  (no built better-sqlite3 in the workspace: the server install compiles it)'),
    );

    // The docs' ports, or free ones in their place when this machine uses them.
    /** @type {Map<number, number>} */
    const ports = new Map();
    for (const p of [8787, 3000]) ports.set(p, (await portFree(p)) ? p : await freePort());
    const moved = [...ports].filter(([a, b]) => a !== b);
    if (moved.length)
      console.log(`  ports in use here, moved: ${moved.map(([a, b]) => `${a} → ${b}`).join(', ')}`);
    if (ports.get(8787) !== 8787) {
      env.PORT = String(ports.get(8787));
      env.XSVC_BASE_URL = `http://127.0.0.1:${ports.get(8787)}`;
    }
    const text = (code) =>
      moved.reduce((c, [a, b]) => c.replace(new RegExp(`\\b${a}\\b`, 'g'), String(b)), code);

    /** @type {{ env: Record<string, string>, cwd: string }} */
    let afterGettingStarted = { env, cwd: app };
    const skipped = [];
    let ran = 0;
    for (const page of docPages()) {
      if (only && page !== 'getting-started.md' && !only.has(page)) continue;
      const blocks = pageBlocks(page, readFileSync(join(DOCS, page), 'utf8'));
      let state = { env: { ...afterGettingStarted.env }, cwd: afterGettingStarted.cwd };
      let n = 0;
      for (const block of blocks) {
        if (!SHELL.has(block.lang) && !PROGRAM.has(block.lang)) continue;
        const where = `docs/${block.file}:${block.line}`;
        if (block.attrs['no-run']) {
          skipped.push(
            `${where}${typeof block.attrs['no-run'] === 'string' ? `: ${block.attrs['no-run']}` : ''}`,
          );
          continue;
        }
        let code = text(block.code);
        const fail = (why, output = '') => {
          const bg = [...background]
            .map((b) => `── background: docs/${b.block.file}:${b.block.line} ──\n${tail(b.log(), 30)}`)
            .join('\n');
          console.error(
            `\n✗ ${where}: ${why}\n\n\`\`\`${block.lang} ${Object.keys(block.attrs).join(' ')}\n${block.code}\n\`\`\`\n` +
              (output ? `\n── its output ──\n${tail(output)}\n` : '') +
              (bg ? `\n${bg}\n` : ''),
          );
          return 1;
        };
        n++;
        ran++;
        const started = performance.now();
        const took = () => {
          const s = (performance.now() - started) / 1000;
          if (s >= 3) console.log(`  ${where}: ${s.toFixed(1)} s`);
        };
        if (typeof block.attrs.file === 'string') {
          writeFileSync(join(state.cwd, block.attrs.file), `${code}\n`);
          continue;
        }
        if (PROGRAM.has(block.lang)) {
          // A program is saved in the folder and run as the docs run theirs (getting started: `npx tsx`).
          const ts = block.lang.startsWith('t');
          const file = `docs-${block.file.replace(/\W+/g, '-')}-${block.line}.${ts ? 'ts' : 'mjs'}`;
          writeFileSync(join(state.cwd, file), `${code}\n`);
          code = `${ts ? 'npx tsx' : 'node'} ${file}`;
        }
        if (block.attrs.background) {
          let log = '';
          const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', code], {
            cwd: state.cwd,
            env: state.env,
            stdio: ['ignore', 'pipe', 'pipe'],
            detached: true,
          });
          child.stdout.setEncoding('utf8').on('data', (c) => {
            log += c;
          });
          child.stderr.setEncoding('utf8').on('data', (c) => {
            log += c;
          });
          let exited;
          child.on('exit', (c) => {
            exited = c ?? 1;
          });
          background.add({ child, block, log: () => log, keep: Boolean(block.attrs.keep) });
          const port = block.attrs['wait-port'] ? Number(text(String(block.attrs['wait-port']))) : undefined;
          const deadline = Date.now() + BLOCK_TIMEOUT_MS;
          const file =
            typeof block.attrs['wait-file'] === 'string'
              ? join(state.cwd, block.attrs['wait-file'])
              : undefined;
          const waitingFor = [
            port && `127.0.0.1:${port} to accept connections`,
            file && `${block.attrs['wait-file']} to exist`,
          ]
            .filter(Boolean)
            .join(' and ');
          if (waitingFor) {
            while (!((!port || (await accepts(port))) && (!file || existsSync(file)))) {
              if (exited !== undefined) return fail(`exited ${exited} while waiting for ${waitingFor}`, log);
              if (Date.now() > deadline)
                return fail(`waited ${BLOCK_TIMEOUT_MS / 1000} s for ${waitingFor}`, log);
              await sleep(100);
            }
          } else {
            await sleep(1000);
            if (exited !== undefined && exited !== 0) return fail(`exited ${exited}`, log);
          }
          took();
          continue;
        }
        const stateFile = join(work, 'state');
        const script = `cd ${JSON.stringify(state.cwd)}\n${code}\n{ pwd; } > ${JSON.stringify(`${stateFile}.cwd`)}; env -0 > ${JSON.stringify(`${stateFile}.env`)}\n`;
        rmSync(`${stateFile}.env`, { force: true });
        const r = await exec('bash', ['-e', '-o', 'pipefail', '-c', script], state);
        if (verbose)
          console.log(`  ── docs/${block.file}:${block.line} ──\n${tail(r.out, 20).replace(/^/gm, '  ')}`);
        if (r.code !== 0) return fail(`exited ${r.code}`, r.out);
        if (!existsSync(`${stateFile}.env`)) return fail('ended early (an `exit` in the block?)', r.out);
        state = {
          env: parseEnv(readFileSync(`${stateFile}.env`, 'utf8')),
          cwd: readFileSync(`${stateFile}.cwd`, 'utf8').trim(),
        };
        if (typeof block.attrs.expect === 'string') {
          const want = text(block.attrs.expect);
          const deadline = Date.now() + 20_000;
          while (![...background].some((b) => b.log().includes(want))) {
            if (Date.now() > deadline)
              return fail(`nothing in the background printed "${want}" within 20 s`, r.out);
            await sleep(200);
          }
        }
        took();
      }
      console.log(`✓ docs/${page}: ${n} blocks (${seconds()} s)`);
      if (page === 'getting-started.md') afterGettingStarted = state;
      await stopAll((b) => !b.keep);
    }
    console.log(
      `\ndocs-run: ${ran} blocks worked as written in ${seconds()} s; ${skipped.length} marked no-run:\n  ${skipped.join('\n  ')}`,
    );
    return 0;
  } finally {
    await stopAll();
    if (keep) console.log(`kept: ${work}`);
    else {
      const t = performance.now();
      rmSync(work, { recursive: true, force: true });
      console.log(
        `docs-run: removed ${work} in ${((performance.now() - t) / 1000).toFixed(1)} s (${seconds()} s in all)`,
      );
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(`docs-run: ${error instanceof Error ? error.stack : error}`);
      process.exitCode = 1;
    },
  );
