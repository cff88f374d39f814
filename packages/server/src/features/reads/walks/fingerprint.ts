import { createHash } from 'node:crypto';

/** Parameters that move along a walk or size its answers, and so may change between its requests. */
const VOLATILE = new Set(['cursor', 'after', 'limit', 'pageSize', 'mode']);

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

/**
 * What a coverage walk is a walk of: the operation's path parameters and query, the cursor, page size,
 * `limit` and `mode` aside. A cursor is refused on a request with another fingerprint (400
 * `invalid_coverage_cursor`): resuming a walk of `q=cats` on `q=dogs` would mix two result sets.
 */
export function requestFingerprint(params: unknown, query: unknown): string {
  const q = Object.fromEntries(
    Object.entries((query ?? {}) as Record<string, unknown>).filter(([k]) => !VOLATILE.has(k)),
  );
  return createHash('sha256')
    .update(JSON.stringify(canonical({ params: params ?? {}, query: q })))
    .digest('hex');
}
