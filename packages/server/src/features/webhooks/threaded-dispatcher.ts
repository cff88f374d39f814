import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Dispatcher, type DispatcherDeps, prepareSend } from './dispatcher.js';
import {
  type SenderData,
  type ToSender,
  targetToWire,
  type WireReply,
  type WireRequest,
} from './sender-wire.js';
import type { SendOutcome } from './transport.js';

/** A dispatcher whose POSTs are made by sender threads; close it when the server closes. */
export interface ThreadedDispatcher extends Dispatcher {
  /** Ends the threads (POSTs still in flight end as failed attempts, retried later). */
  close(): Promise<void>;
}

/** What a {@link createThreadedDispatcher} needs beside a dispatcher's guard, clock and limits. */
export interface ThreadedDispatcherDeps extends Omit<DispatcherDeps, 'agents'> {
  /** Sender threads (at least 1); POSTs are spread over them in turn. */
  readonly threads: number;
  /** Keep-alive connections per pool, per thread (default 64). */
  readonly maxSockets?: number;
  /** Where a thread's failure is reported (its POSTs then fail and are retried; a new thread takes over). */
  readonly onThreadError?: (err: unknown) => void;
}

/**
 * The sender thread's file: beside the server's built code (`dist/sender-thread.js`). From the sources (the
 * tests run them through Vite), the built file is used too: `pnpm test` builds first.
 */
export function senderThreadFile(): URL {
  const here = import.meta.url;
  return /\.ts$/.test(new URL(here).pathname)
    ? new URL('../../../dist/sender-thread.js', here)
    : new URL('./sender-thread.js', here);
}

/** One sender thread, started on first use, with its queue of POSTs for the next message. */
class SenderThread {
  private worker: Worker | undefined;
  private queue: WireRequest[] = [];
  private flushing = false;
  /** POSTs this thread makes, by id: how to settle each. */
  readonly pending = new Map<number, (outcome: SendOutcome) => void>();

  constructor(
    private readonly file: URL,
    private readonly data: SenderData,
    private readonly onError: (err: unknown) => void,
  ) {}

  send(request: WireRequest, settle: (outcome: SendOutcome) => void): void {
    this.pending.set(request.id, settle);
    this.queue.push(request);
    if (this.flushing) return;
    this.flushing = true;
    // POSTs asked for in the same turn go over in one message.
    setImmediate(() => {
      this.flushing = false;
      const batch = this.queue;
      this.queue = [];
      if (batch.length > 0) this.post({ type: 'send', batch });
    });
  }

  cancel(ids: readonly number[]): void {
    if (this.worker) this.post({ type: 'cancel', ids });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    worker.postMessage({ type: 'close' } satisfies ToSender);
    const timer = setTimeout(() => void worker.terminate(), 2_000);
    await exited;
    clearTimeout(timer);
    this.failAll('the sender thread was closed');
  }

  private post(message: ToSender): void {
    this.start().postMessage(message);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.file, { workerData: this.data, execArgv: [] });
    worker.unref();
    worker.on('message', (replies: WireReply[]) => {
      for (const r of replies) {
        const settle = this.pending.get(r.id);
        this.pending.delete(r.id);
        settle?.(r.outcome);
      }
    });
    const failed = (err: unknown) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.onError(err);
      this.failAll(`the sender thread failed: ${err instanceof Error ? err.message : String(err)}`);
    };
    worker.on('error', failed);
    worker.on('exit', (code) => failed(new Error(`it exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  /** Every POST still pending ends as a failed attempt (the engine retries it). */
  private failAll(error: string): void {
    const settles = [...this.pending.values()];
    this.pending.clear();
    this.queue = [];
    for (const settle of settles) settle({ ok: false, statusCode: null, error });
  }
}

/**
 * A dispatcher that moves the HTTP work of deliveries off the server's thread: the URL check, DNS and the
 * signature stay here ({@link prepareSend}, so the clock and the resolver are the server's), and the POSTs
 * are made by `threads` sender threads, each with its own keep-alive pools. Requests and outcomes cross in
 * batches (one message per turn each way). A thread that dies fails its POSTs as attempts (retried with the
 * usual backoff, never lost) and is replaced at the next POST.
 */
export function createThreadedDispatcher(deps: ThreadedDispatcherDeps): ThreadedDispatcher {
  const file = senderThreadFile();
  if (!existsSync(fileURLToPath(file)))
    throw new Error(
      `webhook sender threads need the built server (${fileURLToPath(file)} is missing): run \`pnpm -C packages/server build\``,
    );
  const count = Math.max(1, Math.floor(deps.threads));
  const data: SenderData = { maxSockets: deps.maxSockets ?? 64 };
  const onError = deps.onThreadError ?? (() => undefined);
  const threads = Array.from({ length: count }, () => new SenderThread(file, data, onError));
  // The POSTs of each stop signal, so that an abort cuts off exactly those.
  const watched = new WeakMap<AbortSignal, Map<number, SenderThread>>();
  let turn = 0;
  let nextId = 0;

  const watch = (signal: AbortSignal, id: number, thread: SenderThread) => {
    let ids = watched.get(signal);
    if (!ids) {
      const mine = new Map<number, SenderThread>();
      ids = mine;
      watched.set(signal, mine);
      signal.addEventListener(
        'abort',
        () => {
          const byThread = new Map<SenderThread, number[]>();
          for (const [pendingId, t] of mine) byThread.set(t, [...(byThread.get(t) ?? []), pendingId]);
          for (const [t, list] of byThread) t.cancel(list);
        },
        { once: true },
      );
    }
    ids.set(id, thread);
  };

  return {
    async send(url, secret, body, signal) {
      const ready = await prepareSend(deps, url, secret, body);
      if ('outcome' in ready) return ready.outcome;
      if (signal?.aborted) return { ok: false, statusCode: null, error: 'cancelled: the server is stopping' };
      const thread = threads[turn++ % threads.length] as SenderThread;
      const id = ++nextId;
      return new Promise<SendOutcome>((resolve) => {
        if (signal) watch(signal, id, thread);
        thread.send(
          {
            id,
            ...targetToWire(ready.target),
            body: ready.body,
            headers: ready.headers,
            limits: ready.limits,
          },
          (outcome) => {
            if (signal) watched.get(signal)?.delete(id);
            resolve(outcome);
          },
        );
      });
    },
    async close() {
      await Promise.all(threads.map((t) => t.close()));
    },
  };
}
