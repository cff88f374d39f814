import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ServerConfigLike, ServerModuleLike } from '../../src/interactive/server/module.js';
import { parseServerOptions, run, startServer } from '../../src/interactive/server-start.js';
import { contextFor, fakeIo, jsonLines, mockClient } from './helpers.js';

class FakeConfigError extends Error {}

/** A stand-in for `@xsvc/server` recording what the command asked of it. */
function fakeServer(apiKey?: string) {
  const calls = { parsed: [] as Record<string, unknown>[], listen: [] as unknown[], closed: 0 };
  const mod: ServerModuleLike = {
    configFromEnv: (env) => ({
      port: 8787,
      host: '127.0.0.1',
      platform: 'simulated',
      databaseUrl: env.DATABASE_URL ?? 'x.db',
    }),
    parseConfig: (input) => {
      calls.parsed.push({ ...input });
      if (input.port === 99_999) throw new FakeConfigError('invalid configuration:\n  PORT: too big');
      return input as unknown as ServerConfigLike;
    },
    createServer: async (_config) => ({
      app: {
        listen: async (o) => {
          calls.listen.push(o);
          return `http://${o.host}:${o.port}`;
        },
      },
      services: { database: { dialect: 'sqlite' } },
      close: async () => {
        calls.closed++;
      },
    }),
    bootstrapOwner: async () => ({ created: apiKey !== undefined, ...(apiKey && { apiKey }) }),
    ConfigError: FakeConfigError,
  };
  return { mod, calls };
}

function notFound(what: string): Error {
  return Object.assign(new Error(`Cannot find package '${what}' imported from /x/cli/dist/index.js`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}

describe('server start', () => {
  it('starts the server with the flags over the environment, prints the URL and key, and stops on the signal', async () => {
    const { mod, calls } = fakeServer(`svc_${'1'.repeat(64)}`);
    const io = fakeIo(false);
    const controller = new AbortController();
    const ctx = contextFor(mockClient().client, io, {
      signal: controller.signal,
      env: { DATABASE_URL: 'env.db' },
    });
    const done = startServer(ctx, parseServerOptions({ port: '9000', host: '0.0.0.0' }), async () => mod);
    await vi.waitFor(() => expect(io.stdout.text()).toContain('Press Ctrl-C to stop.'), { timeout: 20_000 });
    expect(calls.closed).toBe(0);
    controller.abort();
    expect(await done).toBe(0);
    expect(calls.closed).toBe(1);
    expect(calls.parsed[0]).toMatchObject({ port: 9000, host: '0.0.0.0', databaseUrl: 'env.db' });
    expect(calls.listen).toEqual([{ port: 9000, host: '0.0.0.0' }]);
    const out = io.stdout.text();
    expect(out).toContain(
      'xsvc server listening on http://0.0.0.0:9000 (platform: simulated, database: sqlite)',
    );
    expect(out).toContain(`  svc_${'1'.repeat(64)}`);
    expect(out).toContain(`export XSVC_BASE_URL=http://0.0.0.0:9000 XSVC_API_KEY=svc_${'1'.repeat(64)}`);
  });

  it('says how to install the server and exits 1 when it is not installed', async () => {
    const io = fakeIo(false);
    const code = await startServer(contextFor(mockClient().client, io), {}, async () => {
      throw notFound('@xsvc/server');
    });
    expect(code).toBe(1);
    expect(io.stderr.text()).toContain('@xsvc/server is not installed');
    expect(io.stderr.text()).toContain('  npm i -g @xsvc/server');
    expect(io.stderr.text()).toContain('  npx @xsvc/server');
  });

  it('does not hide a broken install behind the install hint', async () => {
    const load = async () => {
      throw notFound('fastify');
    };
    await expect(startServer(contextFor(mockClient().client, fakeIo(false)), {}, load)).rejects.toThrow(
      'fastify',
    );
  });

  it('exits 2 on a bad configuration or a bad flag', async () => {
    const { mod } = fakeServer();
    const io = fakeIo(false);
    expect(await startServer(contextFor(mockClient().client, io), { port: 99_999 }, async () => mod)).toBe(2);
    expect(io.stderr.text()).toContain('PORT: too big');
    const io2 = fakeIo(false);
    expect(await run(contextFor(mockClient().client, io2), { port: 'eighty' })).toBe(2);
    expect(io2.stderr.text()).toContain('--port');
  });

  it('runs the real @xsvc/server in-process and answers with the printed key', async () => {
    const io = fakeIo(false);
    const controller = new AbortController();
    const keyFile = join(mkdtempSync(join(tmpdir(), 'xsvc-server-')), 'owner-key');
    const env = { XSVC_SEED_SIZE: 'tiny', XSVC_KEY_FILE: keyFile, LOG_LEVEL: 'silent' };
    const ctx = contextFor(mockClient().client, io, { signal: controller.signal, env, json: true });
    const done = run(ctx, { port: 0, host: '127.0.0.1', databaseUrl: ':memory:' });
    await vi.waitFor(() => expect(io.stdout.text()).toContain('"url"'), { timeout: 15_000, interval: 20 });
    const [started] = jsonLines(io.stdout) as {
      url: string;
      apiKey: string;
      keyFile: string;
      database: string;
    }[];
    expect(started!.keyFile).toBe(keyFile);
    expect(started!.database).toBe('sqlite');
    const res = await fetch(`${started!.url}/api/v1/account`, { headers: { 'x-api-key': started!.apiKey } });
    expect(res.status).toBe(200);
    controller.abort();
    expect(await done).toBe(0);
    await expect(fetch(`${started!.url}/api/v1/account`)).rejects.toThrow();
  });
});
