import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from '../../src/core/ssrf/target.js';
import { ClientMetadataError, fetchClientMetadata } from '../../src/features/oauth/client-metadata.js';
import { type FaultListeners, startFaultListeners } from '../chaos/fault-listeners.js';
import { installNetFaults } from '../chaos/net-faults.mjs';

/**
 * A client metadata document (spec 5.3.3) fetched from a host that fails in any way the network allows: the
 * fetch rejects with a `ClientMetadataError` (the consent page's "client refused" answer), never with
 * another exception, and never leaves an `'error'` event unhandled (vitest fails the file on one).
 */
describe('client metadata fetch against failing hosts', () => {
  let faults: FaultListeners;
  let removeNetFaults: () => void = () => {};
  // Public-looking addresses: the guard accepts them; the net faults route them to the local listeners
  // (or, unrouted, fail the connection at once with ENETUNREACH). No packet leaves loopback.
  const addresses: Record<string, string> = {
    'no-route.chaos.example': '2600::1',
    'refused.chaos.example': '45.0.0.11',
    'reset.chaos.example': '45.0.0.12',
    'stall.chaos.example': '45.0.0.13',
    'self-signed.chaos.example': '45.0.0.14',
    'not-tls.chaos.example': '45.0.0.15',
  };
  const resolver: Resolver = async (host) => {
    const address = addresses[host];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };

  beforeAll(async () => {
    faults = await startFaultListeners();
    const p = faults.ports;
    removeNetFaults = installNetFaults(() => ({
      routes: {
        '45.0.0.11': p.closed,
        '45.0.0.12': p.reset,
        '45.0.0.13': p.stall,
        '45.0.0.14': p.selfSigned,
        '45.0.0.15': p.notTls,
      },
    }));
  });
  afterAll(async () => {
    removeNetFaults();
    await faults.close();
  });

  const fetchFrom = (url: string, allowLoopback = false) =>
    fetchClientMetadata(url, { allowLoopback, resolver, timeoutMs: 400 });

  async function refusal(url: string, allowLoopback = false): Promise<string> {
    const err = await fetchFrom(url, allowLoopback).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ClientMetadataError);
    return (err as Error).message;
  }

  it('no route, refused, reset: each a refusal naming the cause', async () => {
    expect(await refusal('https://no-route.chaos.example/client.json')).toMatch(/ENETUNREACH/);
    expect(await refusal('https://refused.chaos.example/client.json')).toMatch(/ECONNREFUSED/);
    expect(await refusal('https://reset.chaos.example/client.json')).toMatch(/ECONNRESET|socket hang up/);
  });

  it('a host that stalls is cut at the deadline', async () => {
    expect(await refusal('https://stall.chaos.example/client.json')).toMatch(/did not answer in time/);
  });

  it('TLS: a self-signed certificate, a peer that is not TLS', async () => {
    expect(await refusal('https://self-signed.chaos.example/client.json')).toMatch(/self-signed/i);
    expect(await refusal('https://not-tls.chaos.example/client.json')).toMatch(/SSL|EPROTO|wrong version/i);
  });

  it('DNS failure is a refusal of the client id', async () => {
    expect(await refusal('https://gone.chaos.example/client.json')).toMatch(/does not resolve \(ENOTFOUND\)/);
  });

  it('redirect, oversized answer, reset after the headers, a stall that never reads (loopback allowed)', async () => {
    const p = faults.ports;
    const local = (port: number) => `http://127.0.0.1:${port}/client.json`;
    expect(await refusal(local(p.redirect), true)).toMatch(/answered HTTP 302/);
    expect(await refusal(local(p.oversized), true)).toMatch(/larger than 5 KiB/);
    expect(await refusal(local(p.resetAfterHeaders), true)).toMatch(
      /could not be read|did not answer in time|HTTP 500/,
    );
    expect(await refusal(local(p.neverReads), true)).toMatch(/did not answer in time/);
  });
});
