import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { installLastResort, LAST_RESORT_MARKER } from '../../src/app/last-resort.js';
import { call, childSetup, killHard, startChild } from './child-server.js';

/** A stand-in for `process`: its events, what it wrote on stderr, and whether it exited. */
function fakeProcess() {
  const proc = new EventEmitter() as EventEmitter & { written: string[]; exitCode?: number };
  proc.written = [];
  Object.assign(proc, {
    stderr: { write: (text: string) => proc.written.push(text) },
    exit: (code: number) => {
      proc.exitCode = code;
    },
  });
  return proc;
}

describe('the last-resort handler', () => {
  it('before the server listens: writes the error and ends the process', () => {
    const proc = fakeProcess();
    const handler = installLastResort(proc as unknown as NodeJS.Process);
    proc.emit('uncaughtException', new Error('boom at start'));
    expect(proc.exitCode).toBe(1);
    expect(handler.count()).toBe(1);
    expect(proc.written.join('')).toContain(`${LAST_RESORT_MARKER} uncaughtException #1`);
    expect(proc.written.join('')).toContain('boom at start');
  });

  it('once it listens: logs at fatal, counts, and keeps the process up', () => {
    const proc = fakeProcess();
    const handler = installLastResort(proc as unknown as NodeJS.Process);
    const logged: unknown[] = [];
    handler.listening({ fatal: (...args: unknown[]) => logged.push(args) } as unknown as FastifyBaseLogger);
    proc.emit('uncaughtException', new Error('an error event without a listener'));
    proc.emit('unhandledRejection', new Error('a rejection nobody awaits'));
    expect(proc.exitCode).toBeUndefined();
    expect(handler.count()).toBe(2);
    expect(logged).toHaveLength(2);
    expect(proc.written.join('')).toContain(`${LAST_RESORT_MARKER} unhandledRejection #2`);
  });

  it('in the built server: an unhandled error event and rejection are reported, the server keeps serving', async () => {
    const setup = childSetup();
    const preload = fileURLToPath(new URL('../chaos/unhandled-error-preload.mjs', import.meta.url));
    const server = await startChild(setup.env, 30_000, ['--import', preload]);
    try {
      const reported = (n: number) =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (server.stderr().split(LAST_RESORT_MARKER).length - 1 >= n) resolve();
            else setTimeout(check, 20);
          };
          check();
        });
      server.child.kill('SIGUSR2');
      await reported(1);
      server.child.kill('SIGWINCH');
      await reported(2);
      expect(server.stderr()).toContain('uncaughtException #1');
      expect(server.stderr()).toContain('unhandledRejection #2');
      expect(server.child.exitCode).toBeNull();
      expect((await call(server.url, setup.key, 'GET', '/api/v1/account')).status).toBe(200);
    } finally {
      await killHard(server);
      setup.remove();
    }
  });
});
