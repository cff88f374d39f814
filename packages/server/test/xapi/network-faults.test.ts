import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformUnavailableError } from '../../src/core/platform/platform.js';
import { XApiClient } from '../../src/platform/xapi/client.js';
import { type FaultListeners, startFaultListeners } from '../chaos/fault-listeners.js';
import { installNetFaults } from '../chaos/net-faults.mjs';
import { checkXRequest } from './x-facts.js';

/**
 * The X API client's requests against an upstream that fails in every way the network allows: each ends as
 * a `PlatformUnavailableError` with code `x_api_unavailable` (spec 7: transient, retried by the caller),
 * never another exception and never an unhandled `'error'` event (vitest fails the file on one).
 */
describe('X API client against a failing network', () => {
  let faults: FaultListeners;
  let removeNetFaults: () => void = () => {};

  beforeAll(async () => {
    faults = await startFaultListeners();
    removeNetFaults = installNetFaults(() => ({
      hosts: { 'no-route.chaos.example': '2600::1', 'self-signed.chaos.example': '45.0.0.21' },
      routes: { '45.0.0.21': faults.ports.selfSigned },
    }));
  });
  afterAll(async () => {
    removeNetFaults();
    await faults.close();
  });

  const client = (baseUrl: string, maxAnswerBytes?: number) =>
    new XApiClient({ bearerToken: 'token-never-shown', baseUrl, timeoutMs: 400, maxAnswerBytes });
  const local = (port: number) => `http://127.0.0.1:${port}`;

  async function unavailable(baseUrl: string, maxAnswerBytes?: number): Promise<string> {
    const err = await client(baseUrl, maxAnswerBytes)
      .get('/2/users/by/username/jack')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(PlatformUnavailableError);
    expect((err as PlatformUnavailableError).code).toBe('x_api_unavailable');
    expect((err as Error).message).not.toContain('token-never-shown');
    return (err as Error).message;
  }

  it('sends a request X allows (the facts table), so only the network can fail it', () => {
    const headers = new Headers({ authorization: 'Bearer token-never-shown' });
    const check = checkXRequest(
      { method: 'GET', url: 'https://api.x.com/2/users/by/username/jack', headers },
      { appToken: 'token-never-shown' },
    );
    expect(check.problems).toEqual([]);
  });

  it('no route, unknown name, refused, reset, TLS: the X API could not be reached', async () => {
    const unreachable = /could not be reached for GET \/2\/users\/by\/username\/jack/;
    expect(await unavailable('https://no-route.chaos.example')).toMatch(unreachable);
    expect(await unavailable('https://gone.chaos.example')).toMatch(unreachable);
    expect(await unavailable(local(faults.ports.closed))).toMatch(unreachable);
    expect(await unavailable(local(faults.ports.reset))).toMatch(unreachable);
    expect(await unavailable('https://self-signed.chaos.example')).toMatch(unreachable);
  });

  it('a stall before the answer, and an upstream that never reads: the timeout', async () => {
    expect(await unavailable(local(faults.ports.stall))).toMatch(/did not answer .* within 0.4 s/);
    expect(await unavailable(local(faults.ports.neverReads))).toMatch(/did not answer .* within 0.4 s/);
  });

  it('a redirect is not followed', async () => {
    expect(await unavailable(local(faults.ports.redirect))).toMatch(/could not be reached/);
  });

  it('an answer larger than the limit, and one reset after its headers', async () => {
    expect(await unavailable(local(faults.ports.oversized), 1024 * 1024)).toMatch(
      /sent an answer larger than 1048576 bytes/,
    );
    expect(await unavailable(local(faults.ports.resetAfterHeaders))).toMatch(/answered 500/);
  });
});
