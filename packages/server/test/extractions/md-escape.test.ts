/**
 * The Markdown escape's shortcuts (a cell that needs nothing is returned as it is; the line-start rules run
 * at the text's start alone when it has no line break) give what the four rules run in full give, on
 * short texts drawn from the characters each rule looks for: line terminators that `^` reads, spaces that
 * `\s` reads, digits, underscores beside letters, marks and emoji.
 */
import { describe, expect, it } from 'vitest';
import { mdEscape } from '../../src/core/exports/markdown.js';
import { seededRandom } from '../helpers/random.js';

/** The four rules in full, in the order the escape applies them. */
function escapeInFull(text: string): string {
  return text
    .replace(/[\\`*[\]<>|~&#]/g, '\\$&')
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_')
    .replace(/^(\s*)([+=-])/gm, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/gm, '$1\\$2');
}

const ALPHABET = [
  'a',
  'Z',
  '1',
  '9',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u2028',
  '\u2029',
  '\u00a0',
  '\ufeff',
  '_',
  '-',
  '+',
  '=',
  '.',
  ')',
  '#',
  '\\',
  '*',
  '`',
  '<',
  '|',
  '~',
  '&',
  'é',
  '\u0301',
  '東',
  '😀',
];

describe('mdEscape', () => {
  it('matches the four rules run in full on 50,000 texts', () => {
    const next = seededRandom(30);
    const differ: string[] = [];
    for (let n = 0; n < 50_000; n++) {
      let text = '';
      const length = Math.floor(next() * 9);
      for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
      if (mdEscape(text) !== escapeInFull(text)) differ.push(text);
    }
    expect(differ).toEqual([]);
  });

  it('escapes what starts a block after each kind of line break, and leaves plain text alone', () => {
    expect(mdEscape('a\n-b\r+c\u2028=d\u20291.e')).toBe('a\n\\-b\r\\+c\u2028\\=d\u20291\\.e');
    expect(mdEscape(' 12) x')).toBe(' 12\\) x');
    expect(mdEscape('snake_case _edge_')).toBe('snake_case \\_edge\\_');
    const plain = 'Coffee, code, cats 東京';
    expect(mdEscape(plain)).toBe(plain);
  });
});
