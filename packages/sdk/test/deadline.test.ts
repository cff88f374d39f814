import { execFileSync } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { Transport } from '../src/client/core.js';
import { AbortError, TimeoutError } from '../src/client/errors.js';
import type { Route } from '../src/client/types.js';
import { getRoute } from './helpers.js';

const KEY = `svc_${'ab'.repeat(32)}`;

/** A fetch that answers `{}` (or hangs until aborted), records the signal of each request and, like Node's fetch, listens to it. */
function listeningFetch(hang: () => boolean = () => false) {
  const signals: AbortSignal[] = [];
  const f = async (_input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const signal = init.signal as AbortSignal;
    signals.push(signal);
    signal.addEventListener('abort', () => {}, { once: true });
    if (hang()) {
      return new Promise<Response>((_, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch: f as typeof fetch, signals };
}

/** Node itself (Bun and Deno answer `process.versions.node` too): where finished calls' controllers are reused. */
const nodeProper = !('Bun' in globalThis) && !('Deno' in globalThis);

describe('Transport: deadline controllers', () => {
  it('reuses a finished call’s signal on Node, with no listener left on it; elsewhere one per call', async () => {
    const ff = listeningFetch();
    const t = new Transport({ apiKey: KEY, baseUrl: 'http://svc.test', fetch: ff.fetch });
    await t.call(getRoute, { id: '1' });
    await t.call(getRoute, { id: '2' });
    expect(ff.signals[1] === ff.signals[0]).toBe(nodeProper);
    if (nodeProper) expect(getEventListeners(ff.signals[0]!, 'abort')).toHaveLength(0);
    expect(ff.signals[0]!.aborted).toBe(false);
  });
});

describe.runIf(nodeProper)('Transport: deadline controllers on Node', () => {
  it('never reuses a signal its deadline aborted, and still times the next call out', async () => {
    let hang = false;
    const ff = listeningFetch(() => hang);
    const t = new Transport({ apiKey: KEY, baseUrl: 'http://svc.test', fetch: ff.fetch, timeoutMs: 30 });
    await t.call(getRoute, { id: '1' });
    hang = true;
    expect(await t.call(getRoute, { id: '2' }).catch((e: unknown) => e)).toBeInstanceOf(TimeoutError);
    const timedOut = ff.signals[1]!;
    expect(timedOut.aborted).toBe(true);
    expect(await t.call(getRoute, { id: '3' }).catch((e: unknown) => e)).toBeInstanceOf(TimeoutError);
    expect(ff.signals[2]).not.toBe(timedOut);
    hang = false;
    await t.call(getRoute, { id: '4' });
    expect(ff.signals[3]!.aborted).toBe(false);
  });

  it('keeps a signal that follows the caller’s out of reuse: a later abort still reaches that call only', async () => {
    const ff = listeningFetch();
    const t = new Transport({ apiKey: KEY, baseUrl: 'http://svc.test', fetch: ff.fetch });
    const caller = new AbortController();
    await t.call(getRoute, { id: '1' }, { signal: caller.signal });
    await t.call(getRoute, { id: '2' });
    expect(ff.signals[1]).not.toBe(ff.signals[0]);
    caller.abort();
    expect(ff.signals[0]!.aborted).toBe(true);
    expect(ff.signals[1]!.aborted).toBe(false);
    await expect(t.call(getRoute, { id: '3' }, { signal: caller.signal })).rejects.toBeInstanceOf(AbortError);
  });

  it('leaves the signal of a binary answer, whose body the caller still reads, out of reuse', async () => {
    const ff = listeningFetch();
    const t = new Transport({ apiKey: KEY, baseUrl: 'http://svc.test', fetch: ff.fetch });
    const binary: Route = { ...getRoute, id: 'downloadExport', kind: 'binary' };
    await t.call(binary, { id: '1' });
    await t.call(getRoute, { id: '2' });
    expect(ff.signals[1]).not.toBe(ff.signals[0]);
    expect(getEventListeners(ff.signals[0]!, 'abort')).toHaveLength(1);
  });

  it('with Node’s own fetch: the listener fetch adds is gone after the call, and deadlines still abort', async () => {
    let slow = false;
    const server = createServer((_req, res) => {
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      };
      if (slow) setTimeout(answer, 500);
      else answer();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const signals: AbortSignal[] = [];
      const t = new Transport({
        apiKey: KEY,
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        timeoutMs: 100,
        maxRetries: 0,
        fetch: (input, init) => {
          signals.push(init?.signal as AbortSignal);
          return fetch(input, init);
        },
      });
      expect((await t.call(getRoute, { id: '1' })).data).toEqual({ ok: true });
      expect(getEventListeners(signals[0]!, 'abort')).toHaveLength(0);
      expect((await t.call(getRoute, { id: '2' })).data).toEqual({ ok: true });
      expect(signals[1]).toBe(signals[0]);
      slow = true;
      const started = Date.now();
      expect(await t.call(getRoute, { id: '3' }).catch((e: unknown) => e)).toBeInstanceOf(TimeoutError);
      expect(Date.now() - started).toBeLessThan(450);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('Transport: one timer for every deadline', () => {
  it('aborts each call at its own deadline, an earlier one armed after a later one', async () => {
    vi.useFakeTimers();
    try {
      const ff = listeningFetch(() => true);
      const t = new Transport({ apiKey: KEY, baseUrl: 'http://svc.test', fetch: ff.fetch, maxRetries: 0 });
      const long = t.call(getRoute, { id: '1' }, { timeoutMs: 1_000 }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(100);
      const short = t.call(getRoute, { id: '2' }, { timeoutMs: 200 }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(199);
      expect(ff.signals.map((s) => s.aborted)).toEqual([false, false]);
      await vi.advanceTimersByTimeAsync(1);
      expect(await short).toBeInstanceOf(TimeoutError);
      expect(ff.signals[0]!.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(699);
      expect(ff.signals[0]!.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await long).toBeInstanceOf(TimeoutError);
    } finally {
      vi.useRealTimers();
    }
  });

  it.runIf(nodeProper)(
    'does not keep the process alive once no call is in flight',
    { timeout: 20_000 },
    () => {
      // A call with a 60 s deadline answered at once: the process must exit right after it, not 60 s later.
      const script = `
      import { Transport } from './src/client/core.ts';
      const t = new Transport({ apiKey: 'svc_${'0'.repeat(64)}', baseUrl: 'http://svc.test', timeoutMs: 60000,
        fetch: async () => new Response('{}', { status: 200 }) });
      await t.call({ id: 'x', method: 'GET', path: '/x', pathParams: [], idempotent: true }, {});
      console.log('done');
    `;
      const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: new URL('..', import.meta.url),
        encoding: 'utf8',
        // Killed (and the test failed) when something still holds it after the call.
        timeout: 15_000,
      });
      expect(out.trim()).toBe('done');
    },
  );
});
