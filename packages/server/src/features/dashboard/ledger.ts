import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';

/** One line of the credit ledger as the dashboard shows it. */
export interface LedgerLine {
  readonly delta: string;
  readonly balanceAfter: string;
  readonly operation: string;
  readonly units: string;
  readonly at: string;
}

/**
 * The account's most recent ledger lines, newest first. The API has no ledger operation, so this reads the
 * table the billing feature writes (every charge and grant, with the balance after it).
 */
export async function recentLedger(
  db: Kysely<Database>,
  accountId: string,
  limit = 50,
): Promise<LedgerLine[]> {
  const rows = await db
    .selectFrom('credit_ledger')
    .select(['delta', 'balance_after', 'operation', 'units', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    delta: String(r.delta),
    balanceAfter: String(r.balance_after),
    operation: r.operation,
    units: String(r.units),
    at: new Date(Number(r.created_at)).toISOString(),
  }));
}
