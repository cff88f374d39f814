/**
 * Webhook delivery benchmark: the real server (SQLite in WAL mode, the default engine) delivers stored
 * events to a receiver in a worker thread that verifies every signature with @xsvc/webhook-verifier.
 *
 * - Latency: event stored → verified at the receiver, p50/p99, with the engine's default 50 ms polling (what
 *   a monitor in another process gets) and woken in-process (what a monitor in the same process gets).
 *   Goal: p99 < 100 ms.
 * - Throughput: a burst of stored events → deliveries per second, against a floor: the same keep-alive
 *   HTTP client posting the same signed bodies to the same receiver with no database at all.
 *   Goal: >= 2,000 deliveries/s.
 * Each figure is printed with what limits it.
 */
import http from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { type Db, deliveryEngineFor, wakeWebhookDeliveries } from '@xsvc/server';
import { signWebhookSync } from '@xsvc/webhook-verifier';
import { startBenchServer } from './lib/server.js';
import { goal, percentile, table } from './src/stats.js';

/** Absolute time in ms with sub-millisecond precision, comparable between threads. */
const wallNow = () => performance.timeOrigin + performance.now();

interface Arrival {
  readonly streamEventId: string;
  readonly at: number;
}

/**
 * The receiver, run in a worker thread (plain CommonJS, so it needs no TypeScript loader): verifies every
 * delivery with the verifier's Node build, answers 200, and reports arrivals to the main thread in batches.
 */
const RECEIVER = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { verifyWebhookSync } = require('@xsvc/webhook-verifier');
const wallNow = () => performance.timeOrigin + performance.now();
let pending = [];
setInterval(() => {
  if (pending.length > 0) parentPort.postMessage(pending);
  pending = [];
}, 5).unref();
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    try {
      const event = verifyWebhookSync({
        payload: Buffer.concat(chunks), headers: req.headers, secret: workerData.secret, nonceStore: false,
      });
      pending.push({ streamEventId: event.streamEventId || 'floor', at: wallNow() });
      res.writeHead(200).end();
    } catch {
      res.writeHead(401).end();
    }
  });
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;

async function main(): Promise<void> {
  const bench = await startBenchServer('deliveries', { config: { allowLoopbackWebhooks: true } });
  const { server, key: KEY, accountId } = bench;
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });

  // The receiver needs the secret, the webhook needs the receiver's URL: create against a placeholder port,
  // then point the webhook at the receiver.
  const created = await api(base, KEY, 'POST', '/api/v1/webhooks', {
    url: 'http://127.0.0.1:9/placeholder',
    eventTypes: ['tweet.new'],
  });
  const secret = created.secret as string;
  const arrivals = new Map<string, number>();
  let onArrival: () => void = () => {};
  const worker = new Worker(RECEIVER, { eval: true, workerData: { secret } });
  const port = await new Promise<number>((resolve) => {
    worker.on('message', (m: { port: number } | Arrival[]) => {
      if (Array.isArray(m)) {
        for (const a of m) arrivals.set(a.streamEventId, a.at);
        onArrival();
      } else resolve(m.port);
    });
  });
  await api(base, KEY, 'PATCH', `/api/v1/webhooks/${created.id}`, { url: `http://127.0.0.1:${port}/hook` });
  const database = server.services.database;
  const engine = deliveryEngineFor(database);
  if (!engine) throw new Error('webhooks feature not mounted');
  const waitFor = (ids: readonly string[]) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (ids.every((id) => arrivals.has(id))) resolve();
      };
      onArrival = check;
      check();
    });

  // 1. Latency, one event at a time, at random moments relative to the engine's poll.
  const latency = async (wake: boolean, n: number): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      await sleep(5 + Math.random() * 20);
      const [id] = await storeEvents(database, accountId, 1);
      const storedAt = wallNow();
      if (wake) wakeWebhookDeliveries(database);
      await waitFor([id!]);
      out.push(arrivals.get(id!)! - storedAt);
    }
    return out;
  };
  await latency(true, 50); // warm-up
  const polled = await latency(false, 300);
  const woken = await latency(true, 300);

  // 2. Throughput: a burst of stored events, then the wait until the receiver verified every one.
  const BURST = 10_000;
  const cpuBefore = process.cpuUsage();
  const eluBefore = performance.eventLoopUtilization();
  const started = wallNow();
  const ids: string[] = [];
  for (let i = 0; i < BURST / 500; i++) ids.push(...(await storeEvents(database, accountId, 500)));
  wakeWebhookDeliveries(database);
  await waitFor(ids);
  const seconds = (wallNow() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const loopBusy = performance.eventLoopUtilization(eluBefore).utilization;
  const processCores = (cpu.user + cpu.system) / 1e6 / seconds;
  const [load1] = loadavg();
  const rate = BURST / seconds;

  // The floor: the same client settings and signed bodies, straight to the receiver, no database.
  const floorCpuBefore = process.cpuUsage();
  const floorRate = await httpFloor(port, secret, BURST);
  const floorCpu = process.cpuUsage(floorCpuBefore);
  const cpuMs = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1000 / BURST).toFixed(3);

  const pct = (xs: number[], p: number) => percentile(xs, p).toFixed(1);
  console.log('\nWebhook deliveries on SQLite (WAL), receiver verifying signatures in a worker thread');
  table([
    ['figure', 'p50 ms', 'p99 ms', 'limited by'],
    [
      'latency, polled (default 50 ms)',
      pct(polled, 50),
      pct(polled, 99),
      'the poll interval: p50 ≈ half of it',
    ],
    ['latency, woken in-process', pct(woken, 50), pct(woken, 99), 'fan-out + claim transactions, one POST'],
  ]);
  table([
    ['throughput', 'deliveries/s', 'ratio to floor', 'CPU ms per delivery (server + receiver)'],
    [`engine, ${BURST} events`, rate.toFixed(0), (rate / floorRate).toFixed(2), cpuMs(cpu)],
    ['floor: HTTP client only, no database', floorRate.toFixed(0), '1.00', cpuMs(floorCpu)],
  ]);
  const cores = availableParallelism();
  const busy = `server event loop ${(loopBusy * 100).toFixed(0)}% busy; this process (server + receiver) used ${processCores.toFixed(2)} of ${cores} cores; machine load ${load1?.toFixed(1)}`;
  const limit =
    loopBusy > 0.85 && processCores < 0.85
      ? 'CPU contention: the server thread always had work but got less than one core (the machine runs more than it has cores)'
      : loopBusy > 0.85
        ? "the server's one JS thread: per delivery it does the floor's HTTP client work plus SQL (fan-out, claim, result batches)"
        : 'the receiver and the round trips, not the server';
  console.log(`throughput limited by: ${limit} (${busy})`);
  console.log(`engine stats: ${JSON.stringify(engine.stats)}`);
  goal('event-to-receiver p99 < 100 ms (polled)', percentile(polled, 99) < 100, `${pct(polled, 99)} ms`);
  goal('>= 2,000 deliveries/s', rate >= 2000, `${rate.toFixed(0)}/s`);

  await worker.terminate();
  await bench.close();
}

