/**
 * SQLite faults told, not masked (issue #25, item 3), on a real file system the test makes: a tmpfs of a few
 * MiB. A full disk answers 503 `service_unavailable` with `Retry-After`, the log names SQLITE_FULL (and no
 * "cannot rollback" on top), and writes work again once space is freed, with no restart. A database file
 * that cannot be opened or written at start stops the server with exit code 2 and one line naming it.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, call, childSetup, killHard, runToExit, startChild } from '../hardening/child-server.js';
import { mountSmallFs, type SmallFs } from './tmpfs.js';

const mounted = mountSmallFs(24);
const fs = typeof mounted === 'string' ? undefined : mounted;
if (typeof mounted === 'string') console.warn(`skipping the SQLite fault tests: ${mounted}`);
// At the file's end, whichever of its tests ran (the servers on it are stopped by then).
afterAll(() => fs?.remove());

describe.skipIf(!fs)('SQLite on a disk that fills up', () => {
  const setup = childSetup({ LOG_LEVEL: 'warn' });
  let server: Child | undefined;
  beforeAll(async () => {
    const dir = join((fs as SmallFs).dir, 'full');
    mkdirSync(dir);
    setup.env.DATABASE_URL = join(dir, 'xsvc.db');
    server = await startChild(setup.env);
  }, 40_000);
  afterAll(async () => {
    if (server) await killHard(server);
    setup.remove();
  });

  it('answers 503 service_unavailable with Retry-After, logs SQLITE_FULL once per request, recovers when space is back', async () => {
    const base = (server as Child).url;
    const post = (i: number) =>
      call(base, setup.key, 'POST', '/sim/tweets', {
        author: 'jack',
        text: `full disk ${i} ${'x'.repeat(2000)}`,
      });
    expect((await post(0)).status).toBe(201);
    const filler = (fs as SmallFs).fill();
    // The WAL's pages already on disk take a few more commits; then the disk is full.
    const statuses: number[] = [];
    let unavailable: Awaited<ReturnType<typeof post>> | undefined;
    let headers: Headers | undefined;
    for (let i = 1; i <= 400 && !unavailable; i++) {
      const res = await fetch(`${base}/sim/tweets`, {
        method: 'POST',
        headers: { 'x-api-key': setup.key, 'content-type': 'application/json' },
        body: JSON.stringify({ author: 'jack', text: `full disk ${i} ${'x'.repeat(2000)}` }),
      });
      statuses.push(res.status);
      if (res.status === 503) {
        unavailable = { status: res.status, body: await res.json() };
        headers = res.headers;
      } else await res.arrayBuffer();
    }
    expect(unavailable, `statuses: ${statuses.join(',')}`).toBeDefined();
    expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
    expect(unavailable?.body).toMatchObject({ error: 'service_unavailable', retryAfter: expect.any(Number) });
    expect(Number(headers?.get('retry-after'))).toBeGreaterThan(0);
    // Reads go on meanwhile, and the process is up.
    expect((await call(base, setup.key, 'GET', '/api/v1/account')).status).toBe(200);
    expect((await fetch(`${base}/health`)).status).toBe(200);

    const log = (server as Child).stdout();
    expect(log).toMatch(/"cause":"SQLITE_FULL[^"]*","msg":"database unavailable"/);
    expect(log).not.toMatch(/cannot rollback/);
    expect(log).not.toMatch(/"msg":"unhandled error"/);

    rmSync(filler);
    const after = await post(1_000);
    expect(after.status, JSON.stringify(after.body)).toBe(201);
    expect((server as Child).child.exitCode).toBeNull();
  }, 60_000);
});

describe.skipIf(!fs)('a database file that cannot be used at start', () => {
  it('read-only: exit code 2, one line naming the file and the cause', async () => {
    const dir = join((fs as SmallFs).dir, 'ro');
    mkdirSync(dir);
    const file = join(dir, 'xsvc.db');
    const db = new SQLite(file);
    db.pragma('journal_mode = WAL');
    db.exec('create table t (x)');
    db.close();
    (fs as SmallFs).readOnly(true);
    try {
      const setup = childSetup({ DATABASE_URL: file });
      const { code, stderr } = await runToExit(setup.env);
      setup.remove();
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toEqual([expect.stringContaining(file)]);
      expect(stderr).toMatch(/read-only/);
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      (fs as SmallFs).readOnly(false);
    }
  }, 30_000);

  it('not a database: exit code 2, one line naming the file and the cause', async () => {
    const file = join((fs as SmallFs).dir, 'garbage.db');
    writeFileSync(file, 'this is not a SQLite database, just a text file of some length'.repeat(100));
    const setup = childSetup({ DATABASE_URL: file });
    const { code, stderr } = await runToExit(setup.env);
    setup.remove();
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`${file}.*SQLITE_NOTADB`))]);
  }, 30_000);
});
