import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../src/core/auth/accounts.js';
import { authenticate } from '../../src/core/auth/authenticate.js';
import { KEY_CACHE_TTL_MS } from '../../src/core/auth/key-lookup.js';
import { openDatabase } from '../../src/core/db/database.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { ENGINES, PG_URL, useMigratedDatabase } from '../helpers/server.js';

/**
 * API keys are looked up on every request (on SQLite through an in-process cache): whatever changes a key or
 * its account takes effect on the very next request.
 */
describe.each(ENGINES)('API key lookups (%s)', (engine) => {
  const current = useMigratedDatabase(engine);
  const now = Date.UTC(2026, 3, 29, 12);

  /** A fresh account with one key, already used once (so a cache would hold it). */
  async function usedKey(email: string, isOwner = false) {
    const account = await createAccount(current().db, { email, isOwner, credits: 0n, now });
    const key = await createApiKey(current().db, { accountId: account.id, name: 'k', now });
    const principal = await authenticate(current().db, { apiKey: key.fullKey }, now);
    expect(principal).toMatchObject({ accountId: account.id, keyId: key.id, mode: 'apiKey', isOwner });
    return { accountId: account.id, keyId: key.id, key: key.fullKey };
  }
  const refused = (key: string) =>
    expect(authenticate(current().db, { apiKey: key }, now)).rejects.toMatchObject({
      code: 'unauthenticated',
      status: 401,
    });

  it('answers the same principal for repeated use, by header or bearer token', async () => {
    const k = await usedKey('repeat@example.com');
    for (let i = 0; i < 3; i++) {
      expect(await authenticate(current().db, { apiKey: k.key }, now + i)).toMatchObject({ keyId: k.keyId });
    }
    expect(await authenticate(current().db, { authorization: `Bearer ${k.key}` }, now)).toMatchObject({
      keyId: k.keyId,
    });
    await refused(`${k.key.slice(0, -1)}${k.key.endsWith('0') ? '1' : '0'}`);
  });

  it('refuses a key on the first request after it is revoked, whoever writes the revocation', async () => {
    const k = await usedKey('revoked@example.com');
    await current().db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', k.keyId).execute();
    await refused(k.key);
    // Restoring it is seen at once too.
    await current().db.updateTable('api_keys').set({ revoked_at: null }).where('id', '=', k.keyId).execute();
    expect(await authenticate(current().db, { apiKey: k.key }, now)).toMatchObject({ keyId: k.keyId });
  });

  it('refuses the keys of a deleted account, and follows a change of owner', async () => {
    const owner = await usedKey('owner@example.com', true);
    await current()
      .db.updateTable('accounts')
      .set({ is_owner: 0 })
      .where('id', '=', owner.accountId)
      .execute();
    expect(await authenticate(current().db, { apiKey: owner.key }, now)).toMatchObject({ isOwner: false });
    await current().db.deleteFrom('accounts').where('id', '=', owner.accountId).execute();
    await refused(owner.key);
  });

  it('still records when a key was last used, at most once a minute', async () => {
    const k = await usedKey('touch@example.com');
    const lastUsed = async () =>
      (
        await current()
          .db.selectFrom('api_keys')
          .select('last_used_at')
          .where('id', '=', k.keyId)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    expect(Number(await lastUsed())).toBe(now);
    await authenticate(current().db, { apiKey: k.key }, now + 30_000);
    expect(Number(await lastUsed())).toBe(now);
    await authenticate(current().db, { apiKey: k.key }, now + 61_000);
    expect(Number(await lastUsed())).toBe(now + 61_000);
  });

  it.runIf(engine === 'postgres')(
    'sees a revocation written by another server instance at once',
    async () => {
      const k = await usedKey('elsewhere@example.com');
      const schema = await current()
        .db.selectNoFrom((eb) => eb.fn<string>('current_schema').as('s'))
        .executeTakeFirstOrThrow();
      const other = await openDatabase(PG_URL, { pgSchema: schema.s, poolSize: 1 });
      try {
        await other.db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', k.keyId).execute();
      } finally {
        await other.close();
      }
      await refused(k.key);
    },
  );
});

describe('API key lookups on a SQLite file another process writes', () => {
  it('sees a revocation written through another connection within the cache TTL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xsvc-keys-'));
    const file = join(dir, 'keys.db');
    const server = await openDatabase(file);
    const tool = await openDatabase(file);
    try {
      await migrateToLatest(server);
      const now = Date.UTC(2026, 3, 29, 12);
      const account = await createAccount(server.db, {
        email: 'x@example.com',
        isOwner: false,
        credits: 0n,
        now,
      });
      const key = await createApiKey(server.db, { accountId: account.id, name: 'k', now });
      expect(await authenticate(server.db, { apiKey: key.fullKey }, now)).toMatchObject({ keyId: key.id });
      await tool.db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', key.id).execute();
      await expect(
        authenticate(server.db, { apiKey: key.fullKey }, now + KEY_CACHE_TTL_MS),
      ).rejects.toMatchObject({
        code: 'unauthenticated',
      });
    } finally {
      await tool.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
