import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { Target } from '../../src/core/ssrf/target.js';
import { prepareSend } from '../../src/features/webhooks/dispatcher.js';
import {
  type Agents,
  closeAgents,
  createAgents,
  type SendOutcome,
  sendToTarget,
} from '../../src/features/webhooks/transport.js';
import { type FaultListeners, startFaultListeners } from '../chaos/fault-listeners.js';
import { installNetFaults } from '../chaos/net-faults.mjs';

/**
 * Every way a receiver can fail, made on this machine, ends as an attempt outcome: `sendToTarget` resolves
 * (never rejects, never leaves an `'error'` event unhandled: vitest fails a file on either), with the
 * status when one came and the cause in `error`.
 */
describe('delivery transport against failing receivers', () => {
  let faults: FaultListeners;
  let agents: Agents;
  let removeNetFaults: () => void = () => {};
  const limits = { timeoutMs: 400, maxResponseBytes: 64 * 1024 };

  beforeAll(async () => {
    faults = await startFaultListeners();
    agents = createAgents();
    // Off loopback, every connection fails at once with ENETUNREACH, as without a route.
    removeNetFaults = installNetFaults(() => ({}));
  });
  afterAll(async () => {
    removeNetFaults();
    closeAgents(agents);
    await faults.close();
  });

  /** A target by name (the pinned-lookup path) over `scheme`, connecting to `address:port`. */
  function named(scheme: 'http' | 'https', port: number, address = '127.0.0.1', family: 4 | 6 = 4): Target {
    const host = 'receiver.chaos.example';
    return { url: new URL(`${scheme}://${host}:${port}/hook`), kind: 'name', host, port, address, family };
  }

  /** A target by IP address (no lookup at all). */
  function byAddress(scheme: 'http' | 'https', port: number, address: string, family: 4 | 6): Target {
    const host = family === 6 ? `[${address}]` : address;
    return {
      url: new URL(`${scheme}://${host}:${port}/hook`),
      kind: 'ip',
      host: address,
      port,
      address,
      family,
    };
  }

  const send = (target: Target, body = '{"a":1}'): Promise<SendOutcome> =>
    sendToTarget(target, body, { 'content-type': 'application/json' }, limits, agents);

  const failed = (error: RegExp, statusCode: number | null = null) => ({
    ok: false,
    statusCode,
    error: expect.stringMatching(error),
  });

  it('no route (connect fails at once with ENETUNREACH): https by name, the issue #25 crash', async () => {
    expect(await send(named('https', 443, '2600::1', 6))).toEqual(failed(/ENETUNREACH/));
    expect(await send(named('https', 443, '45.0.0.1', 4))).toEqual(failed(/ENETUNREACH/));
  });

  it('no route: http by name, and both schemes by address', async () => {
    expect(await send(named('http', 80, '2600::1', 6))).toEqual(failed(/ENETUNREACH/));
    expect(await send(byAddress('https', 443, '2600::1', 6))).toEqual(failed(/ENETUNREACH/));
    expect(await send(byAddress('http', 80, '45.0.0.1', 4))).toEqual(failed(/ENETUNREACH/));
  });

  it('no route, many at once on one keep-alive agent: each is its own outcome', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(named('https', 443, `45.0.0.${i + 1}`, 4))),
    );
    for (const o of outcomes) expect(o).toEqual(failed(/ENETUNREACH/));
  });

  it('refused (closed port), by name over both schemes', async () => {
    expect(await send(named('http', faults.ports.closed))).toEqual(failed(/ECONNREFUSED/));
    expect(await send(named('https', faults.ports.closed))).toEqual(failed(/ECONNREFUSED/));
  });

  it('reset before the answer, over http and during the TLS handshake', async () => {
    expect(await send(named('http', faults.ports.reset))).toEqual(failed(/ECONNRESET|socket hang up/));
    expect(await send(named('https', faults.ports.reset))).toEqual(failed(/ECONNRESET|socket hang up/));
  });

  it('reset after the headers: the status counts, the cut body is no exception', async () => {
    expect(await send(named('http', faults.ports.resetAfterHeaders))).toEqual(failed(/^HTTP 500$/, 500));
  });

  it('a receiver that stalls, or never reads the request: the timeout ends the attempt', async () => {
    const timedOut = failed(/^timeout after 400 ms$/);
    expect(await send(named('http', faults.ports.stall))).toEqual(timedOut);
    expect(await send(named('https', faults.ports.stall))).toEqual(timedOut);
    // A body larger than the socket buffers: the write itself stalls.
    expect(await send(named('http', faults.ports.neverReads), 'x'.repeat(8 * 1024 * 1024))).toEqual(timedOut);
  });

  it('TLS: a self-signed certificate and a handshake with something that is not TLS', async () => {
    expect(await send(named('https', faults.ports.selfSigned))).toEqual(failed(/SELF_SIGNED|self-signed/i));
    expect(await send(named('https', faults.ports.notTls))).toEqual(
      failed(/SSL|TLS|EPROTO|wrong version|packet length/i),
    );
  });

  it('a redirect is a failure, not followed', async () => {
    expect(await send(named('http', faults.ports.redirect))).toEqual(
      failed(/^HTTP 302: redirect to http:\/\/127\.0\.0\.1:1\/elsewhere not followed$/, 302),
    );
  });

  it('an oversized answer is cut off; its 2xx still counts', async () => {
    expect(await send(named('http', faults.ports.oversized))).toEqual({ ok: true, statusCode: 200 });
  });

  it('the agent still delivers to a healthy receiver after all of the above', async () => {
    expect(await send(named('http', faults.ports.ok))).toEqual({ ok: true, statusCode: 200 });
    expect(await send(named('http', faults.ports.serverError))).toEqual(failed(/^HTTP 500$/, 500));
  });

  it('DNS: a name that does not resolve, or resolves too slowly, is a refused attempt', async () => {
    const deps = {
      policy: { allowLoopback: false },
      clock: new ManualClock(),
      limits: { timeoutMs: 100, maxResponseBytes: 1024 },
    };
    const missing = await prepareSend(
      {
        ...deps,
        resolver: async (h) => {
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND' });
        },
      },
      'https://gone.chaos.example/hook',
      'secret',
      '{}',
    );
    expect(missing).toEqual({ outcome: failed(/^refused: the URL host does not resolve \(ENOTFOUND\)$/) });
    const slow = await prepareSend(
      { ...deps, resolver: () => new Promise(() => {}) },
      'https://slow-dns.chaos.example/hook',
      'secret',
      '{}',
    );
    expect(slow).toEqual({ outcome: failed(/^refused: DNS resolution took longer than 100 ms$/) });
  });
});
