import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { big, type Db, prepared, syncSqlite, writeStamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { errors, HttpError } from '../http/errors.js';
import { timeUuid } from '../ids/index.js';
import { runAutoTopup } from './auto-topup.js';
import { BalanceCache } from './balance-cache.js';
import { type PendingCharge, SqliteChargeBatch } from './charge-batch.js';

const BALANCE = 'select credits_balance from accounts where id = ?';

/** The largest balance a 64-bit signed column holds. */
export const MAX_CREDITS = 2n ** 63n - 1n;

function overflow(amount: bigint): HttpError {
  return new HttpError(
    'invalid_input',
    `adding ${amount} credits would take the balance past ${MAX_CREDITS}, the largest balance an account can hold`,
    {},
    409,
  );
}

/**
 * Credits (spec 8.2): 64-bit integers, every change one ledger row written in the same transaction as the
 * balance, so `balance = sum(ledger.delta)` always holds.
 */
export class Credits {
  private readonly db: Kysely<Database>;
  private readonly batch: SqliteChargeBatch | undefined;
  /** SQLite only: balances known in-process (see {@link BalanceCache}). */
  private readonly known: BalanceCache | undefined;

  /**
   * SQLite (one process owns the file): thresholds of the accounts with auto top-up on (loaded at start,
   * kept by {@link setAutoTopup}), so a charge checks its account in memory and the hot path pays no query.
   * Postgres takes the threshold from each charge's own UPDATE instead: instances share the settings.
   */
  private autoTopups: Map<string, bigint> | undefined;
  private autoTopupsLoading: Promise<Map<string, bigint>> | undefined;
  /** The automatic top-ups under way, one per account at a time. */
  private readonly topups = new Map<string, Promise<void>>();

  /**
   * @param database where balances and the ledger live.
   * @param clock the server's clock: ledger rows are stamped with it, and the balance cache's time limit
   *   runs on it.
   */
  constructor(
    database: Db,
    private readonly clock: Clock,
  ) {
    this.db = database.db;
    const stamp = writeStamp(database.db, ['accounts']);
    const known = stamp && new BalanceCache(stamp);
    this.known = known;
    this.batch = database.sqlite
      ? new SqliteChargeBatch(
          database.sqlite,
          (c) => this.debitInTransaction(c).then((d) => d?.after),
          (accountId, after) => {
            if (after === undefined) known?.forget(accountId);
            else known?.set(accountId, after, known.stamp(), this.clock.now());
          },
        )
      : undefined;
    if (this.batch) void this.loadAutoTopups();
  }

  /** The current balance (on SQLite, from the in-process cache when it holds it). */
  async balance(accountId: string): Promise<bigint> {
    const sqlite = syncSqlite(this.db);
    if (!sqlite) {
      const row = await this.db
        .selectFrom('accounts')
        .select('credits_balance')
        .where('id', '=', accountId)
        .executeTakeFirst();
      return big(row?.credits_balance);
    }
    const now = this.clock.now();
    const cached = this.known?.get(accountId, now);
    if (cached !== undefined) return cached;
    const stamp = this.known?.stamp();
    const row = prepared(sqlite, BALANCE).get(accountId) as { credits_balance: bigint } | undefined;
    if (row && stamp !== undefined) this.known?.set(accountId, big(row.credits_balance), stamp, now);
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
   * longer be covered (a concurrent spend) is 402 `insufficient_credits` with nothing written. Resolves once
   * the balance and the ledger row are committed (on SQLite, by the group commit of {@link SqliteChargeBatch}).
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
    const charge: PendingCharge = {
      accountId,
      amount,
      row: ledgerRow(this.clock.now(), operation, units, requestId),
    };
    const debited = this.batch
      ? { after: await this.batch.charge(charge.accountId, charge.amount, charge.row), topupBelow: undefined }
      : await this.debitInTransaction(charge);
    const after = debited?.after;
    if (after === undefined) throw errors.insufficientCredits(amount, await this.balance(accountId));
    await this.afterCharge(accountId, after, debited?.topupBelow);
    return after;
  }

  /** Turns auto top-up of an account on (under `threshold` credits) or off (`undefined`). */
  async setAutoTopup(accountId: string, threshold: bigint | undefined): Promise<void> {
    const map = await this.loadAutoTopups();
    if (threshold === undefined) map.delete(accountId);
    else map.set(accountId, threshold);
  }

  /** Resolves once the automatic top-ups started so far have finished. */
  async idle(): Promise<void> {
    while (this.topups.size > 0) await Promise.all(this.topups.values());
  }

  private loadAutoTopups(): Promise<Map<string, bigint>> {
    if (this.autoTopups) return Promise.resolve(this.autoTopups);
    this.autoTopupsLoading ??= this.db
      .selectFrom('accounts')
      .select(['id', 'auto_topup_threshold'])
      .where('auto_topup_enabled', '=', 1)
      .execute()
      .then(
        (rows) => new Map(rows.map((r) => [r.id, big(r.auto_topup_threshold)])),
        () => new Map<string, bigint>(),
      )
      .then((map) => {
        this.autoTopups ??= map;
        return this.autoTopups;
      });
    return this.autoTopupsLoading;
  }

  /**
   * After a charge: when it took the balance under the account's auto top-up threshold, one top-up runs on
   * its own (after the charge's transaction, which may still be open), never two at once for an account.
   */
  private async afterCharge(accountId: string, after: bigint, topupBelow: bigint | undefined): Promise<void> {
    // SQLite: loaded when the service starts (see the constructor), so a charge inside a transaction never
    // waits on another query of the one SQLite connection. Postgres: what the charge's own UPDATE returned.
    const threshold = this.batch
      ? (this.autoTopups ?? (await this.loadAutoTopups())).get(accountId)
      : topupBelow;
    if (threshold === undefined || after >= threshold || this.topups.has(accountId)) return;
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => runAutoTopup(this.db, this, accountId, this.clock.now()))
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => this.topups.delete(accountId));
    this.topups.set(accountId, run);
  }

  /**
   * Charges `units * perUnit` credits inside the caller's transaction `trx`, so that the charge commits or
   * rolls back with what it pays for (an extraction page's results, a draw, a monitor's hour): a crash
   * between the two can then neither charge without storing nor store without charging, and a page read
   * again after a crash is charged once. Resolves to the balance after the charge, or `undefined` when the
   * balance does not cover it (nothing written; the caller decides whether to roll back).
   */
  async chargeWithin(
    trx: Kysely<Database>,
    accountId: string,
    operation: string,
    units: number,
    perUnit: number,
    requestId?: string | null,
  ): Promise<bigint | undefined> {
    const amount = BigInt(units) * BigInt(perUnit);
    if (amount <= 0n) {
      const row = await trx
        .selectFrom('accounts')
        .select('credits_balance')
        .where('id', '=', accountId)
        .executeTakeFirst();
      return big(row?.credits_balance);
    }
    const debited = await debit(trx, {
      accountId,
      amount,
      row: ledgerRow(this.clock.now(), operation, units, requestId),
    });
    if (debited) await this.afterCharge(accountId, debited.after, debited.topupBelow);
    return debited?.after;
  }

  /**
   * {@link chargeWithin}, with a balance that does not cover the charge thrown as 402
   * `insufficient_credits` (so the caller's transaction rolls back).
   */
  async payWithin(
    trx: Kysely<Database>,
    accountId: string,
    operation: string,
    units: number,
    perUnit: number,
    requestId?: string | null,
  ): Promise<bigint> {
    const after = await this.chargeWithin(trx, accountId, operation, units, perUnit, requestId);
    if (after !== undefined) return after;
    const row = await trx
      .selectFrom('accounts')
      .select('credits_balance')
      .where('id', '=', accountId)
      .executeTakeFirst();
    throw errors.insufficientCredits(BigInt(units) * BigInt(perUnit), big(row?.credits_balance));
  }

  /** One charge as a Kysely transaction: the conditional decrement, then its ledger row. */
  private debitInTransaction(charge: PendingCharge): Promise<Debited | undefined> {
    return this.db.transaction().execute((trx) => debit(trx, charge));
  }

  /**
   * Adds credits (grants, purchases, refunds); `purchased` also counts toward lifetime purchases. A grant that
   * would take the balance (or the lifetime purchases) past a 64-bit integer is refused with 409
   * `invalid_input` and changes nothing: the columns are 64-bit, so the database would fail instead.
   */
  async grant(accountId: string, amount: bigint, operation: string, purchased = false): Promise<bigint> {
    const room = MAX_CREDITS - amount;
    if (room < 0n) throw overflow(amount);
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      let update = trx
        .updateTable('accounts')
        .set((eb) => ({
          credits_balance: eb('credits_balance', '+', amount),
          ...(purchased && { lifetime_purchased: eb('lifetime_purchased', '+', amount) }),
        }))
        .where('id', '=', accountId)
        .where('credits_balance', '<=', room);
      if (purchased) update = update.where('lifetime_purchased', '<=', room);
      const updated = await update.returning('credits_balance').executeTakeFirst();
      if (!updated) throw overflow(amount);
      const after = big(updated.credits_balance);
      await trx
        .insertInto('credit_ledger')
        .values({
          id: timeUuid(now),
          account_id: accountId,
          delta: amount,
          balance_after: after,
          operation,
          units: 1,
          request_id: null,
          created_at: now,
        })
        .execute();
      return after;
    });
  }
}

