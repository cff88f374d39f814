import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { createAccount, createApiKey } from '../../src/core/auth/accounts.js';
import type { TestServer } from '../helpers/server.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are JSON checked field by field by the assertions
type Json = any;

/** Another account with its own API key (for the "not yours" paths). */
export async function otherAccount(
  t: TestServer,
  credits = 1_000n,
): Promise<{ accountId: string; key: string }> {
  const db = t.server.services.database.db;
  const now = t.clock.now();
  const account = await createAccount(db, {
    email: `${randomBytes(4).toString('hex')}@example.com`,
    isOwner: false,
    credits,
    now,
  });
  const created = await createApiKey(db, { accountId: account.id, name: 'other', now });
  return { accountId: account.id, key: created.fullKey };
}

/** Sets an account's credit balance and plan directly. */
export async function setAccount(
  t: TestServer,
  accountId: string,
  changes: { credits?: number | bigint; plan?: string },
): Promise<void> {
  await t.server.services.database.db
    .updateTable('accounts')
    .set({
      ...(changes.credits !== undefined && { credits_balance: BigInt(changes.credits) }),
      ...(changes.plan !== undefined && { plan: changes.plan }),
    })
    .where('id', '=', accountId)
    .execute();
}

/** The account's credit balance. */
export function balanceOf(t: TestServer, accountId: string): Promise<bigint> {
  return t.server.services.credits.balance(accountId);
}

/** Posts a tweet through the simulated platform's control endpoint and returns it. */
export async function postTweet(t: TestServer, body: Record<string, unknown>): Promise<Json> {
  const r = await t.request('POST', '/sim/tweets', { body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

/** Creates a simulated account and returns its profile. */
export async function createSimUser(t: TestServer, username: string): Promise<Json> {
  const r = await t.request('POST', '/sim/users', { body: { username } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

/** The owner's account id. */
export async function ownerId(t: TestServer): Promise<string> {
  const row = await t.server.services.database.db
    .selectFrom('accounts')
    .select('id')
    .where('is_owner', '=', 1)
    .executeTakeFirstOrThrow();
  return row.id;
}
