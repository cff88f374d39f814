import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/app/server.js';
import { ManualClock } from '../../src/core/clock.js';
import { parseConfig } from '../../src/core/config.js';
import { asTestServer, type TestServer, testDatabase } from '../helpers/server.js';
import { allCredentials, type CredentialKind, type Credentials } from './credentials.js';

/** One privileged request: how to send it, and the status each credential kind must get. */
interface Row {
  name: string;
  send: (t: TestServer, headers: Record<string, string>) => Promise<{ status: number; body: unknown }>;
  expect: Record<CredentialKind, number>;
}

const KINDS: CredentialKind[] = [
  'none',
  'ownerKey',
  'ownerSession',
  'ownerOAuth',
  'otherKey',
  'otherSession',
  'otherOAuth',
  'guestKey',
];

/** Expected statuses, in the order of {@link KINDS}. */
function statuses(...s: number[]): Record<CredentialKind, number> {
  return Object.fromEntries(KINDS.map((k, i) => [k, s[i]!])) as Record<CredentialKind, number>;
}

let checkoutId = '';

// Spec 5.2: keys are managed with a session or an API key of the same account, never with an OAuth access
// token (its key would outlive the grant) or a guest key. The owner's routes (the simulated platform's
// control, approving a checkout, which grants credits) take the owner's API key or session only.
const TABLE: Row[] = [
  {
    name: 'GET /api/v1/api-keys',
    send: (t, headers) => t.request('GET', '/api/v1/api-keys', { key: null, headers }),
    expect: statuses(401, 200, 200, 401, 200, 200, 401, 401),
  },
  {
    name: 'POST /api/v1/api-keys',
    send: (t, headers) =>
      t.request('POST', '/api/v1/api-keys', { key: null, headers, body: { name: 'minted' } }),
    expect: statuses(401, 201, 201, 401, 201, 201, 401, 401),
  },
  {
    name: 'DELETE /api/v1/api-keys/{id}',
    send: (t, headers) => t.request('DELETE', `/api/v1/api-keys/${randomUUID()}`, { key: null, headers }),
    expect: statuses(401, 404, 404, 401, 404, 404, 401, 401),
  },
  {
    name: 'POST /sim/users',
    send: (t, headers) =>
      t.request('POST', '/sim/users', {
        key: null,
        headers,
        body: { username: `u${randomUUID().slice(0, 8)}`, name: 'Probe' },
      }),
    expect: statuses(401, 201, 201, 403, 403, 403, 403, 403),
  },
  {
    name: 'POST /checkout/{id}/approve',
    send: (t, headers) => t.request('POST', `/checkout/${checkoutId}/approve`, { key: null, headers }),
    expect: statuses(401, 200, 200, 403, 403, 403, 403, 403),
  },
  {
    name: 'GET /api/v1/account (a control read: OAuth allowed)',
    send: (t, headers) => t.request('GET', '/api/v1/account', { key: null, headers }),
    expect: statuses(401, 200, 200, 200, 200, 200, 200, 401),
  },
];

describe('privileges: every credential kind × every privileged operation', () => {
  let t: TestServer & { accountId: string };
  let creds: Credentials;
  beforeAll(async () => {
    const clock = new ManualClock();
    const { database, drop } = await testDatabase('sqlite');
    const cfg = parseConfig({ logLevel: 'silent', seedSize: 'tiny', keyFile: '' });
    const server = await createServer(cfg, { database, clock, validateResponses: true });
    t = await asTestServer(server, cfg, clock, drop);
    creds = await allCredentials(t, t.accountId);
    const top = await t.request('POST', '/api/v1/credits/topup', {
      key: null,
      headers: creds.otherKey,
      body: { dollars: 10 },
    });
    checkoutId = new URL(top.body.url).searchParams.get('session_id')!;
  });
  afterAll(async () => t?.close());

  it.each(TABLE)('$name', async (row) => {
    const got: Record<string, number> = {};
    for (const kind of KINDS) got[kind] = (await row.send(t, creds[kind])).status;
    expect(got).toEqual(row.expect);
  });

  it('a refused credential gets the spec error shape', async () => {
    const r = await t.request('POST', '/api/v1/api-keys', { key: null, headers: creds.ownerOAuth, body: {} });
    expect(r.body).toEqual({ error: 'unauthenticated', message: expect.any(String) });
    const s = await t.request('POST', '/sim/users', {
      key: null,
      headers: creds.ownerOAuth,
      body: { username: 'x1', name: 'x' },
    });
    expect(s.body).toEqual({ error: 'forbidden', message: expect.any(String) });
  });
});
