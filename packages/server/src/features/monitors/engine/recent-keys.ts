/**
 * Keys seen recently, forgotten after `ttlMs`: what the engine already handled in the overlap it re-reads
 * each check (the look-back that catches late commits), so the overlap costs a lookup and not a write.
 * Keys are added in time order, so expiry pops from the front.
 */
export class RecentKeys {
  private readonly expiry = new Map<string, number>();

  constructor(private readonly ttlMs: number) {}

  /** Whether `key` was added and has not expired. */
  has(key: string): boolean {
    return this.expiry.has(key);
  }

  /** Remembers `key` until `now + ttlMs`. */
  add(key: string, now: number): void {
    this.expiry.delete(key);
    this.expiry.set(key, now + this.ttlMs);
  }

  /** Forgets what expired by `now`. */
  prune(now: number): void {
    for (const [key, until] of this.expiry) {
      if (until > now) break;
      this.expiry.delete(key);
    }
  }

  /** How many keys are remembered. */
  get size(): number {
    return this.expiry.size;
  }
}
