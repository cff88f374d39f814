import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV_HELP, envName } from '../../src/core/config.js';
import { serverVersion } from '../../src/features/discovery/version.js';
import { BIN, childSetup, requireBuiltServer } from './child-server.js';

/** Runs the built server to its exit; its exit code, stderr, stdout and how long it took. */
function runToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; stdout: string; ms: number }> {
  requireBuiltServer();
  const started = Date.now();
  const child = spawn(process.execPath, [BIN], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout, ms: Date.now() - started });
    });
  });
}

describe('start-up on a taken port (xsvc-server)', () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((r) => taken.listen({ port: 0, host: '127.0.0.1' }, () => r()));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => taken.close(() => r()));
  });

  it('fails fast with one line that says what to do, before the database, seeding or the key file', async () => {
    const setup = childSetup({ PORT: String(port), XSVC_SEED_SIZE: 'default' });
    try {
      const r = await runToExit(setup.env);
      expect(r.code).toBe(2);
      // One line, no stack trace, naming the port and the way out.
      expect(r.stderr.endsWith('\n')).toBe(true);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(r.stderr).toContain('PORT=');
      expect(r.stderr).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
      expect(r.stdout).toBe('');
      // Nothing was prepared: no database file (the default seed would take a while), no key file.
      expect(existsSync(setup.env.DATABASE_URL as string)).toBe(false);
      expect(existsSync(setup.env.XSVC_KEY_FILE as string)).toBe(false);
      expect(r.ms).toBeLessThan(10_000);
    } finally {
      setup.remove();
    }
  });

  it('an address that is not the machine own says to set HOST', async () => {
    const setup = childSetup({ PORT: '8999', HOST: '192.0.2.1' });
    try {
      const r = await runToExit(setup.env);
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('HOST=');
      expect(existsSync(setup.env.XSVC_KEY_FILE as string)).toBe(false);
    } finally {
      setup.remove();
    }
  });
});

describe('the command line of xsvc-server', () => {
  /** Runs the built server with `args` in an empty folder; its exit code and output. */
  function run(args: string[]) {
    requireBuiltServer();
    const cwd = mkdtempSync(join(tmpdir(), 'xsvc-args-'));
    const r = spawnSync(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, PORT: '0', XSVC_SEED_SIZE: 'default' },
      encoding: 'utf8',
      timeout: 15_000,
    });
    // Asking for help or a version prepares nothing: no database, no key file.
    const made = readdirSync(cwd);
    rmSync(cwd, { recursive: true, force: true });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr, made };
  }

  it('--help lists every environment variable with its meaning, and starts nothing', () => {
    for (const flag of ['--help', '-h']) {
      const r = run([flag]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.made).toEqual([]);
      expect(r.stdout).toMatch(/^xsvc-server \d+\.\d+\.\d+/);
      for (const key of Object.keys(ENV_HELP) as (keyof typeof ENV_HELP)[])
        expect(r.stdout).toContain(`${envName(key)} `);
      expect(r.stdout).toContain('XSVC_WEBHOOK_THREADS');
      expect(r.stdout).toContain('(default 8787)');
    }
  });

  it('--version prints the package version', () => {
    const r = run(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(serverVersion());
    expect(r.made).toEqual([]);
  });

  it('refuses arguments with one line that points at the environment, exit code 2', () => {
    const r = run(['--port', '9000']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('xsvc-server takes no arguments (got "--port")');
    expect(r.stderr).toContain('xsvc-server --help');
    expect(r.made).toEqual([]);
  });

  it('every variable is in the README table too', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    for (const key of Object.keys(ENV_HELP) as (keyof typeof ENV_HELP)[])
      expect(readme).toContain(`\`${envName(key)}\``);
  });
});
