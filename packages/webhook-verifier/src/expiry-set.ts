import { ExpiryHeap } from './expiry-heap.js';
import { ExpiryQueue } from './expiry-queue.js';

/**
 * A bounded set of keys that expire: the memory behind both memory stores. A key lives while
 * `now <= expiresAt`; expired keys are swept lazily (on each write), and when the set is full the key that
 * expires soonest is evicted, so a burst costs the oldest protection, never memory.
 *
 * Expiry order is kept by two structures. Almost every key expires after all earlier ones (its expiry is
 * `now + window`) and goes to a FIFO queue: O(1) and cache-friendly. The rest (a future-dated delivery, a
 * shorter lease) go to a min-heap. The soonest expiry is the smaller of the two fronts. Overwritten or
 * deleted keys leave stale slots that are skipped when they surface; both are rebuilt if stale slots ever
 * outnumber live keys. Expiries are stored relative to the first one seen, so they stay small integers that
 * V8 keeps unboxed: remembering a nonce allocates nothing but its key.
 */
export class ExpirySet {
  readonly #max: number;
  readonly #onRemove: ((key: string) => void) | undefined;
  readonly #expiries = new Map<string, number>();
  readonly #queue = new ExpiryQueue();
  readonly #heap = new ExpiryHeap();
  #base = Number.NaN;
  // Whether a queue or heap slot can be stale (only after `delete` or an expiry change through `set`); while
  // none can, eviction deletes without first checking that the slot still matches, one map lookup fewer.
  #mayBeStale = false;

  /** `onRemove` is told about every key that leaves by expiry or eviction (not by `delete`). */
  constructor(maxEntries: number, onRemove?: (key: string) => void) {
    this.#max = maxEntries;
    this.#onRemove = onRemove;
  }

  /** Number of keys not yet swept. */
  get size(): number {
    return this.#expiries.size;
  }

  /** True when `key` is held and not expired at `now`. */
  has(key: string, now: number): boolean {
    const expiry = this.#expiries.get(key);
    return expiry !== undefined && now - this.#base <= expiry;
  }

  /**
   * Adds `key` until `expiresAt` unless it is already held and live at `now`; true when added. One lookup
   * instead of `has` then `set`, for the nonce store's check-and-store on every delivery.
   */
  add(key: string, expiresAt: number, now: number): boolean {
    this.sweep(now);
    const current = this.#expiries.get(key);
    if (current !== undefined && now - this.#base <= current) return false;
    this.#store(key, this.#relative(expiresAt), current);
    return true;
  }

  /** Holds `key` until `expiresAt` (replacing its expiry), after sweeping and evicting if full. */
  set(key: string, expiresAt: number, now: number): void {
    this.sweep(now);
    this.#store(key, this.#relative(expiresAt), this.#expiries.get(key));
  }

  /** Forgets `key` now (its queue or heap slot turns stale). */
  delete(key: string): void {
    if (this.#expiries.delete(key)) this.#mayBeStale = true;
  }

  /** Drops every key that expired by `now`. */
  sweep(now: number): void {
    const relative = now - this.#base;
    while (Math.min(this.#queue.firstTime, this.#heap.firstTime) < relative) this.#evictSoonest();
  }

  #relative(expiresAt: number): number {
    if (Number.isNaN(this.#base)) this.#base = expiresAt;
    return expiresAt - this.#base;
  }

  #store(key: string, expiry: number, current: number | undefined): void {
    const expiries = this.#expiries;
    if (current === expiry) return;
    if (current === undefined) {
      while (expiries.size >= this.#max && this.#evictSoonest()) {}
    } else {
      this.#mayBeStale = true;
    }
    expiries.set(key, expiry);
    if (expiry >= this.#queue.lastTime) this.#queue.push(key, expiry);
    else this.#heap.push(key, expiry);
    if (this.#queue.length + this.#heap.length > 2 * expiries.size + 1024) this.#rebuild();
  }

  // Removes the soonest slot and, unless it is stale, the key it stands for. False when both are empty.
  #evictSoonest(): boolean {
    const source = this.#queue.firstTime <= this.#heap.firstTime ? this.#queue : this.#heap;
    if (source.length === 0) return false;
    const key = source.firstKey;
    const time = source.firstTime;
    source.shift();
    if (this.#mayBeStale ? this.#expiries.get(key) === time : true) {
      this.#expiries.delete(key);
      this.#onRemove?.(key);
    }
    return true;
  }

  #rebuild(): void {
    const live = [...this.#expiries].sort((a, b) => a[1] - b[1]);
    this.#queue.clear();
    this.#heap.clear();
    for (const [key, expiry] of live) this.#queue.push(key, expiry);
  }
}
