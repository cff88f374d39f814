import { cellText } from './cell.js';
import { chooseColumns } from './columns.js';
import { renderTable, type TableLayout } from './table.js';
import { pad, textWidth, truncate } from './text-width.js';

/** The list inside an answer: its array and the array's name. */
export interface FoundItems {
  readonly kind: string | undefined;
  readonly items: readonly unknown[];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const isObjectArray = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0 && v.every(isRecord);

/** Fields that only describe a list (counts, paging), beside its array. */
const LIST_META = new Set([
  'total',
  'count',
  'hasMore',
  'nextCursor',
  'has_next_page',
  'next_cursor',
  'limit',
]);

/**
 * The list an answer carries: the operation's items array, the answer itself when it is an array, or the
 * only array of objects among its fields when the rest only counts or pages it (`{ monitors: [...], total }`).
 */
export function findItems(body: unknown, itemsKey: string | undefined): FoundItems | undefined {
  if (Array.isArray(body)) return { kind: undefined, items: body };
  if (!isRecord(body)) return undefined;
  if (itemsKey && Array.isArray(body[itemsKey]))
    return { kind: itemsKey, items: body[itemsKey] as unknown[] };
  const arrays = Object.entries(body).filter(([, v]) => Array.isArray(v));
  const [only] = arrays;
  if (arrays.length !== 1 || !(isObjectArray(only![1]) || (only![1] as unknown[]).length === 0))
    return undefined;
  const others = Object.keys(body).filter((k) => k !== only![0]);
  return others.every((k) => LIST_META.has(k)) ? { kind: only![0], items: only![1] as unknown[] } : undefined;
}

/** Renders a list as table lines (see {@link renderTable}). */
export function renderItems(found: FoundItems, layout: TableLayout): string[] {
  return renderTable(found.items, chooseColumns(found.items, found.kind), layout);
}

/**
 * Renders a single answer as `key  value` lines (tab-separated when piped), nested objects as dotted keys;
 * its arrays of objects follow as tables under their name.
 */
export function renderRecord(body: unknown, layout: TableLayout): string[] {
  const record = unwrapSingle(body);
  if (!isRecord(record)) return [cellText(record)];
  const pairs: [string, string][] = [];
  const tables: [string, unknown[]][] = [];
  flatten(record, '', pairs, tables);
  const keyWidth = Math.max(0, ...pairs.map(([k]) => textWidth(k)));
  const valueWidth = Math.max(10, layout.width - keyWidth - 2);
  const lines = pairs.map(([k, v]) =>
    layout.tty
      ? `${layout.style.bold(pad(k, keyWidth))}  ${truncate(v, valueWidth)}`.trimEnd()
      : `${k}\t${v}`,
  );
  for (const [name, items] of tables) {
    lines.push('', layout.tty ? layout.style.bold(`${name}:`) : `${name}:`);
    lines.push(...renderTable(items, chooseColumns(items, name.split('.').at(-1)), layout));
  }
  return lines;
}

/** `{ tweet: {...} }` → the tweet: an answer that only wraps one object shows that object. */
function unwrapSingle(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const entries = Object.entries(body);
  if (entries.length === 1 && isRecord(entries[0]![1])) return entries[0]![1];
  return body;
}

/** Nested objects with more fields than this are shown as one JSON value, not a key each. */
const MAX_EXPANDED_FIELDS = 8;
/** Dotted keys go this deep at most. */
const MAX_DEPTH = 2;

function flatten(
  obj: Record<string, unknown>,
  prefix: string,
  pairs: [string, string][],
  tables: [string, unknown[]][],
  depth = 0,
): void {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix + k;
    if (v === undefined) continue;
    if (isRecord(v) && depth < MAX_DEPTH && (depth === 0 || Object.keys(v).length <= MAX_EXPANDED_FIELDS)) {
      flatten(v, `${key}.`, pairs, tables, depth + 1);
    } else if (isObjectArray(v) && depth === 0) tables.push([key, v]);
    else pairs.push([key, cellText(v)]);
  }
}
