import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { PageRequest } from '../../core/platform/platform.js';
import { decodeCursor, encodeCursor, type Keyset } from './cursor.js';

/** The largest page any listing serves, whatever was asked. */
export const MAX_PAGE_SIZE = 1_000;

// A post-filtered listing reads at most this many candidates per call, then hands back a cursor at the last
// one read: a rare match costs several short calls instead of one unbounded scan.
const MAX_SCANNED = 5_000;

/** One keyset-paged listing. */
export interface KeysetListing<R> {
  /** Cursor scope: a cursor of another listing is refused. */
  scope: string;
  page: PageRequest;
  /** Rows strictly after `after` in the listing's order (all rows when undefined), at most `limit`. */
  fetch: (after: Keyset | undefined, limit: number) => Promise<R[]>;
  /** The keyset of a row. */
  key: (row: R) => Keyset;
  /** An exact filter the SQL could only approximate; rows failing it are skipped. */
  keep?: (row: R) => boolean;
}

/** A page of rows and the cursor of the next one (absent on the last page). */
export interface RowPage<R> {
  rows: R[];
  nextCursor?: string;
}

/** The page size asked for, clamped to 1…{@link MAX_PAGE_SIZE}. */
export function pageSize(page: PageRequest): number {
  const n = Math.floor(Number(page.pageSize));
  return Number.isFinite(n) ? Math.min(MAX_PAGE_SIZE, Math.max(1, n)) : 20;
}

/**
 * Reads one page of a keyset listing: every row appears on exactly one page, in a stable order, even when
 * rows are added between calls (new rows sort before the cursor in newest-first listings).
 */
export async function keysetPage<R>(listing: KeysetListing<R>): Promise<RowPage<R>> {
  const size = pageSize(listing.page);
  let after = decodeCursor(listing.scope, listing.page.cursor);
  const { keep } = listing;
  if (!keep) {
    const rows = await listing.fetch(after, size + 1);
    if (rows.length <= size) return { rows };
    const page = rows.slice(0, size);
    return { rows: page, nextCursor: encodeCursor(listing.scope, listing.key(page[size - 1] as R)) };
  }
  const batch = Math.max(size * 2, 100);
  const matched: R[] = [];
  let scanned = 0;
  for (;;) {
    const rows = await listing.fetch(after, batch);
    for (const row of rows) {
      scanned++;
      if (keep(row)) {
        if (matched.length === size) {
          return {
            rows: matched,
            nextCursor: encodeCursor(listing.scope, listing.key(matched[size - 1] as R)),
          };
        }
        matched.push(row);
      }
      after = listing.key(row);
    }
    if (rows.length < batch) return { rows: matched };
    if (scanned >= MAX_SCANNED && after)
      return { rows: matched, nextCursor: encodeCursor(listing.scope, after) };
  }
}

/**
 * The SQL condition "strictly after `key`" for an order on (`value`, `id`), both descending or both
 * ascending. `value` is a column reference or an expression.
 */
export function afterKey(
  value: string | RawBuilder<unknown>,
  id: string,
  key: Keyset,
  direction: 'desc' | 'asc',
): RawBuilder<SqlBool> {
  const v = typeof value === 'string' ? sql.ref(value) : value;
  const op = sql.raw(direction === 'desc' ? '<' : '>');
  return sql<SqlBool>`(${v} ${op} ${key[0]} or (${v} = ${key[0]} and ${sql.ref(id)} ${op} ${key[1]}))`;
}
