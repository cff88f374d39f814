import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built `xsvc-server` (`pnpm -C packages/server build`; `pnpm test` builds first). */
export const BIN = resolve(fileURLToPath(import.meta.url), '../../../dist/bin.js');

/** Throws a clear message when the server was not built. */
export function requireBuiltServer(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`pnpm -C packages/server build\` first`);
}

/** A temporary directory with a SQLite file, a key file path and the owner's key, for one test. */
export interface ChildSetup {
  dir: string;
  key: string;
  env: Record<string, string>;
  remove(): void;
}

/** A fresh setup: a SQLite file in a temp dir, the simulated platform (tiny seed), a fixed owner key. */
export function childSetup(extra: Record<string, string> = {}): ChildSetup {
  const dir = mkdtempSync(join(tmpdir(), 'xsvc-crash-'));
  const key = `svc_${randomBytes(32).toString('hex')}`;
  return {
    dir,
    key,
    env: {
      DATABASE_URL: join(dir, 'xsvc.db'),
      PORT: '0',
      HOST: '127.0.0.1',
      XSVC_PLATFORM: 'simulated',
      XSVC_SEED_SIZE: 'tiny',
      XSVC_BOOTSTRAP_API_KEY: key,
      XSVC_KEY_FILE: join(dir, 'owner-api-key'),
      LOG_LEVEL: 'error',
      ...extra,
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A running child server. */
export interface Child {
  child: ChildProcess;
  url: string;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** What it wrote to stdout so far (its banner and, with a `LOG_LEVEL`, its log lines). */
  stdout(): string;
}

/**
 * Starts the built server with `env` (and `nodeArgs` before the script, such as `--import` of a preload);
 * resolves once it listens (rejects with its output if it exits).
 */
export function startChild(
  env: Record<string, string>,
  timeoutMs = 30_000,
  nodeArgs: readonly string[] = [],
): Promise<Child> {
  requireBuiltServer();
  const child = spawn(process.execPath, [...nodeArgs, BIN], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${out}\n${err}`));
    }, timeoutMs);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolveStart({ child, url: m[1], stderr: () => err, stdout: () => out });
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}):\n${out}\n${err}`));
    });
  });
}

/** Resolves when `child` has exited. */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

/** `kill -9`, and waits for the process to be gone. */
export async function killHard(c: Child): Promise<void> {
  c.child.kill('SIGKILL');
  await exited(c.child);
}

/** A JSON request to a child server as `key`. */
export async function call(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: answers are JSON checked field by field by the assertions
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

/** Runs the built server with `env` until it exits (it must, within `ms`): its exit code and stderr. */
export function runToExit(
  env: Record<string, string>,
  ms = 20_000,
): Promise<{ code: number | null; stderr: string }> {
  requireBuiltServer();
  const child = spawn(process.execPath, [BIN], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not exit:\n${stderr}`));
    }, ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}
