/**
 * Snowflake-like ids (the platform's own layout): milliseconds since the platform epoch in the high bits,
 * a 12-bit sequence in the low 22 bits. Ids made after 2018 all have 19 digits, so a later id is also a
 * larger number and sorts after earlier ones.
 */
export const SNOWFLAKE_EPOCH_MS = 1_288_834_974_657;

const SEQUENCE_BITS = 22n;
const MAX_SEQUENCE = 4095;

/** The id of time `ms` and sequence `seq`. */
export function snowflake(ms: number, seq = 0): string {
  return ((BigInt(Math.max(0, ms - SNOWFLAKE_EPOCH_MS)) << SEQUENCE_BITS) | BigInt(seq)).toString();
}

/** The creation time (epoch ms) encoded in a snowflake id. */
export function snowflakeTime(id: string): number {
  return Number(BigInt(id) >> SEQUENCE_BITS) + SNOWFLAKE_EPOCH_MS;
}

/** Whether `id` is a decimal id (1-25 digits), the only shape the platform ever issues. */
export function isNumericId(id: string): boolean {
  return /^\d{1,25}$/.test(id);
}

/** Compares two decimal ids numerically. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Issues strictly increasing snowflakes: an id for a time at or before the last one issued reuses that time
 * with the next sequence number, so ids never repeat and never go backwards.
 */
export class SnowflakeIds {
  private lastMs = Number.NEGATIVE_INFINITY;
  private seq = 0;

  next(ms: number): string {
    if (ms > this.lastMs) {
      this.lastMs = ms;
      this.seq = 0;
    } else if (++this.seq > MAX_SEQUENCE) {
      this.lastMs += 1;
      this.seq = 0;
    }
    return snowflake(this.lastMs, this.seq);
  }

  /** Makes every later id larger than `id` (an id issued elsewhere, e.g. read from the database). */
  observe(id: string): void {
    const value = BigInt(id);
    const ms = Number(value >> SEQUENCE_BITS) + SNOWFLAKE_EPOCH_MS;
    const seq = Number(value & ((1n << SEQUENCE_BITS) - 1n));
    if (ms > this.lastMs || (ms === this.lastMs && seq > this.seq)) {
      this.lastMs = ms;
      this.seq = Math.min(seq, MAX_SEQUENCE);
    }
  }
}
