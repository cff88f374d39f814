import type { Kysely } from 'kysely';
import { planState } from '../../core/billing/plan.js';
import type { Database } from '../../core/db/schema.js';
import { styleKey } from './styles/repository.js';

/** What composition needs to know about the calling account. */
export interface AccountState {
  /** `active`, `inactive` (a lapsed subscription), or another value for an account with no subscription. */
  plan: string;
  /** The account's linked platform identity (`PUT /account/x-identity`), as a style key; null when none. */
  linkedUsername: string | null;
}

/** The plan and linked identity of an account. */
export async function accountState(
  db: Kysely<Database>,
  accountId: string,
  now: number = Date.now(),
): Promise<AccountState> {
  const row = await db
    .selectFrom('accounts')
    .select(['plan', 'plan_renews_at', 'x_username'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  return {
    plan: row ? planState(row, now) : 'none',
    linkedUsername: row?.x_username ? styleKey(row.x_username) : null,
  };
}
