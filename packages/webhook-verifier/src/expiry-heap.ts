/**
 * A binary min-heap of (key, expiry) slots: the slow path of `ExpirySet`, for the few entries that expire
 * before ones already queued (a future-dated delivery, a short lease). Parallel arrays, no per-slot objects.
 */
export class ExpiryHeap {
  #keys: string[] = [];
  #times: number[] = [];

  /** Number of slots (live or stale). */
  get length(): number {
    return this.#keys.length;
  }

  /** Soonest expiry; `Infinity` when empty. */
  get firstTime(): number {
    return this.#times.length > 0 ? this.#times[0]! : Number.POSITIVE_INFINITY;
  }

  /** Key of the soonest slot; only meaningful when not empty. */
  get firstKey(): string {
    return this.#keys[0]!;
  }

  push(key: string, time: number): void {
    const keys = this.#keys;
    const times = this.#times;
    let i = keys.length;
    keys.push(key);
    times.push(time);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const parentTime = times[parent]!;
      if (parentTime <= time) break;
      keys[i] = keys[parent]!;
      times[i] = parentTime;
      i = parent;
    }
    keys[i] = key;
    times[i] = time;
  }

  /** Drops the soonest slot. */
  shift(): void {
    const keys = this.#keys;
    const times = this.#times;
    const lastKey = keys.pop()!;
    const lastTime = times.pop()!;
    const n = keys.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && times[right]! < times[left]! ? right : left;
      if (times[child]! >= lastTime) break;
      keys[i] = keys[child]!;
      times[i] = times[child]!;
      i = child;
    }
    keys[i] = lastKey;
    times[i] = lastTime;
  }

  clear(): void {
    this.#keys = [];
    this.#times = [];
  }
}
