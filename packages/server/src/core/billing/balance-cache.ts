/** Most accounts a cache holds; the oldest entry goes first. */
const MAX_ENTRIES = 10_000;

/**
 * How long a cached balance is trusted without reading it again (ms): the bound on how long a change written
 * by another process on the same SQLite file (the server is meant to be its one owner) can go unseen.
 */
export const BALANCE_CACHE_TTL_MS = 1_000;

/**
 * Balances known in-process on SQLite, for the affordability check every metered read makes before reading
 * (the charge itself is always the conditional decrement in SQL, so a stale entry can never overdraw an
 * account: at worst the read runs and its charge is refused). An entry is the balance as of write stamp `n`
 * of `accounts` (see `writeStamp`): any statement writing `accounts` through Kysely invalidates every entry
 * before it runs; the group commit of charges, which writes on the raw handle, records each account's new
 * balance as it commits.
 */
export class BalanceCache {
  private readonly entries = new Map<string, { balance: bigint; stamp: number; at: number }>();

  /** @param stamp the write stamp of `accounts`. */
  constructor(readonly stamp: () => number) {}

  /** The balance of an account, when a valid entry holds it. */
  get(accountId: string, now: number): bigint | undefined {
    const e = this.entries.get(accountId);
    if (!e || e.stamp !== this.stamp() || now < e.at || now - e.at >= BALANCE_CACHE_TTL_MS) return undefined;
    return e.balance;
  }

  /** Records a balance read or written at write stamp `stamp`. */
  set(accountId: string, balance: bigint, stamp: number, now: number): void {
    this.entries.delete(accountId);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(accountId, { balance, stamp, at: now });
  }

  /** Drops an account's entry (its balance is no longer known). */
  forget(accountId: string): void {
    this.entries.delete(accountId);
  }
}
