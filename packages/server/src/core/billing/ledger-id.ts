import { randomFillSync } from 'node:crypto';

let lastMs = -1;
let prefix = '';
let sequence = 0;
/** Random bytes drawn in bulk: 8 per id. */
const pool = Buffer.alloc(8 * 512);
let poolOffset = pool.length;

/** 62 random bits after the RFC 9562 variant, as the last 17 characters of a UUID (`Nxxx-xxxxxxxxxxxx`). */
function randomTail(): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  pool[poolOffset] = ((pool[poolOffset] as number) & 0x3f) | 0x80;
  const hex = pool.toString('hex', poolOffset, poolOffset + 8);
  poolOffset += 8;
  return `${hex.slice(0, 4)}-${hex.slice(4)}`;
}

/** Moves the ids to millisecond `ms`: the first 15 characters of its ids, sequence 0. */
function startMillisecond(ms: number): void {
  const hex = ms.toString(16).padStart(12, '0');
  lastMs = ms;
  sequence = 0;
  prefix = `${hex.slice(0, 8)}-${hex.slice(8)}-7`;
}

/**
 * A time-ordered UUID (version 7, RFC 9562) for a ledger row: 48 bits of Unix milliseconds, a 12-bit
 * sequence that keeps ids from one process strictly increasing within a millisecond, then 62 random bits.
 * The ledger's primary key is a text index: random (v4) ids land on a random page of it at every insert,
 * which made the insert the most expensive statement of a metered read; ordered ids append at its right
 * edge. Still a UUID, still unique (the random bits), and nothing reads meaning into ledger ids.
 */
export function ledgerRowId(now: number): string {
  // More than 4096 ids within one millisecond (or the clock stepped back): borrow the next millisecond.
  if (now > lastMs) startMillisecond(now);
  else if (++sequence > 0xfff) startMillisecond(lastMs + 1);
  return `${prefix}${sequence.toString(16).padStart(3, '0')}-${randomTail()}`;
}
