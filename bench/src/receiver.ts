/**
 * A webhook receiver in a worker thread of its own (plain CommonJS, so it needs no TypeScript loader): verifies
 * every delivery with the verifier's Node build, answers 200 (401 when a signature does not verify), and
 * reports arrivals to the main thread in batches every 5 ms. The main thread keeps, per `streamEventId`, the
 * time of the first arrival and how many times it arrived (a delivery made twice shows as a count of 2).
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

/** Absolute time in ms with sub-millisecond precision, comparable between threads. */
export const wallNow = (): number => performance.timeOrigin + performance.now();

interface Arrival {
  readonly streamEventId: string;
  readonly at: number;
}

type EventLoopUtilization = ReturnType<typeof performance.eventLoopUtilization>;

type Message =
  | { port: number }
  | Arrival[]
  | { elu: EventLoopUtilization }
  | { rejected: number }
  | { error: string };

const RECEIVER = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { verifyWebhookSync } = require('@xsvc/webhook-verifier');
const wallNow = () => performance.timeOrigin + performance.now();
let pending = [];
let rejected = 0;
setInterval(() => {
  if (pending.length > 0) parentPort.postMessage(pending);
  pending = [];
}, 5).unref();
parentPort.on('message', (m) => {
  if (m === 'elu') parentPort.postMessage({ elu: performance.eventLoopUtilization() });
  if (m === 'rejected') parentPort.postMessage({ rejected });
});
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
      rejected++;
      res.writeHead(401).end();
    }
  });
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;

/** A running receiver and what it has verified so far. */
export interface Receiver {
  readonly port: number;
  /** Per `streamEventId`: the (first) arrival time, wall clock ms. */
  readonly arrivals: ReadonlyMap<string, number>;
  /** Per `streamEventId`: how many verified deliveries carried it. */
  readonly counts: ReadonlyMap<string, number>;
  /** Resolves once every one of `ids` has arrived; rejects after `timeoutMs`. */
  waitFor(ids: readonly string[], timeoutMs: number): Promise<void>;
  /** The receiver thread's event-loop utilization counters (pass two to `performance.eventLoopUtilization`). */
  elu(): Promise<EventLoopUtilization>;
  /** Deliveries whose signature did not verify (answered 401). */
  rejected(): Promise<number>;
  close(): Promise<void>;
}

/** Starts a receiver verifying with `secret`. */
export async function startReceiver(secret: string): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const counts = new Map<string, number>();
  let waiting: { pending: Set<string>; done: () => void } | undefined;
  const replies: { elu: ((e: EventLoopUtilization) => void)[]; rejected: ((n: number) => void)[] } = {
    elu: [],
    rejected: [],
  };
  const worker = new Worker(RECEIVER, { eval: true, workerData: { secret } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (m: Message) => {
      if (Array.isArray(m)) {
        for (const a of m) {
          counts.set(a.streamEventId, (counts.get(a.streamEventId) ?? 0) + 1);
          if (!arrivals.has(a.streamEventId)) arrivals.set(a.streamEventId, a.at);
          waiting?.pending.delete(a.streamEventId);
        }
        if (waiting && waiting.pending.size === 0) waiting.done();
      } else if ('port' in m) resolve(m.port);
      else if ('elu' in m) replies.elu.shift()?.(m.elu);
      else if ('rejected' in m) replies.rejected.shift()?.(m.rejected);
    });
  });
  return {
    port,
    arrivals,
    counts,
    waitFor(ids, timeoutMs) {
      const pending = new Set(ids.filter((id) => !arrivals.has(id)));
      if (pending.size === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          reject(new Error(`${pending.size} of ${ids.length} events not delivered within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting = {
          pending,
          done: () => {
            clearTimeout(timer);
            waiting = undefined;
            resolve();
          },
        };
      });
    },
    elu() {
      return new Promise((resolve) => {
        replies.elu.push(resolve);
        worker.postMessage('elu');
      });
    },
    rejected() {
      return new Promise((resolve) => {
        replies.rejected.push(resolve);
        worker.postMessage('rejected');
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
