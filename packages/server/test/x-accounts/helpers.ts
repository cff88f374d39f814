import { randomUUID } from 'node:crypto';
import { operationsById, strictify } from '@xsvc/sdk/contract';
import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.js';

/** The password every simulated account without one of its own logs in with (documented in the README). */
export const DEV_PASSWORD = 'sim-password';

/** A connect body for `username` with the development password. */
export function connectBody(username: string, extra: Record<string, unknown> = {}) {
  return {
    username,
    email: `${username.replace(/^@/, '').toLowerCase()}@example.com`,
    password: DEV_PASSWORD,
    totp_secret: 'JBSWY3DPEHPK3PXP',
    ...extra,
  };
}

/**
 * Checks an answer against the strict response schema of an operation, whatever its success status (the
 * server checks only the first success status itself).
 */
export function expectContract(operationId: keyof typeof operationsById, body: unknown): void {
  const op = operationsById[operationId];
  const r = strictify(op.response).safeParse(body);
  if (!r.success) throw new Error(`${operationId}: ${JSON.stringify(r.error.issues.slice(0, 3))}`);
  expect(r.success).toBe(true);
}

/** Connects a simulated account through the API (201 expected) and answers the connection. */
export async function connectThroughApi(
  t: TestServer,
  username: string,
  opts: { key?: string } = {},
): Promise<{ id: string; xUserId: string; xUsername: string }> {
  const res = await t.request('POST', '/api/v1/x/accounts', {
    body: connectBody(username),
    ...(opts.key && { key: opts.key }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expectContract('connectXAccount', res.body);
  return res.body;
}

/** Sets the login secrets of a simulated account through the control endpoint. */
export async function setCredentials(t: TestServer, username: string, body: Record<string, unknown>) {
  const res = await t.request('PUT', `/sim/users/${username}/credentials`, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** The newest code the simulated platform e-mailed to an account. */
export async function latestCode(t: TestServer, username: string): Promise<string> {
  const res = await t.request('GET', `/sim/users/${username}/inbox`);
  expect(res.status).toBe(200);
  return res.body.messages[0].code;
}

/** A new simulated account, made through the control endpoint. */
export async function newSimUser(t: TestServer, prefix = 'u', extra: Record<string, unknown> = {}) {
  const username = `${prefix}${randomUUID().replace(/-/g, '')}`.slice(0, 15);
  const res = await t.request('POST', '/sim/users', { body: { username, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { username, id: res.body.id as string };
}
