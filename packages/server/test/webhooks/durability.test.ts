import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/database.js';
import { insertEvents, type Received, startReceiver } from './helpers.js';

const REPO = resolve(fileURLToPath(import.meta.url), '../../../../..');
const BIN = join(REPO, 'packages/server/src/app/bin.ts');
const EVENTS = 500;
const ANSWERED_BEFORE_KILL = 100;
const RECEIVED_BEFORE_KILL = 150;

/** The real `xsvc-server` (its TypeScript source through tsx) on a SQLite file; resolves once it listens. */
function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolveStart, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}\n${err}`)), 30_000);
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveStart({ child, url: m[1]! });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}\n${err}`));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

// Sent from the server's thread (the default) and from a sender thread (XSVC_WEBHOOK_THREADS=1, the built
// dist/sender-thread.js: `pnpm test` builds first).
describe.each(['0', '1'])('durability of deliveries (XSVC_WEBHOOK_THREADS=%s)', (threads) => {
  it('loses nothing to kill -9 in the middle of a burst: every event arrives, with stable deliveryIds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xsvc-kill-'));
    const key = `svc_${randomBytes(32).toString('hex')}`;
    const env = {
      DATABASE_URL: join(dir, 'xsvc.db'),
      PORT: '0',
      HOST: '127.0.0.1',
      XSVC_SEED_SIZE: 'tiny',
      XSVC_ALLOW_LOOPBACK_WEBHOOKS: '1',
      XSVC_BOOTSTRAP_API_KEY: key,
      XSVC_KEY_FILE: join(dir, 'key'),
      LOG_LEVEL: 'error',
      XSVC_WEBHOOK_THREADS: threads,
    };
    const receiver = await startReceiver(() => Date.now());
    // Until the kill: answer the first 100, then hold every further request open (attempts in flight).
    let answered = 0;
    receiver.respond = () => (answered++ < ANSWERED_BEFORE_KILL ? { status: 200 } : new Promise(() => {}));
    let server: ChildProcess | undefined;
    const database = await openDatabase(env.DATABASE_URL);
    try {
      const first = await startServer(env);
      server = first.child;
      const created = await fetch(`${first.url}/api/v1/webhooks`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, eventTypes: ['tweet.new', 'tweet.reply'] }),
      });
      expect(created.status).toBe(201);
      receiver.secret = ((await created.json()) as { secret: string }).secret;
      const owner = await database.db
        .selectFrom('accounts')
        .select('id')
        .where('is_owner', '=', 1)
        .executeTakeFirstOrThrow();

      const ids: string[] = [];
      for (let i = 0; i < EVENTS / 50; i++) {
        const types = Array.from({ length: 50 }, (_, j) => (j % 2 ? 'tweet.new' : 'tweet.reply'));
        ids.push(...(await insertEvents(database, owner.id, types, Date.now())));
      }
      await receiver.waitFor(RECEIVED_BEFORE_KILL, 30_000);
      server.kill('SIGKILL');
      await exited(server);
      const atKill = receiver.received.length;

      receiver.respond = () => ({ status: 200 });
      const second = await startServer(env);
      server = second.child;
      const byEvent = new Map<string, Set<string>>();
      const seen = () => {
        byEvent.clear();
        for (const r of receiver.received.filter((x: Received) => x.event)) {
          const e = r.event as { streamEventId: string; deliveryId: string };
          const set = byEvent.get(e.streamEventId) ?? new Set<string>();
          set.add(e.deliveryId);
          byEvent.set(e.streamEventId, set);
        }
        return byEvent.size;
      };
      for (let i = 0; i < 300 && seen() < EVENTS; i++) await new Promise((r) => setTimeout(r, 100));
      server.kill('SIGTERM');
      await exited(server);

      expect(atKill).toBeGreaterThanOrEqual(RECEIVED_BEFORE_KILL);
      expect(receiver.received.every((r) => r.verifyError === undefined)).toBe(true);
      expect(new Set(byEvent.keys())).toEqual(new Set(ids));
      for (const deliveryIds of byEvent.values()) expect(deliveryIds.size).toBe(1);
      // The requests held open at the kill were never recorded: they went out again, same deliveryId.
      expect(receiver.received.length - EVENTS).toBeGreaterThanOrEqual(
        RECEIVED_BEFORE_KILL - ANSWERED_BEFORE_KILL,
      );
      const rows = await database.db.selectFrom('webhook_deliveries').select('status').execute();
      expect(rows).toHaveLength(EVENTS);
      expect(rows.every((r) => r.status === 'delivered')).toBe(true);
      // The stopped server gave back every lease it held.
      const leased = await database.db
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', 'webhook.delivery')
        .where('lease_owner', 'is not', null)
        .execute();
      expect(leased).toEqual([]);
      expect(await database.db.selectFrom('event_outbox').select('event_id').execute()).toEqual([]);
    } finally {
      if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
      await receiver.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
