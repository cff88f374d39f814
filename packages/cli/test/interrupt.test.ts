import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigHome } from './helpers.js';
import { startLocalServer } from './local-server.js';

/**
 * Ctrl-C in the live commands: the built bin, against a local server, stopped with SIGINT, exits 130 as
 * `xsvc help exit-codes` says (needs `pnpm -C packages/cli build`; `pnpm test` builds first).
 */
const BIN = join(import.meta.dirname, '../dist/bin.js');
const KEY = `svc_${'d1'.repeat(32)}`;
const home = tempConfigHome();
let base = '';
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  const server = await startLocalServer(KEY);
  base = server.base;
  close = () => server.close();
});
afterAll(() => close());

/** Runs `xsvc <args>` until it has polled the service at least once, then sends SIGINT. */
function interrupted(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_CONFIG_HOME: home,
        NO_COLOR: '1',
        XSVC_BASE_URL: base,
        XSVC_API_KEY: KEY,
        XSVC_POLL_INTERVAL_MS: '50',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.stdout.resume();
    const timer = setTimeout(() => child.kill('SIGINT'), 1500);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe.skipIf(!existsSync(BIN))('Ctrl-C in a live command exits 130', () => {
  it('monitors watch', async () => {
    const res = await interrupted(['monitors', 'watch', '--json']);
    expect(res.stderr).not.toMatch(/error/);
    expect(res.code).toBe(130);
  });

  it('webhooks listen', async () => {
    const res = await interrupted(['webhooks', 'listen', '--forward-to', `${base}/nowhere`, '--json']);
    expect(res.stderr).not.toMatch(/error/);
    expect(res.code).toBe(130);
  });
});