/**
 * The conditional decrement of a charge and its ledger row, on `trx` (a transaction): the balance after it,
 * or `undefined` with nothing written when the balance does not cover it.
 */
/** A committed debit: the balance after it, and the account's auto top-up threshold when that is on. */
interface Debited {
  readonly after: bigint;
  readonly topupBelow: bigint | undefined;
}

async function debit(
  trx: Kysely<Database>,
  { accountId, amount, row }: PendingCharge,
): Promise<Debited | undefined> {
  const updated = await trx
    .updateTable('accounts')
    .set((eb) => ({
      credits_balance: eb('credits_balance', '-', amount),
      lifetime_used: eb('lifetime_used', '+', amount),
    }))
    .where('id', '=', accountId)
    .where('credits_balance', '>=', amount)
    .returning(['credits_balance', 'auto_topup_enabled', 'auto_topup_threshold'])
    .executeTakeFirst();
  if (!updated) return undefined;
  const after = big(updated.credits_balance);
  await trx
    .insertInto('credit_ledger')
    .values({
      id: row.id,
      account_id: accountId,
      delta: -amount,
      balance_after: after,
      operation: row.operation,
      units: row.units,
      request_id: row.requestId,
      created_at: row.createdAt,
    })
    .execute();
  const topupBelow = Number(updated.auto_topup_enabled) === 1 ? big(updated.auto_topup_threshold) : undefined;
  return { after, topupBelow };
}

/** The ledger row of a charge made at `now` (the server's clock): its time-sortable id and its time. */
function ledgerRow(
  now: number,
  operation: string,
  units: number,
  requestId: string | null | undefined,
): PendingCharge['row'] {
  return { id: timeUuid(now), operation, units, requestId: requestId ?? null, createdAt: now };
}
