/**
 * The opt-in response contract (`svc-api-contract: 2026-04-29`, spec 4.1): snake_case keys, Unix-second
 * timestamps, `has_more` / `next_cursor` pagination. The server renders its default-contract bodies through
 * this one function; the SDK's `normalizeOptInBody` is its inverse.
 */

const snakeCache = new Map<string, string>();

/** `xUserId` → `x_user_id`; keys already in snake_case are unchanged. */
export function snakeCase(key: string): string {
  let s = snakeCache.get(key);
  if (s === undefined) {
    s = key
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
      .toLowerCase();
    snakeCache.set(key, s);
  }
  return s;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function isTimestampKey(key: string): boolean {
  return key.endsWith('At') || key === 'timestamp';
}

function walk(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(walk);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[snakeCase(k)] =
      typeof v === 'string' && isTimestampKey(k) && ISO.test(v) ? Math.floor(Date.parse(v) / 1000) : walk(v);
  }
  return out;
}

/** Renders a default-contract body in the opt-in contract. */
export function toOptInContract(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return walk(body);
  const { hasMore, nextCursor, has_next_page, next_cursor, ...rest } = body as Record<string, unknown>;
  const out = walk(rest) as Record<string, unknown>;
  if (hasMore !== undefined || has_next_page !== undefined) {
    out.has_more = hasMore ?? has_next_page;
    const cursor = nextCursor ?? next_cursor;
    if (typeof cursor === 'string' && cursor !== '') out.next_cursor = cursor;
  }
  return out;
}
