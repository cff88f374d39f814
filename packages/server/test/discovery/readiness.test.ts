import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/database.js';
import type { Services } from '../../src/core/services.js';
import { checkReadiness } from '../../src/features/discovery/readiness.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('liveness and readiness', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => t?.close());

  it('GET /health/ready answers 200 while the database answers; /health does not ask it', async () => {
    const ready = await t.request('GET', '/health/ready', { key: null });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', version: expect.any(String), database: 'ok' });
    expect(ready.headers['cache-control']).toBe('no-store');
    expect((await t.request('GET', '/health', { key: null })).status).toBe(200);
  });

  it('is 503 service_unavailable with Retry-After when the database does not answer', async () => {
    // A Postgres URL on a port where nothing listens: every connection is refused.
    const away = await openDatabase('postgres://postgres@127.0.0.1:1/none');
    try {
      const services = { database: away } as unknown as Services;
      const err = await checkReadiness(services).then(
        () => undefined,
        (e: unknown) =>
          e as { status: number; code: string; headers: Record<string, string>; cause: unknown },
      );
      expect(err?.status).toBe(503);
      expect(err?.code).toBe('service_unavailable');
      expect(Number(err?.headers['retry-after'])).toBeGreaterThan(0);
      expect(String(err?.cause)).toMatch(/ECONNREFUSED/);
    } finally {
      await away.close();
    }
  });
});
