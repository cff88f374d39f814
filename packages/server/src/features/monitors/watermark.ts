import { compareIds, snowflake, snowflakeTime } from '../../platform/simulated/ids.js';

/**
 * Tweet-id arithmetic for watermarks. Platform ids are snowflakes (time in the high bits, the same layout on
 * the simulated network and on X), so "everything posted before time t" is an id too.
 */

/** The larger of two decimal ids. */
export function maxId(a: string, b: string): string {
  return compareIds(a, b) >= 0 ? a : b;
}

/** The smaller of two decimal ids. */
export function minId(a: string, b: string): string {
  return compareIds(a, b) <= 0 ? a : b;
}

/** Whether decimal id `a` is above `b`. */
export function isAfter(a: string, b: string): boolean {
  return compareIds(a, b) > 0;
}

/** The largest id of anything posted before `ms`: every tweet posted at or after `ms` is above it. */
export function idBefore(ms: number): string {
  const first = BigInt(snowflake(ms, 0));
  return first > 0n ? (first - 1n).toString() : '0';
}

/** `id` moved `ms` milliseconds back in time (to catch tweets committed late with a smaller id). */
export function idEarlier(id: string, ms: number): string {
  if (!/^\d{1,25}$/.test(id) || id === '0') return '0';
  return idBefore(snowflakeTime(id) - ms);
}
