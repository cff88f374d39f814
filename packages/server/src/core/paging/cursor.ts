import { HttpError } from '../http/errors.js';

/**
 * The one cursor codec (issue #13) of the listings this server pages itself. A cursor is opaque to clients:
 * base64url of `{"v":1,"s":<scope>,"p":<payload>}`, the payload a small typed record (a keyset position, an
 * offset). Decoding checks the version, the scope (a cursor of another listing is refused) and every field
 * of the payload against the listing's shape, so a decoded cursor is always well formed. It is not signed:
 * a payload only ever positions a query that is already limited to the caller's own rows, so an edited
 * cursor can skip or repeat rows of the caller's own listing, nothing more. Whatever a client sends, a bad
 * cursor answers 400 `invalid_input`, never another error.
 *
 * Cursors issued before v1 (plain `tag:value:value` text, or `{"s","o"}` JSON for offsets) still decode
 * through the listing's `legacy` reader.
 *
 * | listing                    | scope                 | payload                       | legacy form        |
 * | -------------------------- | --------------------- | ----------------------------- | ------------------ |
 * | draws                      | `draws`               | `{ createdAt, id }`           | `draws:<ms>:<id>`  |
 * | extraction jobs            | `extractions`         | `{ createdAt, id }`           | `extractions:…`    |
 * | compose drafts             | `drafts`              | `{ createdAt, id }`           | `dr:<ms>:<id>`     |
 * | radar feed                 | `radar`               | `{ score, id }`               | `rd:<score>:<id>`  |
 * | stored events              | `events`              | `{ id }` (the last event id)  | `ev:<id>`          |
 * | bookmark folders           | `bookmark_folders`    | `{ offset }`                  | `{"s":…,"o":…}`    |
 *
 * Not cursors of this codec: platform cursors (the simulated network's or the X API's, passed through as
 * the platform issued them), coverage cursors (`cov_…`, `features/reads/walks/token.ts`: a walk id and a
 * step, with their own `invalid_coverage_cursor` / `coverage_cursor_gone` answers) and extraction results'
 * `after`, which is documented as a result id.
 */

/** A payload field: `int` a safe integer, `uint` a non-negative one, `digits` a decimal id, `id` a row id. */
export type CursorField = 'int' | 'uint' | 'digits' | 'id';

/** The fields of a listing's cursor payload, in order (the order of the legacy `tag:…` form). */
export type CursorShape = Readonly<Record<string, CursorField>>;

/** The payload a shape describes: numbers for `int`/`uint`, strings for `digits`/`id`. */
export type CursorPayload<S extends CursorShape> = {
  -readonly [K in keyof S]: S[K] extends 'int' | 'uint' ? number : string;
};

/** Reads a cursor issued before v1 (its base64url-decoded text) into raw payload fields, or undefined. */
export type LegacyReader = (text: string, fields: readonly string[]) => Record<string, unknown> | undefined;

/** How a listing names its cursor in the refusal message. */
export interface CursorOptions {
  /** The query parameter that carries the cursor (default `after`). */
  param?: string;
  /** The answer field the client should pass back (default `nextCursor`). */
  next?: string;
  /** Reads the listing's cursors from before v1. */
  legacy?: LegacyReader;
  /** `''` means the first page (style-B listings, whose last page answers `next_cursor: ''`); else a 400. */
  emptyIsStart?: boolean;
}

/** The version of the cursors {@link encodeCursor} makes. */
const VERSION = 1;
/** Longer strings are refused before anything is decoded. */
const MAX_LENGTH = 512;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const DIGITS = /^\d{1,25}$/;
const ROW_ID = /^[\w-]{1,64}$/;
const INTEGER_TEXT = /^-?\d{1,16}$/;

/** The cursor of listing `scope` at `payload` (opaque to clients). */
export function encodeCursor(scope: string, payload: Readonly<Record<string, string | number>>): string {
  return Buffer.from(JSON.stringify({ v: VERSION, s: scope, p: payload }), 'utf8').toString('base64url');
}

/**
 * The payload of a cursor made by {@link encodeCursor} for `scope` (or a legacy one the options read);
 * 400 `invalid_input` for anything else: another listing's cursor, another shape, garbage.
 */
export function decodeCursor<S extends CursorShape>(
  scope: string,
  cursor: string,
  shape: S,
  options: CursorOptions = {},
): CursorPayload<S> {
  const payload = typeof cursor === 'string' ? read(scope, cursor, shape, options.legacy) : undefined;
  if (payload) return payload;
  throw new HttpError(
    'invalid_input',
    `${options.param ?? 'after'}: not a cursor of this list; pass back \`${options.next ?? 'nextCursor'}\` as given`,
  );
}

