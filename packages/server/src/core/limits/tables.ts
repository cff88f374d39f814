/**
 * The tables owned by `core/limits` (rate-limit counters): their row types, and their names. Only code under
 * `core/limits` writes them; any code may read them through `Database`. `core/db/schema.ts` lists them in
 * `Database`.
 */
import type { Int } from '../db/columns.js';

/** The tables `core/limits` owns. */
export const LIMITS_TABLES = ['rate_limit_counters'] as const;

/** Fixed-window request counters (spec 8.1), one row per account, tier and window. */
export interface RateLimitCountersTable {
  bucket: string;
  window_start: Int;
  count: Int;
}
