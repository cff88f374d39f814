/**
 * The tables owned by `core/limits` (rate-limit counters): their row types, and their names. Only code under
 * `core/limits` writes them; any code may read them through `Database`. `core/db/schema.ts` lists them in
 * `Database`.
 */
import type { Int } from '../db/columns.js';

/** The tables `core/limits` owns. */
export const LIMITS_TABLES = ['rate_limit_counters'] as const;

/** The windows of the one fixed-window limiter (`core/limits/fixed-window.ts`), one row per key. */
export interface RateLimitCountersTable {
  bucket: string;
  window_start: Int;
  /** When the window ends (epoch ms). */
  expires_at: Int;
  count: Int;
}