function read<S extends CursorShape>(
  scope: string,
  cursor: string,
  shape: S,
  legacy: LegacyReader | undefined,
): CursorPayload<S> | undefined {
  if (cursor.length > MAX_LENGTH || !BASE64URL.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (isRecord(parsed) && parsed.v !== undefined) {
    return parsed.v === VERSION && parsed.s === scope && isRecord(parsed.p)
      ? check(parsed.p, shape, false)
      : undefined;
  }
  const old = legacy?.(text, Object.keys(shape));
  return old ? check(old, shape, true) : undefined;
}

/** `raw` as the payload of `shape`: exactly its fields, each of its kind (`fromText`: numbers as digits). */
function check<S extends CursorShape>(
  raw: Record<string, unknown>,
  shape: S,
  fromText: boolean,
): CursorPayload<S> | undefined {
  const keys = Object.keys(shape);
  if (Object.keys(raw).length !== keys.length) return undefined;
  const out: Record<string, string | number> = {};
  for (const key of keys) {
    const kind = shape[key] as CursorField;
    let value = raw[key];
    if (kind === 'int' || kind === 'uint') {
      if (fromText && typeof value === 'string' && INTEGER_TEXT.test(value)) value = Number(value);
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || (kind === 'uint' && value < 0)) {
        return undefined;
      }
    } else if (typeof value !== 'string' || !(kind === 'digits' ? DIGITS : ROW_ID).test(value)) {
      return undefined;
    }
    out[key] = value;
  }
  return out as CursorPayload<S>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Legacy form `tag:v1:v2…`: the shape's fields in order after the listing's tag. */
export function legacyTagged(tag: string): LegacyReader {
  return (text, fields) => {
    const parts = text.split(':');
    if (parts[0] !== tag || parts.length !== fields.length + 1) return undefined;
    return Object.fromEntries(fields.map((f, i) => [f, parts[i + 1]]));
  };
}

/** Legacy form `{"s":<scope>,"o":<offset>}` of in-memory listings, read into the shape's one field. */
export function legacyOffset(scope: string): LegacyReader {
  return (text, fields) => {
    try {
      const p = JSON.parse(text) as unknown;
      if (!isRecord(p) || p.s !== scope || fields.length !== 1) return undefined;
      return { [fields[0] as string]: p.o };
    } catch {
      return undefined;
    }
  };
}

/** One listing's cursors: its scope, shape and options bound once. */
export interface CursorCodec<S extends CursorShape> {
  readonly scope: string;
  encode(payload: CursorPayload<S>): string;
  /** The payload of `cursor`; undefined when absent (or `''`, when `emptyIsStart`); 400 `invalid_input` when not a cursor. */
  decode(cursor: string | undefined): CursorPayload<S> | undefined;
}

/** The codec of listing `scope`, its payloads shaped `shape`. */
export function cursorCodec<S extends CursorShape>(
  scope: string,
  shape: S,
  options: CursorOptions = {},
): CursorCodec<S> {
  return {
    scope,
    encode: (payload) => encodeCursor(scope, payload),
    decode: (cursor) =>
      cursor === undefined || (cursor === '' && options.emptyIsStart)
        ? undefined
        : decodeCursor(scope, cursor, shape, options),
  };
}

/** The shape of a newest-first keyset position: the creation time and id of a page's last row. */
export const LIST_POSITION = { createdAt: 'int', id: 'id' } as const;

/** Where a newest-first listing continues: after the row created at `createdAt` with id `id`. */
export type ListPosition = CursorPayload<typeof LIST_POSITION>;

/**
 * A style-A page (spec 4.1) from rows read one beyond `limit`: the first `limit` rows, `hasMore`, and
 * `nextCursor` (the position of the last row, in `codec`) only when more follow.
 */
export function pageOf<S extends CursorShape, R, T>(
  codec: CursorCodec<S>,
  rows: readonly R[],
  limit: number,
  positionOf: (row: R) => CursorPayload<S>,
  map: (row: R) => T,
): { items: T[]; hasMore: boolean; nextCursor?: string } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const hasMore = rows.length > limit && last !== undefined;
  return {
    items: page.map(map),
    hasMore,
    ...(hasMore && { nextCursor: codec.encode(positionOf(last)) }),
  };
}
