import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/core/http/errors.js';
import {
  cursorCodec,
  decodeCursor,
  encodeCursor,
  LIST_POSITION,
  legacyOffset,
  legacyTagged,
  pageOf,
} from '../../src/core/paging/cursor.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const draws = cursorCodec('draws', LIST_POSITION, { legacy: legacyTagged('draws') });
const events = cursorCodec('events', { id: 'digits' }, { legacy: legacyTagged('ev') });
const folders = cursorCodec(
  'bookmark_folders',
  { offset: 'uint' },
  { param: 'cursor', next: 'next_cursor', legacy: legacyOffset('bookmark_folders'), emptyIsStart: true },
);

/** The error `f` throws: always the documented 400 `invalid_input`, never anything else. */
function refusal(f: () => unknown): HttpError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).code).toBe('invalid_input');
    expect((err as HttpError).status).toBe(400);
    return err as HttpError;
  }
  throw new Error('expected a refusal');
}

describe('core/paging cursor codec', () => {
  it('round-trips typed payloads, opaque base64url', () => {
    const pos = { createdAt: 1_780_000_000_123, id: '0190f3a2-7c1e-7abc-8def-0123456789ab' };
    const c = draws.encode(pos);
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(draws.decode(c)).toEqual(pos);
    expect(events.decode(events.encode({ id: '1900000000000000500' }))).toEqual({
      id: '1900000000000000500',
    });
    expect(folders.decode(folders.encode({ offset: 40 }))).toEqual({ offset: 40 });
    expect(
      decodeCursor('radar', encodeCursor('radar', { score: -5, id: 'r1' }), { score: 'int', id: 'id' }),
    ).toEqual({ score: -5, id: 'r1' });
  });

  it('absent cursors are the first page; an empty one only where the listing says so', () => {
    expect(draws.decode(undefined)).toBeUndefined();
    expect(folders.decode('')).toBeUndefined();
    refusal(() => draws.decode(''));
  });

  it('refuses a cursor of another listing (scope mismatch) with 400 invalid_input', () => {
    const drafts = cursorCodec('drafts', LIST_POSITION);
    const c = drafts.encode({ createdAt: 1, id: 'x' });
    const err = refusal(() => draws.decode(c));
    expect(err.message).toBe('after: not a cursor of this list; pass back `nextCursor` as given');
    expect(refusal(() => folders.decode(draws.encode({ createdAt: 1, id: 'x' }))).message).toMatch(
      /^cursor: .*next_cursor/,
    );
  });

  it('refuses garbage, other versions, other shapes and out-of-range values with 400, never another error', () => {
    const bad = [
      'not!a!cursor',
      '%%%',
      'a'.repeat(600),
      b64('{"v":2,"s":"draws","p":{"createdAt":1,"id":"x"}}'),
      b64('{"v":1,"s":"draws","p":{"createdAt":"1","id":"x"}}'),
      b64('{"v":1,"s":"draws","p":{"createdAt":1.5,"id":"x"}}'),
      b64('{"v":1,"s":"draws","p":{"createdAt":1,"id":"x","extra":1}}'),
      b64('{"v":1,"s":"draws","p":{"createdAt":1,"id":"x y"}}'),
      b64('{"v":1,"s":"draws","p":[1,"x"]}'),
      b64('{"v":1,"s":"draws","p":null}'),
      b64('{"v":1,"s":"draws"}'),
      b64('null'),
      b64('[]'),
      b64('12'),
      b64('"draws"'),
      b64('draws:1'),
      b64('draws:1:x:y'),
      b64('draws:99999999999999999:x'),
      b64('\u0000\uffff'),
    ];
    for (const c of bad) refusal(() => draws.decode(c));
    refusal(() => folders.decode(folders.encode({ offset: -1 })));
    refusal(() => events.decode(events.encode({ id: 'abc' })));
  });

  it('still reads cursors issued before v1', () => {
    expect(draws.decode(b64('draws:1780000000000:0190f3a2-7c1e-7abc-8def-0123456789ab'))).toEqual({
      createdAt: 1_780_000_000_000,
      id: '0190f3a2-7c1e-7abc-8def-0123456789ab',
    });
    expect(events.decode(b64('ev:1900000000000000500'))).toEqual({ id: '1900000000000000500' });
    expect(folders.decode(b64('{"s":"bookmark_folders","o":20}'))).toEqual({ offset: 20 });
    refusal(() => folders.decode(b64('{"s":"other","o":20}')));
    refusal(() => events.decode(b64('dr:1:2')));
  });

  it('pageOf: the next cursor is the position of the last row returned, only when more follow', () => {
    const rows = [1, 2, 3].map((n) => ({ created_at: 100 - n, id: `r${n}` }));
    const position = (r: { created_at: number; id: string }) => ({ createdAt: r.created_at, id: r.id });
    const page = pageOf(draws, rows, 2, position, (r) => r.id);
    expect(page.items).toEqual(['r1', 'r2']);
    expect(page.hasMore).toBe(true);
    expect(draws.decode(page.nextCursor)).toEqual({ createdAt: 98, id: 'r2' });
    expect(pageOf(draws, rows, 3, position, (r) => r.id)).toEqual({
      items: ['r1', 'r2', 'r3'],
      hasMore: false,
    });
  });
});