let seq = 0;

/** Stores `n` events with their outbox rows in one transaction, as the monitors feature does. */
async function storeEvents(database: Db, accountId: string, n: number): Promise<string[]> {
  const now = Date.now();
  const rows = Array.from({ length: n }, () => {
    const id = `${now}${String(seq++).padStart(7, '0')}`;
    const payload = {
      eventType: 'tweet.new',
      schemaVersion: 1,
      streamEventId: id,
      occurredAt: new Date(now).toISOString(),
      username: 'bench',
      data: {
        id: `19${id}`,
        text: 'a tweet of ordinary length, with a link https://example.com/x and a #hashtag',
        author: { id: '42', userName: 'bench', name: 'Bench' },
        isRetweet: false,
        isReply: false,
        isQuote: false,
        createdAt: new Date(now).toISOString(),
      },
    };
    return {
      id,
      account_id: accountId,
      monitor_id: 'bench',
      keyword_monitor_id: null,
      event_type: 'tweet.new',
      username: 'bench',
      query: null,
      occurred_at: now,
      created_at: now,
      payload: JSON.stringify(payload),
    };
  });
  await database.db.transaction().execute(async (trx) => {
    await trx.insertInto('events').values(rows).execute();
    await trx
      .insertInto('event_outbox')
      .values(rows.map((r) => ({ event_id: r.id, account_id: accountId, created_at: now })))
      .execute();
  });
  return rows.map((r) => r.id);
}

/** POSTs `n` signed bodies with 256 in flight over a keep-alive pool (the engine's client settings). */
async function httpFloor(port: number, secret: string, n: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, scheduling: 'lifo' });
  const body = JSON.stringify({ eventType: 'tweet.new', schemaVersion: 1, data: { text: 'x'.repeat(200) } });
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const headers = { 'content-type': 'application/json', ...signWebhookSync({ secret, payload: body }) };
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/floor', agent, headers },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  const started = wallNow();
  await Promise.all(
    Array.from({ length: 256 }, async () => {
      while (next++ < n) await post();
    }),
  );
  const rate = n / ((wallNow() - started) / 1000);
  agent.destroy();
  return rate;
}

async function api(base: string, key: string, method: string, path: string, body: unknown) {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as Record<string, unknown>;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

await main();
