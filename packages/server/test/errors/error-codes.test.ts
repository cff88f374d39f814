/**
 * The error codes the audit found never emitted (spec 7), each with the request that produces it, in both
 * response contracts: the default `{ error: code }` and the opt-in structured `{ error: { type, code } }`.
 * The table is the one of the server README ("Where each error code comes from").
 */
import { randomUUID } from 'node:crypto';
import { errorInfo } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerAccountId, startTestServer, type TestServer } from '../helpers/server.js';
import { connect } from '../reads/fixtures.js';

const OPT_IN = { 'svc-api-contract': '2026-04-29' };

interface Row {
  code: string;
  status: number;
  /** Puts the network and the connections in the state the request needs. */
  setup?: () => Promise<void>;
  method: 'GET' | 'POST' | 'PATCH';
  url: () => string;
  body?: unknown;
  anonymous?: boolean;
  headers?: Record<string, string>;
}

let t: TestServer;
let ownerId = '';
let monitorId = '';
let lockedId = '';

const rows: Row[] = [
  { code: 'invalid_username', status: 400, method: 'GET', url: () => '/api/v1/x/users/bad!name' },
  { code: 'invalid_user_id', status: 400, method: 'GET', url: () => `/api/v1/x/users/${'9'.repeat(30)}` },
  {
    code: 'invalid_user_id',
    status: 400,
    method: 'GET',
    url: () => '/api/v1/x/dm/not-a-number/history?account=jack',
  },
  { code: 'invalid_id', status: 400, method: 'GET', url: () => '/api/v1/draws/not-a-uuid' },
  { code: 'invalid_id', status: 400, method: 'GET', url: () => '/api/v1/monitors/abc' },
  { code: 'invalid_id', status: 400, method: 'GET', url: () => '/api/v1/events/abc' },
  { code: 'invalid_id', status: 400, method: 'GET', url: () => '/api/v1/extractions/42' },
  {
    code: 'invalid_params',
    status: 400,
    method: 'GET',
    url: () => '/api/v1/x/users/jack/followers?cursor=a&after=b',
  },
  { code: 'missing_params', status: 400, method: 'GET', url: () => '/api/v1/x/followers/check?source=jack' },
  {
    code: 'unsupported_field',
    status: 400,
    method: 'PATCH',
    url: () => `/api/v1/monitors/${monitorId}`,
    body: { username: 'biz', isActive: true },
  },
  {
    code: 'payment_failed',
    status: 402,
    method: 'GET',
    url: () => '/api/v1/x/tweets/20',
    anonymous: true,
    headers: { authorization: 'Payment !!' },
  },
  {
    code: 'dm_not_permitted',
    status: 403,
    setup: () => connect(t, ownerId, 'jack'),
    method: 'GET',
    url: () => `/api/v1/x/dm/${lockedId}/history?account=jack`,
  },
  {
    code: 'x_transient_error',
    status: 503,
    setup: () => connect(t, ownerId, 'jack', 'temporaryIssue'),
    method: 'POST',
    url: () => '/api/v1/x/tweets/20/like',
    body: { account: 'jack' },
  },
];

beforeAll(async () => {
  t = await startTestServer('sqlite');
  ownerId = await ownerAccountId(t.server);
  const monitor = await t.request('POST', '/api/v1/monitors', {
    body: { username: 'jack', eventTypes: ['tweet.new'] },
  });
  expect(monitor.status).toBe(201);
  monitorId = monitor.body.id;
  const locked = await t.request('POST', '/sim/users', {
    body: { username: 'locked_reader', protected: true },
  });
  expect(locked.status).toBe(201);
  lockedId = locked.body.id;
});
afterAll(() => t?.close());

describe.each([
  ['default', {}],
  ['opt-in', OPT_IN],
] as const)('every error code has a request that produces it (%s contract)', (contract, contractHeaders) => {
  it.each(rows.map((r) => [r.code, r.method, r.url.toString(), r] as const))(
    '%s ← %s',
    async (code, method, _url, row) => {
      await row.setup?.();
      const res = await t.request(method, row.url(), {
        ...(row.anonymous && { key: null }),
        ...(row.body !== undefined && { body: row.body }),
        headers: { ...contractHeaders, 'idempotency-key': randomUUID(), ...row.headers },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(row.status);
      expect(errorInfo(code).status).toBe(row.status);
      if (contract === 'default') {
        expect(res.body.error).toBe(code);
        expect(typeof res.body.message).toBe('string');
      } else {
        expect(res.body.error).toMatchObject({
          code,
          type: errorInfo(code).type,
          message: expect.any(String),
        });
      }
    },
  );
});

describe('what the codes carry', () => {
  it('a transient write refusal is safe to retry and charges nothing', async () => {
    await connect(t, ownerId, 'jack', 'temporaryIssue');
    const before = await t.server.services.credits.balance(ownerId);
    const res = await t.request('POST', '/api/v1/x/tweets/20/like', {
      body: { account: 'jack' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect([res.status, res.body.safeToRetry, res.headers['retry-after']]).toEqual([503, true, '30']);
    expect(await t.server.services.credits.balance(ownerId)).toBe(before);
  });

  it('an unsupported field names the field (snake_case under the opt-in contract) and changes nothing', async () => {
    const res = await t.request('PATCH', `/api/v1/monitors/${monitorId}`, {
      body: { xUserId: '1', eventTypes: ['tweet.reply'] },
      headers: OPT_IN,
    });
    expect(res.body.error).toMatchObject({ code: 'unsupported_field', field: 'xUserId' });
    const monitor = await t.request('GET', `/api/v1/monitors/${monitorId}`);
    expect(monitor.body.eventTypes).toEqual(['tweet.new']);
  });

  it('well-formed values of the same parameters still pass', async () => {
    await connect(t, ownerId, 'jack');
    expect((await t.request('GET', '/api/v1/x/users/@jack')).status).toBe(200);
    expect((await t.request('GET', '/api/v1/x/followers/check?source=jack&target=biz')).status).not.toBe(400);
    expect((await t.request('GET', '/api/v1/x/users/jack/followers?cursor=&after=')).status).toBe(200);
    expect((await t.request('GET', `/api/v1/monitors/${monitorId}`)).status).toBe(200);
    expect((await t.request('GET', `/api/v1/draws/${randomUUID()}`)).status).toBe(404);
  });
});
