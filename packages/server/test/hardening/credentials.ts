import { randomUUID } from 'node:crypto';
import { createAccount, createApiKey } from '../../src/core/auth/accounts.js';
import { issueTokens, MCP_SCOPE, registerClient } from '../../src/core/auth/oauth-store.js';
import { createSession } from '../../src/core/auth/sessions.js';
import type { TestServer } from '../helpers/server.js';

/** Headers that carry one credential; `{}` is no credential. */
export type CredentialHeaders = Record<string, string>;

/** Every kind of credential a caller can hold, for one test server. */
export interface Credentials {
  none: CredentialHeaders;
  ownerKey: CredentialHeaders;
  ownerSession: CredentialHeaders;
  ownerOAuth: CredentialHeaders;
  otherKey: CredentialHeaders;
  otherSession: CredentialHeaders;
  otherOAuth: CredentialHeaders;
  guestKey: CredentialHeaders;
}

/** The name of a credential kind. */
export type CredentialKind = keyof Credentials;

/** The session cookie header of a fresh session of `accountId`. */
export async function sessionHeaders(t: TestServer, accountId: string): Promise<CredentialHeaders> {
  const { token } = await createSession(t.server.services.database.db, accountId, t.clock.now());
  return { cookie: `session_token=${token}` };
}

async function oauthHeaders(t: TestServer, accountId: string): Promise<CredentialHeaders> {
  const db = t.server.services.database.db;
  const now = t.clock.now();
  const { client } = await registerClient(
    db,
    { name: 'agent', redirectUris: ['http://127.0.0.1:9/cb'], authMethod: 'none' },
    now,
  );
  const pair = await issueTokens(
    db,
    {
      familyId: randomUUID(),
      clientId: client.id,
      accountId,
      scope: MCP_SCOPE,
      resource: `${t.server.services.publicUrl()}/mcp`,
    },
    now,
  );
  return { authorization: `Bearer ${pair.accessToken}` };
}

/**
 * Mints one credential of every kind: the owner's API key, session and OAuth access token; the same three for
 * another (non-owner) account; a guest wallet's key.
 */
export async function allCredentials(t: TestServer, ownerId: string): Promise<Credentials> {
  const db = t.server.services.database.db;
  const now = t.clock.now();
  const other = await createAccount(db, {
    email: `other-${randomUUID()}@example.com`,
    isOwner: false,
    credits: 1_000n,
    now,
  });
  const otherKey = await createApiKey(db, { accountId: other.id, name: 'other', now });
  const wallet = await t.request('POST', '/api/v1/guest-wallets', {
    key: null,
    body: { amount_minor: 1000, currency: 'USD' },
    headers: { 'idempotency-key': randomUUID() },
  });
  if (wallet.status !== 201) throw new Error(`guest wallet: ${wallet.status} ${JSON.stringify(wallet.body)}`);
  return {
    none: {},
    ownerKey: { 'x-api-key': t.key },
    ownerSession: await sessionHeaders(t, ownerId),
    ownerOAuth: await oauthHeaders(t, ownerId),
    otherKey: { 'x-api-key': otherKey.fullKey },
    otherSession: await sessionHeaders(t, other.id),
    otherOAuth: await oauthHeaders(t, other.id),
    guestKey: { authorization: `Bearer ${wallet.body.api_key}` },
  };
}
