import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, num, openDatabase } from '../../src/core/db/database.js';
import {
  type Child,
  type ChildSetup,
  call,
  childSetup,
  killHard,
  startChild,
} from '../hardening/child-server.js';
import { type FaultListeners, startFaultListeners } from './fault-listeners.js';
import { alive, CHAOS_ROUNDS, ChaosReport, lastResortLines, waitFor } from './harness.js';

/**
 * The same receiver faults through the sender threads (`XSVC_WEBHOOK_THREADS=1`), whose sockets live in a
 * worker. The network preload does not reach a worker, so only loopback receivers are used here (nothing
 * else is ever connected to). Part of the longer `pnpm test:chaos` run (`XSVC_CHAOS_ROUNDS` > 1).
 */
describe.skipIf(CHAOS_ROUNDS <= 1)('chaos: failing receivers through the sender threads', () => {
  const report = new ChaosReport('chaos: failing receivers through sender threads (net-threaded)');
  let listeners: FaultListeners;
  let setup: ChildSetup;
  let server: Child | undefined;
  let db: Db | undefined;

  beforeAll(async () => {
    listeners = await startFaultListeners();
    setup = childSetup({ XSVC_ALLOW_LOOPBACK_WEBHOOKS: '1', XSVC_WEBHOOK_THREADS: '1' });
    server = await startChild(setup.env);
    db = await openDatabase(setup.env.DATABASE_URL as string);
  });
  afterAll(async () => {
    if (server) await killHard(server);
    await db?.close();
    await listeners?.close();
    setup?.remove();
    report.print();
  });

  it('answers every test, records every attempt, restarts cleanly', async () => {
    const p = listeners.ports;
    const faults: [string, number, RegExp | null][] = [
      ['refused (closed port)', p.closed, /ECONNREFUSED/],
      ['reset before headers', p.reset, /ECONNRESET|socket hang up/],
      ['reset after headers', p.resetAfterHeaders, /^HTTP 500$/],
      ['redirect', p.redirect, /^HTTP 302/],
      ['HTTP 500', p.serverError, /^HTTP 500$/],
      ['oversized answer (200)', p.oversized, null],
      ['healthy receiver', p.ok, null],
    ];
    const api = (method: string, path: string, body?: unknown) =>
      call((server as Child).url, setup.key, method, path, body);
    const ids: string[] = [];
    for (const [, port] of faults) {
      const created = await api('POST', '/api/v1/webhooks', {
        url: `http://127.0.0.1:${port}/hook`,
        eventTypes: ['tweet.new'],
      });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    expect(
      (await api('POST', '/api/v1/monitors', { username: 'jack', eventTypes: ['tweet.new'] })).status,
    ).toBe(201);
    const answers = await Promise.all(ids.map((id) => api('POST', `/api/v1/webhooks/${id}/test`)));
    faults.forEach(([name, , error], i) => {
      const a = answers[i] as { status: number; body: { success: boolean; error?: string } };
      expect(a.status, name).toBe(200);
      expect(a.body.success, name).toBe(error === null);
      if (error) expect(a.body.error, name).toMatch(error);
      report.add(
        name,
        'POST …/test (sender thread)',
        a.body.success ? 'success' : String(a.body.error).slice(0, 60),
      );
    });
    for (let round = 1; round <= CHAOS_ROUNDS; round++) {
      expect(
        (await api('POST', '/sim/tweets', { author: 'jack', text: `threads: round ${round}` })).status,
      ).toBe(201);
      const attempted = await waitFor(async () => {
        const rows = await (db as Db).db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
          .where('attempts', '>=', 1)
          .executeTakeFirst();
        return num(rows?.n ?? 0) >= round * faults.length;
      }, 10_000);
      expect(attempted, `round ${round}: every delivery attempted`).toBe(true);
      await killHard(server as Child);
      server = await startChild(setup.env);
      expect((await api('GET', '/api/v1/account')).status).toBe(200);
      expect(alive(server)).toBe(true);
      expect(lastResortLines(server)).toEqual([]);
      report.add(`restart ${round}`, 'kill -9 with deliveries pending', 'clean start, no last-resort error');
    }
    const statuses = await (db as Db).db
      .selectFrom('webhook_deliveries')
      .select(['webhook_id', 'status'])
      .execute();
    for (const [i, [name, , error]] of faults.entries()) {
      const mine = statuses.filter((r) => r.webhook_id === ids[i]).map((r) => r.status);
      expect(mine.length, name).toBe(CHAOS_ROUNDS);
      for (const status of mine) expect(status, name).toBe(error === null ? 'delivered' : 'failed');
    }
  }, 120_000);
});
