import type SQLite from 'better-sqlite3';

/** The ledger row of one charge, beside its account and amount. */
export interface LedgerRow {
  id: string;
  operation: string;
  units: number;
  requestId: string | null;
  createdAt: number;
}

/** A charge waiting for its batch. */
export interface PendingCharge {
  readonly accountId: string;
  readonly amount: bigint;
  readonly row: LedgerRow;
}

/** What one charge came to: the balance after it, or `undefined` when the balance could not cover it. */
type Outcome = { ok: true; after: bigint | undefined } | { ok: false; error: unknown };

interface Waiting extends PendingCharge {
  resolve(after: bigint | undefined): void;
  reject(error: unknown): void;
}

/**
 * Group commit of the charges of metered reads on SQLite. Every charge queued while the event loop handled
 * one round of I/O is written by one transaction at the next turn (`setImmediate`). Each charge keeps its own
 * ledger row with the balance after it; an account's charges of one batch take one conditional decrement of
 * their total (`credits_balance >= total`, so the balance never goes below zero), and when the total is not
 * covered (or anything fails) they run one by one, each its own conditional decrement in a savepoint of its
 * own, so a charge that cannot be paid or fails is refused alone and leaves nothing behind. A charge's
 * promise settles only after that transaction has committed, so a request is answered only once its ledger
 * row is stored, as before; the commit and its WAL frames are paid once per batch instead of once per
 * request. SQLite only: the database belongs to this one process.
 */
export class SqliteChargeBatch {
  private waiting: Waiting[] = [];
  private scheduled = false;
  private readonly writeBatch: (batch: readonly PendingCharge[]) => Outcome[];

  /**
   * @param sqlite the database handle.
   * @param fallback how to charge while a Kysely transaction is open on the connection (it awaits between
   *   its statements; a synchronous transaction started then would join it): the asynchronous path, which
   *   waits for that transaction to end.
   * @param committed told, right after a batch's commit and in queue order, each charged account's balance
   *   after its charge (`undefined` when it is not known: a refused or failed charge, a failed commit).
   */
  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly fallback: (charge: PendingCharge) => Promise<bigint | undefined>,
    private readonly committed: (accountId: string, after: bigint | undefined) => void = () => {},
  ) {
    const decrement = sqlite.prepare(
      'update accounts set credits_balance = credits_balance - ?, lifetime_used = lifetime_used + ? where id = ? and credits_balance >= ? returning credits_balance',
    );
    const insert = sqlite.prepare(
      'insert into credit_ledger (id, account_id, delta, balance_after, operation, units, request_id, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const ledger = (c: PendingCharge, after: bigint): void => {
      const { row } = c;
      insert.run(
        row.id,
        c.accountId,
        -c.amount,
        after,
        row.operation,
        row.units,
        row.requestId,
        row.createdAt,
      );
    };
    /** The conditional decrement of `amount` from an account: the balance after it, or undefined. */
    const take = (accountId: string, amount: bigint): bigint | undefined => {
      const r = decrement.get(amount, amount, accountId, amount) as
        | { credits_balance: bigint | number }
        | undefined;
      return r ? BigInt(r.credits_balance) : undefined;
    };
    // Nested in the batch's transaction, each of these runs in a savepoint: an error undoes its own writes only.
    const single = sqlite.transaction((c: PendingCharge): bigint | undefined => {
      const after = take(c.accountId, c.amount);
      if (after !== undefined) ledger(c, after);
      return after;
    });
    // One account's charges folded into one decrement of their total, then a ledger row per charge with the
    // balance after it (as if they had run one after the other). Undefined when the total is not covered.
    const folded = sqlite.transaction((group: readonly PendingCharge[]): bigint[] | undefined => {
      let total = 0n;
      for (const c of group) total += c.amount;
      const after = take(group[0]?.accountId ?? '', total);
      if (after === undefined) return undefined;
      let balance = after + total;
      return group.map((c) => {
        balance -= c.amount;
        ledger(c, balance);
        return balance;
      });
    });
    this.writeBatch = sqlite.transaction((batch: readonly PendingCharge[]): Outcome[] => {
      const outcomes: Outcome[] = [];
      for (const indexes of byAccount(batch)) {
        const group = indexes.map((i) => batch[i] as PendingCharge);
        let afters: bigint[] | undefined;
        try {
          afters = group.length > 1 ? folded(group) : undefined;
        } catch {
          afters = undefined;
        }
        if (afters) {
          indexes.forEach((i, k) => {
            outcomes[i] = { ok: true, after: afters[k] };
          });
          continue;
        }
        // One at a time, in order: a lone charge, a total the balance cannot cover (the first ones may still
        // be), or an error to pin on the charge that caused it.
        for (const i of indexes) {
          try {
            outcomes[i] = { ok: true, after: single(batch[i] as PendingCharge) };
          } catch (error) {
            outcomes[i] = { ok: false, error };
          }
        }
      }
      return outcomes;
    });
  }

  /**
   * Queues a charge of `amount` credits. Resolves once the transaction holding it has committed: to the
   * balance after it, or to `undefined` when the balance could not cover it (then nothing was written).
   */
  charge(accountId: string, amount: bigint, row: LedgerRow): Promise<bigint | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ accountId, amount, row, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = [];
    if (this.sqlite.inTransaction) {
      for (const c of batch) this.fallback(c).then(c.resolve, c.reject);
      return;
    }
    let outcomes: Outcome[];
    try {
      outcomes = this.writeBatch(batch);
    } catch (error) {
      // The commit itself failed: nothing of the batch was written.
      for (const c of batch) this.committed(c.accountId, undefined);
      for (const c of batch) c.reject(error);
      return;
    }
    batch.forEach((c, i) => {
      const o = outcomes[i];
      this.committed(c.accountId, o?.ok ? o.after : undefined);
    });
    batch.forEach((c, i) => {
      const o = outcomes[i];
      if (o?.ok) c.resolve(o.after);
      else c.reject(o ? o.error : new Error('charge batch lost an outcome'));
    });
  }
}

/** The positions of a batch's charges grouped by account, each group in queue order. */
function byAccount(batch: readonly PendingCharge[]): number[][] {
  const groups = new Map<string, number[]>();
  batch.forEach((c, i) => {
    const group = groups.get(c.accountId);
    if (group) group.push(i);
    else groups.set(c.accountId, [i]);
  });
  return [...groups.values()];
}
