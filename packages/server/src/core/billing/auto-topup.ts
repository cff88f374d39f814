import type { Kysely } from 'kysely';
import { big, num } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { claimCheckout, insertCheckout } from './checkouts.js';

/** Credits bought per US dollar (the rate of every checkout). */
export const CREDITS_PER_DOLLAR = 10_000n;

/** A change of the account's automatic top-up settings (spec 8.2); absent fields are kept. */
export interface AutoTopupSettings {
  auto_topup_enabled?: boolean | undefined;
  auto_topup_threshold?: bigint | number | string | undefined;
  auto_topup_amount_dollars?: number | undefined;
}

/** Saves the given automatic top-up settings on the account row. */
export async function saveAutoTopupSettings(
  db: Kysely<Database>,
  accountId: string,
  b: AutoTopupSettings,
): Promise<void> {
  await db
    .updateTable('accounts')
    .set({
      ...(b.auto_topup_enabled !== undefined && { auto_topup_enabled: b.auto_topup_enabled ? 1 : 0 }),
      ...(b.auto_topup_threshold !== undefined && { auto_topup_threshold: BigInt(b.auto_topup_threshold) }),
      ...(b.auto_topup_amount_dollars !== undefined && {
        auto_topup_amount_dollars: b.auto_topup_amount_dollars,
      }),
    })
    .where('id', '=', accountId)
    .execute();
}

/** What an automatic top-up needs: the balance and a grant of purchased credits. */
interface Grants {
  grant(accountId: string, amount: bigint, operation: string, purchased: boolean): Promise<bigint>;
}

/**
 * One automatic top-up of an account (spec 2.2, 8.2: `autoTopupEnabled`, `autoTopupThreshold`,
 * `autoTopupAmountDollars`): when it is on and the balance is under the threshold, a checkout of the amount is
 * paid through the local payment network with the payment method on file (no page to approve: the account
 * consented when it turned auto top-up on) and its credits granted as purchased (`purchase:auto_topup`).
 * Reads the settings and the balance afresh, so a top-up already done (by a concurrent charge) is not
 * repeated. True when credits were bought.
 */
export async function runAutoTopup(
  db: Kysely<Database>,
  credits: Grants,
  accountId: string,
  now: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select(['auto_topup_enabled', 'auto_topup_threshold', 'auto_topup_amount_dollars', 'credits_balance'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!row || num(row.auto_topup_enabled) !== 1) return false;
  if (big(row.credits_balance) >= big(row.auto_topup_threshold)) return false;
  const dollars = BigInt(num(row.auto_topup_amount_dollars));
  if (dollars <= 0n) return false;
  const amount = dollars * CREDITS_PER_DOLLAR;
  const { id } = await insertCheckout(db, { accountId, kind: 'auto_topup', dollars, credits: amount, now });
  if (!(await claimCheckout(db, id, now))) return false;
  await credits.grant(accountId, amount, 'purchase:auto_topup', true);
  return true;
}
