import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * The one fixed-window rate limiter (issue #13). A window holds at most `limit` units per key; a request
 * costing `cost` units is allowed when they still fit, and only an allowed request counts (a refused one
 * uses up nothing). Windows are either aligned to the clock (`anchor: 'clock'`, the default: every key's
 * window starts at a multiple of `windowMs`, as the API tiers of spec 8.1) or start at the key's first
 * counted unit (`anchor: 'first'`: a cooldown's failures counted from the first one).
 *
 * Storage: one row per key in `rate_limit_counters` (`bucket` = key, `window_start`, `expires_at`, `count`),
 * updated by one atomic upsert with a conditional increment, so two concurrent consumers never exceed the
 * limit on SQLite or Postgres, and every instance on one database shares the counts. {@link MemoryWindows}
 * keeps the same rows in a process's memory, for the per-request API tiers on SQLite.
 */

/** A window: at most `limit` units per `windowMs`. */
export interface WindowLimit {
  limit: number;
  windowMs: number;
  /** Where windows start: `clock` (multiples of `windowMs`, the default) or `first` (the key's first unit). */
  anchor?: 'clock' | 'first';
}

/** One consumption: `cost` units (default 1) of `key`'s window at `now` (epoch ms). */
export interface ConsumeInput extends WindowLimit {
  key: string;
  now: number;
  cost?: number;
}

/** A key's window after a consumption (or as it stands, for {@link peek}). */
export interface WindowState {
  /** The consumption was counted (for {@link peek}: one more unit would be). */
  allowed: boolean;
  /** Units counted in the current window. */
  count: number;
  /** Units left in the current window. */
  remaining: number;
  /** When the current window ends (epoch ms). */
  resetAt: number;
  /** Whole seconds to the window's end, at least 1: the `Retry-After` of a refusal. */
  retryAfter: number;
}

/** A stored window of one key. */
export interface WindowRow {
  windowStart: number;
  expiresAt: number;
  count: number;
}

/** The start of the window a new unit at `now` opens. */
export function windowStart(now: number, cfg: WindowLimit): number {
  return cfg.anchor === 'first' ? now : now - (now % cfg.windowMs);
}

/**
 * True when `row` is the window a unit at `now` counts in: it has not ended. A unit stamped before the
 * stored window started (its request read the clock, then waited while another request opened the next
 * window) counts in that newer window: a window is only ever replaced by a later one, so a stale stamp can
 * never reopen an old window and serve its limit a second time.
 */
export function isCurrent(row: WindowRow | undefined, now: number): row is WindowRow {
  return row !== undefined && now < row.expiresAt;
}

/** Seconds from `now` to `resetAt`, rounded up, at least 1. */
export function retryAfterSeconds(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000));
}

function state(allowed: boolean, row: WindowRow, limit: number, now: number): WindowState {
  return {
    allowed,
    count: row.count,
    remaining: Math.max(0, limit - row.count),
    resetAt: row.expiresAt,
    retryAfter: retryAfterSeconds(row.expiresAt, now),
  };
}

/** The window a unit at `now` would open (count 0). */
function freshRow(now: number, cfg: WindowLimit): WindowRow {
  const start = windowStart(now, cfg);
  return { windowStart: start, expiresAt: start + cfg.windowMs, count: 0 };
}

/**
 * The arithmetic of a consumption, on a row read beforehand: the row to store (undefined when refused) and
 * the resulting state. The SQL of {@link consume} is the same decision in one statement.
 */
export function advance(
  row: WindowRow | undefined,
  input: ConsumeInput,
): { row: WindowRow | undefined; state: WindowState } {
  const cost = input.cost ?? 1;
  const current = isCurrent(row, input.now) ? row : freshRow(input.now, input);
  if (current.count + cost > input.limit)
    return { row: undefined, state: state(false, current, input.limit, input.now) };
  const next = { ...current, count: current.count + cost };
  return { row: next, state: state(true, next, input.limit, input.now) };
}

type Conn = Kysely<Database>;

/**
 * Counts `cost` units of `key` when they fit in its current window (one atomic upsert); answers the window
 * after it. Runs in the caller's transaction when given one (a refusal later in it rolls the count back).
 */
