import { randomUUID } from 'node:crypto';

import { expect } from 'vitest';
import { expectReferenceShape } from '../helpers/reference-shapes.js';
import type { TestServer } from '../helpers/server.js';
import { expectContract } from '../x-accounts/helpers.js';

type Method = 'POST' | 'PATCH' | 'DELETE';

/**
 * Sends a write with a fresh `Idempotency-Key` (or `opts.key`) and checks a 200 or 202 answer against the
 * write action schema of the contract and against the reference shape written from the shapes file; error
 * answers are returned as they are.
 */
export async function write(
  t: TestServer,
  method: Method,
  url: string,
  body: unknown,
  opts: { idempotencyKey?: string | null; apiKey?: string } = {},
) {
  const headers: Record<string, string> = {};
  const key = opts.idempotencyKey === undefined ? randomUUID() : opts.idempotencyKey;
  if (key !== null) headers['idempotency-key'] = key;
  const res = await t.request(method, url, { body, headers, ...(opts.apiKey && { key: opts.apiKey }) });
  if (res.status === 200 || res.status === 202) expectWriteAction(res.body);
  return res;
}

/** Checks a write action body against the contract and against the independent reference shape. */
export function expectWriteAction(body: unknown): void {
  expectContract('getWriteActionStatus', body);
  expectReferenceShape('XWriteAction', body);
}

/** A write that must succeed: 200 with a successful, terminal, charged action. */
export async function ok(t: TestServer, method: Method, url: string, body: unknown) {
  const res = await write(t, method, url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ status: 'success', terminal: true, success: true, charged: true });
  return res.body;
}

/**
 * A write that succeeds but changes nothing (a repeated like or repost): 200, terminal, not charged, and the
 * balance of the account untouched.
 */
export async function noOp(t: TestServer, method: Method, url: string, body: unknown) {
  const before = await t.server.services.credits.balance(await ownerId(t));
  const res = await write(t, method, url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ status: 'success', terminal: true, success: true, charged: false });
  expect(res.body.billing).toMatchObject({ status: 'not_charged', chargedCredits: '0' });
  expect(await t.server.services.credits.balance(await ownerId(t))).toBe(before);
  return res.body;
}

async function ownerId(t: TestServer): Promise<string> {
  const row = await t.server.services.database.db
    .selectFrom('accounts')
    .select('id')
    .where('is_owner', '=', 1)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A write that must fail with `status` and `code`. */
export async function refused(
  t: TestServer,
  method: Method,
  url: string,
  body: unknown,
  status: number,
  code: string,
) {
  const res = await write(t, method, url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toBe(code);
  return res.body;
}

/** A read as the owner (200 expected), its answer checked by the server against the contract. */
export async function read(t: TestServer, url: string) {
  const res = await t.request('GET', url);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Ids of the users of a page of user reads. */
export const userIds = (page: { users: { id: string }[] }) => page.users.map((u) => u.id);

/**
 * Polls a write action (`GET /x/write-actions/{id}`) and checks a 200 or 202 answer like {@link write} does.
 */
export async function pollAction(t: TestServer, id: string, opts: { key?: string } = {}) {
  const res = await t.request('GET', `/api/v1/x/write-actions/${id}`, opts);
  if (res.status === 200 || res.status === 202) expectWriteAction(res.body);
  return res;
}
