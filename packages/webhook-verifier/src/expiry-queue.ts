/**
 * A FIFO of (key, expiry) slots whose expiries never decrease: the fast path of `ExpirySet`. Two parallel
 * arrays and a head index, compacted once the consumed part is half the array, so each operation is O(1)
 * amortised and memory stays proportional to the live slots.
 */
export class ExpiryQueue {
  #keys: string[] = [];
  #times: number[] = [];
  #head = 0;

  /** Number of slots (live or stale). */
  get length(): number {
    return this.#keys.length - this.#head;
  }

  /** Expiry of the front slot; `Infinity` when empty. */
  get firstTime(): number {
    return this.#head < this.#times.length ? this.#times[this.#head]! : Number.POSITIVE_INFINITY;
  }

  /** Key of the front slot; only meaningful when not empty. */
  get firstKey(): string {
    return this.#keys[this.#head]!;
  }

  /** Expiry of the back slot; `-Infinity` when empty, so any expiry may be appended. */
  get lastTime(): number {
    return this.#head < this.#times.length ? this.#times[this.#times.length - 1]! : Number.NEGATIVE_INFINITY;
  }

  /** Appends a slot; the caller guarantees `time >= lastTime`. */
  push(key: string, time: number): void {
    this.#keys.push(key);
    this.#times.push(time);
  }

  /** Drops the front slot. */
  shift(): void {
    this.#head++;
    if (this.#head >= 1024 && this.#head * 2 >= this.#keys.length) {
      this.#keys = this.#keys.slice(this.#head);
      this.#times = this.#times.slice(this.#head);
      this.#head = 0;
    }
  }

  clear(): void {
    this.#keys = [];
    this.#times = [];
    this.#head = 0;
  }
}
