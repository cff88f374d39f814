import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, num, openDatabase } from '../../src/core/db/database.js';
import { type Child, type ChildSetup, call, childSetup, killHard } from '../hardening/child-server.js';
import { type FaultListeners, startFaultListeners } from './fault-listeners.js';
import {
  alive,
  CHAOS_ROUNDS,
  type ChaosNetwork,
  ChaosReport,
  chaosNetwork,
  lastResortLines,
  startChaosServer,
  waitFor,
} from './harness.js';
import type { NetFaults } from './net-faults.mjs';

/**
 * Webhook receivers that fail in every way the network allows, against the built server as a process (not
 * `inject()`): its tests answer, real events are attempted and retried on the spec's schedule (6.5: 1, 2,
 * 4 … s, plus at most 10 % jitter), the process stays up with nothing reaching its last-resort handler, and
 * a kill -9 with those deliveries pending restarts cleanly.
 */

/** A receiver that fails, how the test endpoint must describe it, and whether it fails fast. */
interface Fault {
  readonly name: string;
  readonly url: string;
  /** The test's `{ success, statusCode, error }`, as a matcher. */
  readonly expected: { success: boolean; statusCode: number; error?: RegExp };
  /** Fails in well under a second (its retries can be watched); a stall takes the 10 s timeout. */
  readonly fast: boolean;
}

const TIMEOUT = /^timeout after \d+ ms$/;

/**
 * The chaos network: names for the https faults. Their addresses are public ones on purpose (the SSRF guard
 * refuses others) and no packet ever goes to them: the preload routes the listed ones to a loopback port and
 * fails every other connection off loopback with ENETUNREACH.
 */
function network(ports: FaultListeners['ports'], withDnsGone: boolean): NetFaults {
  return {
    hosts: {
      'no-route-v6.chaos.example': '2600::1',
      'no-route-v4.chaos.example': '45.0.0.1',
      'self-signed.chaos.example': '45.0.0.2',
      'not-tls.chaos.example': '45.0.0.3',
      'tls-reset.chaos.example': '45.0.0.4',
      'tls-stall.chaos.example': '45.0.0.5',
      ...(withDnsGone && { 'dns-gone.chaos.example': '45.0.0.6' }),
    },
    routes: {
      '45.0.0.2': ports.selfSigned,
      '45.0.0.3': ports.notTls,
      '45.0.0.4': ports.reset,
      '45.0.0.5': ports.stall,
      '45.0.0.6': ports.ok,
    },
  };
}

function faultsOf(ports: FaultListeners['ports']): Fault[] {
  const local = (port: number) => `http://127.0.0.1:${port}/hook`;
  const fail = (error: RegExp, statusCode = 0) => ({ success: false, statusCode, error });
  return [
    {
      name: 'no route (IPv6 host)',
      url: 'https://no-route-v6.chaos.example/hook',
      expected: fail(/ENETUNREACH/),
      fast: true,
    },
    {
      name: 'no route (IPv4 host)',
      url: 'https://no-route-v4.chaos.example/hook',
      expected: fail(/ENETUNREACH/),
      fast: true,
    },
    {
      name: 'DNS failure (name gone)',
      url: 'https://dns-gone.chaos.example/hook',
      expected: fail(/does not resolve \(ENOTFOUND\)/),
      fast: true,
    },
    { name: 'refused (closed port)', url: local(ports.closed), expected: fail(/ECONNREFUSED/), fast: true },
    {
      name: 'reset before headers',
      url: local(ports.reset),
      expected: fail(/ECONNRESET|socket hang up/),
      fast: true,
    },
    {
      name: 'reset in TLS handshake',
      url: 'https://tls-reset.chaos.example/hook',
      expected: fail(/ECONNRESET|socket hang up/),
      fast: true,
    },
    {
      name: 'reset after headers',
      url: local(ports.resetAfterHeaders),
      expected: fail(/^HTTP 500$/, 500),
      fast: true,
    },
    {
      name: 'self-signed TLS',
      url: 'https://self-signed.chaos.example/hook',
      expected: fail(/SELF_SIGNED|self-signed/i),
      fast: true,
    },
    {
      name: 'not TLS',
      url: 'https://not-tls.chaos.example/hook',
      expected: fail(/SSL|EPROTO|wrong version|packet length/i),
      fast: true,
    },
    {
      name: 'redirect',
      url: local(ports.redirect),
      expected: fail(/^HTTP 302: redirect to .* not followed$/, 302),
      fast: true,
    },
    { name: 'HTTP 500', url: local(ports.serverError), expected: fail(/^HTTP 500$/, 500), fast: true },
    { name: 'stall', url: local(ports.stall), expected: fail(TIMEOUT), fast: false },
    { name: 'never reads', url: local(ports.neverReads), expected: fail(TIMEOUT), fast: false },
    {
      name: 'stall in TLS handshake',
      url: 'https://tls-stall.chaos.example/hook',
      expected: fail(TIMEOUT),
      fast: false,
    },
    {
      name: 'oversized answer (200)',
      url: local(ports.oversized),
      expected: { success: true, statusCode: 200 },
      fast: true,
    },
    {
      name: 'healthy receiver',
      url: local(ports.ok),
      expected: { success: true, statusCode: 200 },
      fast: true,
    },
  ];
}

