/**
 * Terminal width of text, so that tables of tweets in any script stay aligned: combining marks take no
 * column, East Asian wide characters and emoji take two.
 */

const COMBINING = /\p{M}/u;
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|\p{Extended_Pictographic}/u;
/** Zero-width spaces and joiners, word joiner, variation selectors. */
const ZERO_WIDTH = new Set([0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2060, 0xfe0e, 0xfe0f]);

function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (COMBINING.test(ch) || ZERO_WIDTH.has(cp)) return 0;
  if (cp < 32 || (cp >= 0x7f && cp < 0xa0)) return 0;
  return WIDE.test(ch) ? 2 : 1;
}

/** The number of terminal columns `text` takes. */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
  return w;
}

/** `text` cut to at most `width` columns, ending with `…` when cut. */
export function truncate(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  if (width <= 1) return width === 1 ? '…' : '';
  let out = '';
  let w = 0;
  for (const ch of text) {
    const cw = charWidth(ch);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` columns. */
export function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - textWidth(text)));
}

/** One line: newlines, tabs and other control characters become spaces. */
export function oneLine(text: string): string {
  let out = '';
  let space = false;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const control = cp < 0x20 || cp === 0x7f;
    if (control && !space) out += ' ';
    else if (!control) out += ch;
    space = control;
  }
  return out;
}
