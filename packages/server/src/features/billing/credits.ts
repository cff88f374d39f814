import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { big } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../http/errors.js';

/**
 * Credits (spec 8.2): 64-bit integers, every change one ledger row written in the same transaction as the
 * balance, so `balance = sum(ledger.delta)` always holds.
 */
export class Credits {
  constructor(private readonly db: Kysely<Database>) {}

  /** The current balance. */
  async balance(accountId: string): Promise<bigint> {
    const row = await this.db
      .selectFrom('accounts')
      .select('credits_balance')
      .where('id', '=', accountId)
      .executeTakeFirst();
    return big(row?.credits_balance);
  }

  /**
   * How many of `requested` units at `perUnit` credits the account can pay for now. Zero affordable is 402
   * `insufficient_credits` (spec 8.2: paid reads return fewer results when credits cannot cover them).
   */
  async affordable(accountId: string, requested: number, perUnit: number): Promise<number> {
    if (requested <= 0 || perUnit <= 0) return requested;
    const balance = await this.balance(accountId);
    const n = Number(balance / BigInt(perUnit));
    if (n <= 0) throw errors.insufficientCredits(BigInt(perUnit), balance);
    return Math.min(requested, n);
  }

  /**
   * Charges `units * perUnit` credits atomically: the balance never goes below zero, and a charge that can no
   * longer be covered (a concurrent spend) is 402 `insufficient_credits` with nothing written.
   */
  async charge(
    accountId: string,
    operation: string,
    units: number,
    perUnit: number,
    requestId?: string,
  ): Promise<bigint> {
    const amount = BigInt(units) * BigInt(perUnit);
    if (amount <= 0n) return this.balance(accountId);
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('accounts')
        .set((eb) => ({
          credits_balance: eb('credits_balance', '-', amount),
          lifetime_used: eb('lifetime_used', '+', amount),
        }))
        .where('id', '=', accountId)
        .where('credits_balance', '>=', amount)
        .returning('credits_balance')
        .executeTakeFirst();
      if (!updated) {
        const row = await trx
          .selectFrom('accounts')
          .select('credits_balance')
          .where('id', '=', accountId)
          .executeTakeFirst();
        throw errors.insufficientCredits(amount, big(row?.credits_balance));
      }
      const after = big(updated.credits_balance);
      await trx
        .insertInto('credit_ledger')
        .values({
          id: randomUUID(),
          account_id: accountId,
          delta: -amount,
          balance_after: after,
          operation,
          units,
          request_id: requestId ?? null,
          created_at: Date.now(),
        })
        .execute();
      return after;
    });
  }

  /** Adds credits (grants, purchases, refunds); `purchased` also counts toward lifetime purchases. */
  async grant(accountId: string, amount: bigint, operation: string, purchased = false): Promise<bigint> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('accounts')
        .set((eb) => ({
          credits_balance: eb('credits_balance', '+', amount),
          ...(purchased && { lifetime_purchased: eb('lifetime_purchased', '+', amount) }),
        }))
        .where('id', '=', accountId)
        .returning('credits_balance')
        .executeTakeFirstOrThrow();
      const after = big(updated.credits_balance);
      await trx
        .insertInto('credit_ledger')
        .values({
          id: randomUUID(),
          account_id: accountId,
          delta: amount,
          balance_after: after,
          operation,
          units: 1,
          request_id: null,
          created_at: Date.now(),
        })
        .execute();
      return after;
    });
  }
}
