/**
 * Terminal width of text, so that tables of tweets in any script stay aligned: measured by `string-width`
 * (the measure ink uses), per grapheme cluster: combining marks and zero-width joiners take no column,
 * East Asian wide characters and emoji (ZWJ sequences, flags, keycaps included) take two.
 *
 * `string-width` builds a grapheme segmenter and Unicode-property expressions when it loads (about 15 ms),
 * which only output to a terminal needs: {@link loadTextWidths} loads it then (the output of a command does,
 * see `makeOutput`), and JSON or piped output never pays for it.
 */

/** Printable ASCII, whose width is its length (the common case, measured without segmenting). */
const ASCII = /^[\x20-\x7e]*$/;

let stringWidth: ((text: string) => number) | undefined;
let graphemes: Intl.Segmenter | undefined;

/** Loads the Unicode width measure; resolves at once when it is loaded already. */
export async function loadTextWidths(): Promise<void> {
  stringWidth ??= (await import('string-width')).default;
}

/** Columns of non-ASCII text: `string-width`'s, or one a code point when it was never loaded. */
function unicodeWidth(text: string): number {
  return stringWidth ? stringWidth(text) : [...text].length;
}

/** The number of terminal columns `text` takes. */
export function textWidth(text: string): number {
  return ASCII.test(text) ? text.length : unicodeWidth(text);
}

/** `text` cut to at most `width` columns, ending with `…` when cut; never inside a grapheme cluster. */
export function truncate(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  if (width <= 1) return width === 1 ? '…' : '';
  let out = '';
  let w = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(text)) {
    const cw = textWidth(segment);
    if (w + cw > width - 1) break;
    out += segment;
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
