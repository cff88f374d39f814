/**
 * The credits a draw may still spend (spec 8.2: draws are metered). Reads take from it as they go, so the
 * entries inspected are capped by the balance; the total is charged once at the end.
 */
export class DrawBudget {
  private used = 0;

  constructor(private readonly available: number) {}

  /** Credits spent so far. */
  get spent(): number {
    return this.used;
  }

  /** Credits left. */
  get left(): number {
    return this.available - this.used;
  }

  /** Spends up to `n` credits; returns how many were available (0 when the budget is empty). */
  take(n: number): number {
    const granted = Math.max(0, Math.min(n, this.left));
    this.used += granted;
    return granted;
  }

  /** Gives back credits taken for reads that returned less than asked for. */
  refund(n: number): void {
    this.used -= Math.min(n, this.used);
  }
}
