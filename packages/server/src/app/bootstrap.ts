import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createAccount, createApiKey } from '../core/auth/accounts.js';
import { sha256 } from '../core/auth/keys.js';
import type { Config } from '../core/config.js';
import type { Db } from '../core/db/database.js';

/** What the first start created, to print once. */
export interface BootstrapResult {
  created: boolean;
  accountId: string;
  /** The new key, only when it was generated here (a bootstrap key from the environment is not echoed). */
  apiKey?: string;
  keyFile?: string;
}

/**
 * On first start with an empty database: creates the owner account with its credit grant and an API key.
 * A generated key is written to a 0600 file and returned to be printed once; `XSVC_BOOTSTRAP_API_KEY`
 * is registered as given. Later starts change nothing (and register a new bootstrap key if it changed).
 */
export async function bootstrapOwner(database: Db, config: Config, now: number): Promise<BootstrapResult> {
  const db = database.db;
  const owner = await db.selectFrom('accounts').select('id').where('is_owner', '=', 1).executeTakeFirst();
  if (owner) {
    if (config.bootstrapApiKey) {
      const known = await db
        .selectFrom('api_keys')
        .select('id')
        .where('hash', '=', sha256(config.bootstrapApiKey))
        .executeTakeFirst();
      if (!known)
        await createApiKey(db, { accountId: owner.id, name: 'bootstrap', now, key: config.bootstrapApiKey });
    }
    return { created: false, accountId: owner.id };
  }
  const account = await createAccount(db, {
    email: 'owner@localhost',
    isOwner: true,
    credits: config.bootstrapCredits,
    now,
  });
  if (config.bootstrapApiKey) {
    await createApiKey(db, { accountId: account.id, name: 'bootstrap', now, key: config.bootstrapApiKey });
    return { created: true, accountId: account.id };
  }
  const key = await createApiKey(db, { accountId: account.id, name: 'owner', now });
  let keyFile: string | undefined;
  if (config.keyFile) {
    mkdirSync(dirname(config.keyFile), { recursive: true });
    writeFileSync(config.keyFile, `${key.fullKey}\n`, { mode: 0o600 });
    chmodSync(config.keyFile, 0o600);
    keyFile = config.keyFile;
  }
  return { created: true, accountId: account.id, apiKey: key.fullKey, ...(keyFile && { keyFile }) };
}
