import { HttpError } from '../http/errors.js';

/** Where a newest-first listing continues: after the row created at `createdAt` with id `id`. */
export interface ListPosition {
  createdAt: number;
  id: string;
}

/** The opaque style-A cursor (spec 4.1) of the page after the one ending with `last`, for listing `scope`. */
export function encodeListCursor(scope: string, last: ListPosition): string {
  return Buffer.from(`${scope}:${last.createdAt}:${last.id}`, 'utf8').toString('base64url');
}

/**
 * The position a cursor of listing `scope` names; 400 `invalid_input` for anything this server did not
 * issue for that listing.
 */
export function decodeListCursor(scope: string, cursor: string): ListPosition {
  const text = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = /^([a-z]+):(\d{1,16}):([0-9a-f-]{36})$/.exec(text);
  if (!m || m[1] !== scope) {
    throw new HttpError('invalid_input', 'after: not a cursor of this list; pass back `nextCursor` as given');
  }
  return { createdAt: Number(m[2]), id: m[3] as string };
}

/**
 * A style-A page (spec 4.1) from rows read one beyond `limit`: the first `limit` rows, `hasMore`, and
 * `nextCursor` only when more follow.
 */
export function pageOf<R, T>(
  scope: string,
  rows: readonly R[],
  limit: number,
  positionOf: (row: R) => ListPosition,
  map: (row: R) => T,
): { items: T[]; hasMore: boolean; nextCursor?: string } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const hasMore = rows.length > limit && last !== undefined;
  return {
    items: page.map(map),
    hasMore,
    ...(hasMore && { nextCursor: encodeListCursor(scope, positionOf(last)) }),
  };
}
