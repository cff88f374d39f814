import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { sha256 } from './keys.js';

/** Guest keys: `sgk_` + 64 hex characters, sent as `Authorization: Bearer`. */
export const GUEST_KEY_PREFIX = 'sgk_';

/** The wallet a guest key opens, or undefined (unknown key). */
export async function walletOfKey(
  db: Kysely<Database>,
  key: string,
): Promise<{ id: string; accountId: string; status: string } | undefined> {
  const row = await db
    .selectFrom('guest_wallets')
    .select(['id', 'account_id', 'status'])
    .where('key_hash', '=', sha256(key))
    .executeTakeFirst();
  return row && { id: row.id, accountId: row.account_id, status: row.status };
}