/** A delivery of an event and its attempts so far, from the server's database. */
interface DeliveryView {
  readonly attempts: number;
  readonly status: string;
  readonly nextAttemptAt: number | null;
  readonly lastError: string | null;
  /** Per attempt (1-based order): when it started and how long it took, ms. */
  readonly history: { readonly attempt: number; readonly startedAt: number; readonly durationMs: number }[];
}

async function deliveryOf(db: Db, webhookId: string): Promise<DeliveryView | undefined> {
  const row = await db.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'attempts', 'status', 'next_attempt_at', 'last_error'])
    .where('webhook_id', '=', webhookId)
    .orderBy('id')
    .executeTakeFirst();
  if (!row) return undefined;
  const history = await db.db
    .selectFrom('webhook_delivery_attempts')
    .select(['attempt', 'started_at', 'duration_ms'])
    .where('delivery_id', '=', row.id)
    .orderBy('attempt')
    .execute();
  return {
    attempts: num(row.attempts),
    status: row.status,
    nextAttemptAt: row.next_attempt_at === null ? null : num(row.next_attempt_at),
    lastError: row.last_error,
    history: history.map((h) => ({
      attempt: num(h.attempt),
      startedAt: num(h.started_at),
      durationMs: num(h.duration_ms),
    })),
  };
}

/** Attempts made so far by every delivery of these webhooks. */
async function attemptsOf(db: Db, webhookIds: readonly string[]): Promise<number> {
  const row = await db.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.sum<number | string | bigint>('attempts').as('n'))
    .where('webhook_id', 'in', webhookIds)
    .executeTakeFirst();
  return num(row?.n ?? 0);
}

/** Deliveries of these webhooks attempted at least once. */
async function deliveriesAttempted(db: Db, webhookIds: readonly string[]): Promise<number> {
  const row = await db.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('webhook_id', 'in', webhookIds)
    .where('attempts', '>=', 1)
    .executeTakeFirst();
  return num(row?.n ?? 0);
}

/** The wait the server scheduled after attempt `n` (its end to the next attempt's time). */
function scheduledDelay(d: DeliveryView): number {
  const last = d.history[d.history.length - 1];
  if (!last || d.nextAttemptAt === null) return Number.NaN;
  return d.nextAttemptAt - (last.startedAt + last.durationMs);
}

/** The measured waits between consecutive attempts (end of one to start of the next), ms. */
function retryGaps(d: DeliveryView): number[] {
  const gaps: number[] = [];
  for (let i = 1; i < d.history.length; i++) {
    const prev = d.history[i - 1] as DeliveryView['history'][number];
    gaps.push(
      (d.history[i] as DeliveryView['history'][number]).startedAt - (prev.startedAt + prev.durationMs),
    );
  }
  return gaps;
}

