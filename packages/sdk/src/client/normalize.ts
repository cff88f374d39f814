/**
 * Undoes the opt-in response contract (`svc-api-contract: 2026-04-29`: snake_case, Unix seconds,
 * `has_more`/`next_cursor`) so that both contracts give the same typed objects. The server applies the
 * inverse transform; the list of keys that are snake_case in the default contract is generated from the
 * contract's response schemas (see `scripts/generate.ts`), so the two cannot drift.
 */
import type { Route } from './types.js';

const camelCache = new Map<string, string>();
const NONE: ReadonlySet<string> = new Set();
const snakeSets = new WeakMap<Route, ReadonlySet<string>>();

function camel(key: string, snakeKeys: ReadonlySet<string>): string {
  if (!key.includes('_') || snakeKeys.has(key)) return key;
  let c = camelCache.get(key);
  if (c === undefined) {
    c = key.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
    camelCache.set(key, c);
  }
  return c;
}

function isTimestampKey(key: string): boolean {
  return key.endsWith('At') || key === 'timestamp' || key === 'expires' || key === 'retweetedAt';
}

function walk(value: unknown, snake: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => walk(v, snake));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = camel(k, snake);
    out[key] =
      typeof v === 'number' && isTimestampKey(key) ? new Date(v * 1000).toISOString() : walk(v, snake);
  }
  return out;
}

/**
 * Converts an opt-in-contract body to the default contract's shape, for one route: its pagination style says
 * which pagination fields the default contract uses (A: `hasMore`/`nextCursor`; B: `has_next_page`/`next_cursor`),
 * its `snakeKeys` which keys stay snake_case.
 */
export function normalizeOptInBody(body: unknown, route: Pick<Route, 'pagination' | 'snakeKeys'>): unknown {
  let snake = snakeSets.get(route as Route);
  if (!snake) {
    snake = route.snakeKeys ? new Set(route.snakeKeys) : NONE;
    snakeSets.set(route as Route, snake);
  }
  // Style B when paginated so, or when the default answer carries `has_next_page` (batch reads, viral score).
  const styleB = route.pagination === 'B' || snake.has('has_next_page');
  if (!body || typeof body !== 'object' || Array.isArray(body)) return walk(body, snake);
  const { has_more, next_cursor, ...rest } = body as Record<string, unknown>;
  const o = walk(rest, snake) as Record<string, unknown>;
  const hasMore = has_more ?? o.hasMore ?? o.has_next_page;
  if (hasMore === undefined) return o;
  const cursor = typeof next_cursor === 'string' ? next_cursor : undefined;
  if (styleB) {
    delete o.hasMore;
    o.has_next_page = hasMore;
    o.next_cursor = cursor ?? '';
  } else {
    o.hasMore = hasMore;
    if (cursor) o.nextCursor = cursor;
  }
  return o;
}
