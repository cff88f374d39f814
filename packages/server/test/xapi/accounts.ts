import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { ConfigInput } from '../../src/core/config.js';
import { secretBox } from '../../src/core/crypto/secret-box.js';
import { encodeSession } from '../../src/platform/xapi/oauth.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { BASE, TOKEN } from './helpers.js';

/**
 * A server on xapi (SQLite) pointed at the X stand-in, with an OAuth 2.0 client, for one test file: started
 * before its tests, closed after them. `server()` is the running server; `extra` adds configuration.
 */
export function useXapiServer(extra: Partial<ConfigInput> = {}): () => TestServer {
  let t: TestServer | undefined;
  beforeAll(async () => {
    t = await startTestServer('sqlite', {
      platform: 'xapi',
      xBearerToken: TOKEN,
      xApiBaseUrl: BASE,
      xClientId: 'test-client-id',
      ...extra,
    });
  });
  afterAll(async () => t?.close());
  return () => {
    if (!t) throw new Error('the xapi test server is not started');
    return t;
  };
}

/** A connection of the owner's account to store: the X account, its token and scopes, and its health. */
export interface TestConnection {
  xUserId: string;
  username: string;
  accessToken: string;
  scope: readonly string[];
  health?: 'healthy' | 'needsReauth';
}

/** Stores a connected account of the owner, its session (the token, two hours left) sealed as the server seals it. */
export async function connectAccount(t: TestServer, c: TestConnection): Promise<void> {
  const { db } = t.server.services.database;
  const box = await secretBox(t.server.services);
  const now = t.clock.now();
  const session = encodeSession({
    accessToken: c.accessToken,
    refreshToken: 'r',
    expiresAt: now + 7_200_000,
    scope: [...c.scope],
  });
  const owner = await db
    .selectFrom('accounts')
    .select('id')
    .where('is_owner', '=', 1)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('x_accounts')
    .values({
      id: randomUUID(),
      account_id: owner.id,
      x_user_id: c.xUserId,
      x_username: c.username,
      status: 'active',
      health: c.health ?? 'healthy',
      created_at: now,
      updated_at: now,
      cookies_obtained_at: now,
      session_enc: box.seal(session),
    })
    .execute();
}
