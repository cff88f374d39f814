import { beforeAll, describe, expect, it } from 'vitest';
import { redactKey } from '../src/config/redact.js';
import { chooseColumns } from '../src/output/columns.js';
import { findItems, renderRecord } from '../src/output/render.js';
import { resumeLine, shellQuote } from '../src/output/shell-quote.js';
import { makeStyle } from '../src/output/style.js';
import { renderTable } from '../src/output/table.js';
import { loadTextWidths, textWidth, truncate } from '../src/output/text-width.js';

const plain = { tty: true, width: 40, style: makeStyle(false) };

describe('text width', () => {
  // What makeOutput does before it renders for a terminal.
  beforeAll(() => loadTextWidths());

  it('counts wide characters and emoji as two columns, combining marks as none', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('日本')).toBe(4);
    expect(textWidth('🎉')).toBe(2);
    expect(textWidth('é')).toBe(1);
    expect(truncate('日本語のテキスト', 7)).toBe('日本語…');
    expect(textWidth(truncate('🎉🎉🎉🎉', 5))).toBeLessThanOrEqual(5);
  });

  it('measures grapheme clusters as the terminal shows them (string-width), and never cuts one', () => {
    // A family (ZWJ sequence), a flag, a keycap, a skin tone: one two-column glyph each.
    for (const emoji of ['👨‍👩‍👧‍👦', '🇯🇵', '1️⃣', '👍🏽'])
      expect([emoji, textWidth(emoji)]).toEqual([emoji, 2]);
    expect(textWidth('e\u0301')).toBe(1);
    expect(textWidth('한국어')).toBe(6);
    expect(textWidth('ｶﾀｶﾅ')).toBe(4);
    expect(truncate('👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦', 5)).toBe('👨‍👩‍👧‍👦👨‍👩‍👧‍👦…');
    expect(truncate('🇯🇵🇫🇷🇩🇪', 4)).toBe('🇯🇵…');
  });
});

describe('tables', () => {
  it('fit the width by cutting the long text column first', () => {
    const items = [{ id: '1', username: 'jack', text: 'x'.repeat(100) }];
    const lines = renderTable(items, chooseColumns(items, undefined), plain);
    for (const l of lines) expect(textWidth(l)).toBeLessThanOrEqual(40);
    expect(lines[1]).toMatch(/^1\s+jack\s+x+…$/);
  });

  it('choose a preset per kind of item, else id first and long text last', () => {
    expect(
      chooseColumns([{ id: '1', author: { username: 'a' }, text: 't', createdAt: 'c' }], 'tweets').map(
        (c) => c.path,
      ),
    ).toEqual(['id', 'author.username', 'createdAt', 'text']);
    expect(
      chooseColumns([{ description: 'd', name: 'n', id: '1', nested: { a: 1 } }], 'things').map(
        (c) => c.path,
      ),
    ).toEqual(['id', 'name', 'description']);
  });
});

describe('answers', () => {
  it('find the list in an answer only when the rest just counts or pages it', () => {
    expect(findItems({ monitors: [{ id: 1 }], total: 1 }, undefined)?.kind).toBe('monitors');
    expect(findItems({ id: 'd', winners: [{ position: 1 }] }, undefined)).toBeUndefined();
    expect(findItems({ tweets: [], has_next_page: false }, 'tweets')?.items).toEqual([]);
  });

  it('render records as key/value lines with their lists as tables', () => {
    const lines = renderRecord(
      { id: 'd1', totalEntries: 3, winners: [{ position: 1, authorUsername: 'a' }] },
      { ...plain, tty: false },
    );
    expect(lines).toEqual(['id\td1', 'totalEntries\t3', '', 'winners:', '1\ta']);
  });

  it('say unlimited for an allowance without a limit, on a terminal and piped', () => {
    const account = { plan: 'active', monitorsUsed: 2, monitorsAllowed: Number.MAX_SAFE_INTEGER };
    expect(renderRecord(account, { ...plain, tty: false })).toEqual([
      'plan\tactive',
      'monitorsUsed\t2',
      'monitorsAllowed\tunlimited',
    ]);
    expect(renderRecord(account, plain).at(-1)).toMatch(/^monitorsAllowed +unlimited$/);
    expect(renderRecord({ monitorsAllowed: 200 }, plain)).toEqual(['monitorsAllowed  200']);
  });
});

describe('shell quoting and keys', () => {
  it('quotes only what needs it', () => {
    expect(shellQuote('from:jack')).toBe('from:jack');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(resumeLine(['users', 'followers', 'jack', '--cursor', 'old', '--limit', '5'], 'a b')).toBe(
      "xsvc users followers jack --limit 5 --cursor 'a b'",
    );
  });

  it('shows a key as its prefix and last 4 characters only', () => {
    expect(redactKey(`svc_${'a'.repeat(60)}9f2a`)).toBe('svc_…9f2a');
    expect(redactKey('short')).toBe('…');
  });
});