/** What the engine's polling and batching may add to a wait on a loaded machine, ms. */
const SLACK_MS = 1_500;

/** Spec 6.5's delay after the `n`-th failed attempt, in ms, before jitter. */
const SPEC_DELAY_MS = [1, 2, 4, 8, 16, 32, 60, 60, 60].map((s) => s * 1000);

describe('chaos: webhook receivers that fail, against the server process', () => {
  const report = new ChaosReport('chaos: webhook receivers that fail (net-webhooks)');
  let listeners: FaultListeners;
  let setup: ChildSetup;
  let net: ChaosNetwork;
  let server: Child | undefined;
  let db: Db | undefined;

  beforeAll(async () => {
    listeners = await startFaultListeners();
    setup = childSetup({ XSVC_ALLOW_LOOPBACK_WEBHOOKS: '1' });
    net = chaosNetwork(setup, network(listeners.ports, true));
    server = await startChaosServer(setup.env);
    db = await openDatabase(setup.env.DATABASE_URL as string);
  });
  afterAll(async () => {
    if (server) await killHard(server);
    await db?.close();
    await listeners?.close();
    setup?.remove();
    report.print();
  });

  it('answers every test, attempts every event on the spec schedule, survives kill -9 and restarts', async () => {
    const faults = faultsOf(listeners.ports);
    const key = setup.key;
    const api = (method: string, path: string, body?: unknown) =>
      call((server as Child).url, key, method, path, body);
    const ids = new Map<string, string>();
    for (const f of faults) {
      const created = await api('POST', '/api/v1/webhooks', { url: f.url, eventTypes: ['tweet.new'] });
      expect(created.status, `${f.name}: ${JSON.stringify(created.body)}`).toBe(201);
      ids.set(f.name, created.body.id);
    }
    // The name resolved when the webhook was made; now it is gone from DNS.
    net.set(network(listeners.ports, false));
    const monitor = await api('POST', '/api/v1/monitors', { username: 'jack', eventTypes: ['tweet.new'] });
    expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);

    // The tests of every endpoint at once, while a real event fans out to the same endpoints.
    const tests = Promise.all(faults.map((f) => api('POST', `/api/v1/webhooks/${ids.get(f.name)}/test`)));
    const tweet = await api('POST', '/sim/tweets', { author: 'jack', text: 'chaos: round 1' });
    expect(tweet.status).toBe(201);
    const answers = await tests;
    faults.forEach((f, i) => {
      const a = answers[i] as { status: number; body: Record<string, unknown> };
      expect(a.status, `${f.name}: ${JSON.stringify(a.body)}`).toBe(200);
      const { error, ...rest } = f.expected;
      expect(a.body, f.name).toMatchObject(rest);
      if (error) expect(String(a.body.error), f.name).toMatch(error);
      report.add(
        f.name,
        'POST …/test',
        `answered 200 ${a.body.success ? 'success' : String(a.body.error).slice(0, 60)}`,
      );
    });
    expect(alive(server as Child)).toBe(true);

    // Every endpoint got its first attempt (the stalls end at the 10 s timeout).
    const view = async () =>
      new Map(
        await Promise.all(
          faults.map(async (f) => [f.name, await deliveryOf(db as Db, ids.get(f.name) as string)] as const),
        ),
      );
    const firstDone = await waitFor(async () => {
      const v = await view();
      return [...v.values()].every((d) => d && d.attempts >= 1) ? v : undefined;
    }, 25_000);
    expect(firstDone, 'every delivery attempted once').toBeDefined();
    for (const f of faults) {
      const d = firstDone?.get(f.name) as DeliveryView;
      if (f.expected.success) {
        expect(d.status, f.name).toBe('delivered');
        continue;
      }
      expect(d.status, `${f.name}: ${d.lastError}`).toBe('failed');
      if (f.expected.error && f.expected.statusCode === 0)
        expect(d.lastError, f.name).toMatch(f.expected.error);
      if (d.attempts === 1) {
        const delay = scheduledDelay(d);
        expect(delay, `${f.name}: retry after attempt 1`).toBeGreaterThanOrEqual(SPEC_DELAY_MS[0] as number);
        expect(delay, `${f.name}: retry after attempt 1`).toBeLessThanOrEqual(1_100 + SLACK_MS);
      }
    }

    // The fast failures come back after 1 s, then 2 s, then 4 s: every gap between two attempts, and the
    // wait scheduled after the last one, is the spec's delay plus at most 10 % jitter (and the engine's
    // polling and batching on top, bounded by a slack for a loaded machine).
    const fast = faults.filter((f) => f.fast && !f.expected.success);
    const second = await waitFor(async () => {
      const v = await view();
      return fast.every((f) => (v.get(f.name)?.attempts ?? 0) >= 2) ? v : undefined;
    }, 8_000);
    expect(second, 'every fast failure attempted twice').toBeDefined();
    for (const f of fast) {
      const d = second?.get(f.name) as DeliveryView;
      const gaps = retryGaps(d);
      gaps.forEach((gap, i) => {
        const spec = SPEC_DELAY_MS[i] as number;
        expect(gap, `${f.name}: wait before attempt ${i + 2}`).toBeGreaterThanOrEqual(spec);
        expect(gap, `${f.name}: wait before attempt ${i + 2}`).toBeLessThanOrEqual(spec * 1.1 + SLACK_MS);
      });
      const scheduled = scheduledDelay(d);
      const spec = SPEC_DELAY_MS[d.attempts - 1] as number;
      expect(scheduled, `${f.name}: wait scheduled after attempt ${d.attempts}`).toBeGreaterThanOrEqual(spec);
      expect(scheduled, `${f.name}: wait scheduled after attempt ${d.attempts}`).toBeLessThanOrEqual(
        spec * 1.1 + SLACK_MS,
      );
      const waits = gaps.map((g) => `${(g / 1000).toFixed(2)} s`).join(', ');
      report.add(
        f.name,
        'tweet.new delivery',
        `failed ${d.attempts}×, waits ${waits}, next in ${(scheduled / 1000).toFixed(2)} s`,
      );
    }
    for (const f of faults.filter((x) => !x.fast))
      report.add(f.name, 'tweet.new delivery', 'timed out at 10 s, retry scheduled after ≥1 s');
    for (const f of faults.filter((x) => x.expected.success))
      report.add(f.name, 'tweet.new delivery', 'delivered');
    expect(alive(server as Child)).toBe(true);
    expect(lastResortLines(server as Child)).toEqual([]);

    // kill -9 with those deliveries pending (some in flight), and a clean start on the same database; the
    // pending ones are attempted again, the process stays up. More rounds: a new event each time.
    const fastIds = fast.map((f) => ids.get(f.name) as string);
    for (let round = 1; round <= CHAOS_ROUNDS; round++) {
      if (round > 1) {
        const next = await api('POST', '/sim/tweets', { author: 'jack', text: `chaos: round ${round}` });
        expect(next.status).toBe(201);
        // The new event's deliveries had their first attempt: the kill finds them pending.
        const attempted = await waitFor(
          async () => (await deliveriesAttempted(db as Db, fastIds)) >= round * fast.length,
          10_000,
        );
        expect(attempted, `round ${round}: the new event attempted`).toBe(true);
      }
      const before = await attemptsOf(db as Db, fastIds);
      await killHard(server as Child);
      server = await startChaosServer(setup.env);
      const retried = await waitFor(async () => (await attemptsOf(db as Db, fastIds)) > before, 10_000);
      expect(retried, `round ${round}: pending deliveries attempted after the restart`).toBe(true);
      const health = await api('GET', '/api/v1/account');
      expect(health.status).toBe(200);
      expect(alive(server)).toBe(true);
      expect(lastResortLines(server)).toEqual([]);
      report.add(
        `restart ${round}`,
        'kill -9 with deliveries pending',
        'clean start, retries resumed, no last-resort error',
      );
    }
  }, 90_000);
});
