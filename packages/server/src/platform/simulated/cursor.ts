import { InvalidCursorError } from './errors.js';

/**
 * A keyset position: the sort value of the last item of a page (a time in epoch ms, a count, an
 * engagement score) and its id, which breaks ties. The next page starts strictly after it.
 */
export type Keyset = readonly [value: number, id: string];

/** An offset position, for the few listings without a stable key. */
export type Offset = number;

interface Payload {
  /** The listing the cursor belongs to: a cursor of another listing is refused. */
  s: string;
  k?: [number, string];
  o?: number;
}

const MAX_CURSOR_LENGTH = 512;

/** An opaque cursor for the keyset `key` of listing `scope`. */
export function encodeCursor(scope: string, key: Keyset): string {
  return encode({ s: scope, k: [key[0], key[1]] });
}

/** An opaque cursor for the offset `offset` of listing `scope`. */
export function encodeOffsetCursor(scope: string, offset: Offset): string {
  return encode({ s: scope, o: offset });
}

/**
 * The keyset of a cursor of listing `scope`; `undefined` when there is none (first page: no cursor or an
 * empty one). Throws {@link InvalidCursorError} for anything this platform did not issue for `scope`.
 */
export function decodeCursor(scope: string, cursor: string | undefined): Keyset | undefined {
  const payload = decode(scope, cursor);
  if (!payload) return undefined;
  const k = payload.k;
  if (
    !Array.isArray(k) ||
    k.length !== 2 ||
    typeof k[0] !== 'number' ||
    !Number.isSafeInteger(k[0]) ||
    typeof k[1] !== 'string' ||
    !/^\d{1,25}$/.test(k[1])
  ) {
    throw new InvalidCursorError('invalid cursor: not a position of this listing');
  }
  return [k[0], k[1]];
}

/** The offset of an offset cursor of listing `scope` (0 when there is none); see {@link decodeCursor}. */
export function decodeOffsetCursor(scope: string, cursor: string | undefined): Offset {
  const payload = decode(scope, cursor);
  if (!payload) return 0;
  const o = payload.o;
  if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0) {
    throw new InvalidCursorError('invalid cursor: not a position of this listing');
  }
  return o;
}

function encode(payload: Payload): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

function decode(scope: string, cursor: string | undefined): Payload | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw new InvalidCursorError('invalid cursor: not an opaque cursor of this service');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch (cause) {
    throw new InvalidCursorError('invalid cursor: not an opaque cursor of this service', { cause });
  }
  if (typeof payload !== 'object' || payload === null || (payload as Payload).s !== scope) {
    throw new InvalidCursorError('invalid cursor: it belongs to another listing');
  }
  return payload as Payload;
}