export async function consume(db: Conn, input: ConsumeInput): Promise<WindowState> {
  const cost = input.cost ?? 1;
  if (cost > input.limit) return refused(db, input);
  const { now, limit } = input;
  const start = windowStart(now, input);
  // The stored window is over when it ended at or before `now`: then this unit opens the next one. A unit
  // stamped before the stored window started counts in it (see `isCurrent`): the window only moves forward,
  // whichever instance or request gets there first, so every window serves at most `limit`.
  const over = sql`(rate_limit_counters.expires_at <= ${now})`;
  const r = await sql<{ window_start: number | bigint; expires_at: number | bigint; count: number | bigint }>`
    insert into rate_limit_counters (bucket, window_start, expires_at, count)
    values (${input.key}, ${start}, ${start + input.windowMs}, ${cost})
    on conflict (bucket) do update set
      window_start = case when ${over} then excluded.window_start else rate_limit_counters.window_start end,
      expires_at = case when ${over} then excluded.expires_at else rate_limit_counters.expires_at end,
      count = case when ${over} then excluded.count else rate_limit_counters.count + excluded.count end
    where ${over} or rate_limit_counters.count + excluded.count <= ${limit}
    returning window_start, expires_at, count`.execute(db);
  const row = r.rows[0];
  if (!row) return refused(db, input);
  return state(
    true,
    { windowStart: Number(row.window_start), expiresAt: Number(row.expires_at), count: Number(row.count) },
    limit,
    now,
  );
}

async function refused(db: Conn, input: ConsumeInput): Promise<WindowState> {
  const row = await read(db, input.key);
  const current = isCurrent(row, input.now) ? row : freshRow(input.now, input);
  return state(false, current, input.limit, input.now);
}

/** The window of `key` as it stands at `now`, counting nothing; `allowed` when one more unit would fit. */
export async function peek(
  db: Conn,
  input: WindowLimit & { key: string; now: number },
): Promise<WindowState> {
  const row = await read(db, input.key);
  const current = isCurrent(row, input.now) ? row : freshRow(input.now, input);
  return state(current.count < input.limit, current, input.limit, input.now);
}

/** Forgets the window of `key` (its next unit opens a new one). */
export async function reset(db: Conn, key: string): Promise<void> {
  await db.deleteFrom('rate_limit_counters').where('bucket', '=', key).execute();
}

/** Removes windows (of keys starting with `prefix`, when given) that ended before `before`. */
export async function sweep(db: Conn, before: number, prefix?: string): Promise<void> {
  let q = db.deleteFrom('rate_limit_counters').where('expires_at', '<', before);
  if (prefix) q = q.where('bucket', 'like', `${prefix}%`);
  await q.execute();
}

async function read(db: Conn, key: string): Promise<WindowRow | undefined> {
  const row = await db
    .selectFrom('rate_limit_counters')
    .select(['window_start', 'expires_at', 'count'])
    .where('bucket', '=', key)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    windowStart: Number(row.window_start),
    expiresAt: Number(row.expires_at),
    count: Number(row.count),
  };
}

/** Sweeps at most once per `everyMs` of the injected clock (per process). */
export class Sweeper {
  private last = Number.NEGATIVE_INFINITY;
  constructor(private readonly everyMs = 60_000) {}
  /** True when a sweep is due at `now` (and records it). */
  due(now: number): boolean {
    if (now - this.last < this.everyMs && now >= this.last) return false;
    this.last = now;
    return true;
  }
}

/**
 * The same windows in one process's memory (same rows, same arithmetic: {@link advance}): exact on a
 * database only this process uses (one event loop), without a write per consumption.
 */
export class MemoryWindows {
  private readonly rows = new Map<string, WindowRow>();
  private readonly sweeper = new Sweeper();

  consume(input: ConsumeInput): WindowState {
    const current = this.rows.get(input.key);
    const cost = input.cost ?? 1;
    if (current !== undefined && isCurrent(current, input.now) && current.count + cost <= input.limit) {
      // The common case, as `advance` decides it: counted in the current window. The rows are this map's
      // own, so the count moves in place (no row copied per request).
      current.count += cost;
      this.sweepIfDue(input.now);
      return state(true, current, input.limit, input.now);
    }
    const { row, state: s } = advance(current, input);
    if (row) this.rows.set(input.key, row);
    this.sweepIfDue(input.now);
    return s;
  }

  private sweepIfDue(now: number): void {
    if (this.sweeper.due(now)) {
      for (const [k, r] of this.rows) if (r.expiresAt <= now) this.rows.delete(k);
    }
  }
}
