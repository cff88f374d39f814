/**
 * Text for the PDF standard fonts: WinAnsiEncoding bytes (as a latin1 string) and Helvetica advance widths.
 * The 14 standard fonts carry no glyphs beyond WinAnsi, so other characters (non-Latin scripts, emoji)
 * are shown as `?`.
 */

/** Unicode characters WinAnsi places in 0x80-0x9F. */
const WIN_ANSI_EXTRA: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/** `text` as WinAnsi bytes in a latin1 string: line breaks and tabs become spaces, the unknown `?`. */
export function winAnsi(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (code === 0x09 || code === 0x0a || code === 0x0d) out += ' ';
    else if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) out += ch;
    else {
      const mapped = WIN_ANSI_EXTRA[ch];
      out += mapped === undefined ? '?' : String.fromCharCode(mapped);
    }
  }
  return out;
}

/** A WinAnsi string as a PDF literal string `( … )`. */
export function pdfLiteral(bytes: string): string {
  return `(${bytes.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

// Helvetica advance widths (AFM, 1/1000 em) of 0x20-0x7E.
// biome-ignore format: a table
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** Width in points of WinAnsi `bytes` set in Helvetica at `size` (bold about 8% wider). */
export function textWidth(bytes: string, size: number, bold = false): number {
  let units = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes.charCodeAt(i);
    units += c >= 0x20 && c <= 0x7e ? (HELVETICA[c - 0x20] as number) : 600;
  }
  return (units / 1000) * size * (bold ? 1.08 : 1);
}

/** `bytes` cut to fit `width` points, ending in `...` when cut. */
export function fitText(bytes: string, width: number, size: number, bold = false): string {
  if (textWidth(bytes, size, bold) <= width) return bytes;
  const ellipsis = '...';
  const room = width - textWidth(ellipsis, size, bold);
  let out = '';
  let used = 0;
  for (let i = 0; i < bytes.length; i++) {
    const w = textWidth(bytes[i] as string, size, bold);
    if (used + w > room) break;
    out += bytes[i];
    used += w;
  }
  return out + ellipsis;
}
