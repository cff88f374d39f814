import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { woffToSfnt } from './pdf-woff.js';

/**
 * The font fallback chain of PDF exports, from the Noto families that `@fontsource` packages ship:
 * each character is set in the first face whose Unicode range holds it. Fontsource slices every family
 * into faces by Unicode range (as Google Fonts serves them), each a small WOFF file, so a PDF embeds only
 * the faces its text uses, and of those only the glyphs used (the PDF library subsets them).
 */
const FAMILIES = [
  // Latin, Latin Extended, Vietnamese, Cyrillic, Greek and Devanagari.
  '@fontsource/noto-sans',
  '@fontsource/noto-sans-hebrew',
  '@fontsource/noto-sans-arabic',
  '@fontsource/noto-sans-thai',
  // Chinese (Han), Japanese kana, CJK punctuation and full-width forms; then Hangul.
  '@fontsource/noto-sans-sc',
  '@fontsource/noto-sans-kr',
  // Monochrome emoji: a PDF cannot show the colour emoji fonts' bitmaps.
  '@fontsource/noto-emoji',
] as const;

/** One face of the chain: its name as registered with the PDF document, its file and its Unicode ranges. */
export interface FontFace {
  readonly name: string;
  readonly file: string;
  /** Sorted, non-overlapping inclusive code point ranges. */
  readonly ranges: readonly (readonly [number, number])[];
}

const require = createRequire(import.meta.url);

/** The `unicode-range` list of a CSS `@font-face` as code point ranges. */
function parseRanges(list: string): [number, number][] {
  return list
    .split(',')
    .map((part) => {
      const [lo, hi] = part.trim().replace(/^U\+/i, '').split('-');
      return [Number.parseInt(lo ?? '', 16), Number.parseInt(hi ?? lo ?? '', 16)] as [number, number];
    })
    .filter(([lo, hi]) => Number.isFinite(lo) && Number.isFinite(hi))
    .sort((a, b) => a[0] - b[0]);
}

/** The regular (400) faces of one fontsource family, read from its `400.css`. */
function familyFaces(pkg: string): FontFace[] {
  const css = require.resolve(`${pkg}/400.css`);
  const dir = dirname(css);
  const faces: FontFace[] = [];
  for (const block of readFileSync(css, 'utf8').split('@font-face').slice(1)) {
    const woff = /url\(\.\/files\/([^)]+\.woff)\)/.exec(block)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
    if (!woff || !range) continue;
    faces.push({
      name: woff.replace(/\.woff$/, ''),
      file: join(dir, 'files', woff),
      ranges: parseRanges(range),
    });
  }
  return faces;
}

const decoded = new Map<string, Buffer>();

/**
 * The font file of `face` as the PDF library reads it fastest: the WOFF decoded to OpenType once, then
 * kept (a face is some 10-150 KB; an export uses a few dozen of the chain's faces at most).
 */
export function faceData(face: FontFace): Buffer {
  let data = decoded.get(face.name);
  if (!data) {
    data = woffToSfnt(readFileSync(face.file));
    decoded.set(face.name, data);
  }
  return data;
}

let chain: readonly FontFace[] | undefined;

/** Every face of the chain, in fallback order (read once, then kept). */
export function fontChain(): readonly FontFace[] {
  chain ??= FAMILIES.flatMap(familyFaces);
  return chain;
}

function covers(face: FontFace, cp: number): boolean {
  let lo = 0;
  let hi = face.ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = face.ranges[mid] as readonly [number, number];
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
}

const faceCache = new Map<number, FontFace>();

/** The face that sets code point `cp`: the first of the chain that holds it, else the first face. */
export function faceFor(cp: number): FontFace {
  let face = faceCache.get(cp);
  if (face) return face;
  const faces = fontChain();
  face = faces.find((f) => covers(f, cp)) ?? (faces[0] as FontFace);
  if (faceCache.size < 65_536) faceCache.set(cp, face);
  return face;
}

const MARK = /^\p{M}$/u;

/** Joiners, variation selectors, skin tones and combining marks: they stay in the face of what they join. */
function joins(ch: string, cp: number): boolean {
  // Below U+0300 (Latin and its punctuation, most of what is set) nothing joins.
  if (cp < 0x300) return false;
  return (
    cp === 0x200c ||
    cp === 0x200d ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0x1f3fb && cp <= 0x1f3ff) ||
    MARK.test(ch)
  );
}

/** A stretch of text set in one face. */
export interface FontRun {
  readonly face: FontFace;
  readonly text: string;
}

/**
 * `text` cut into runs of one face each: a character goes to the first face of the chain that holds it;
 * a joining character stays with the run before it when that face holds it too.
 */
export function fontRuns(text: string): FontRun[] {
  const runs: { face: FontFace; text: string }[] = [];
  let current: { face: FontFace; text: string } | undefined;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    const face = current && joins(ch, cp) && covers(current.face, cp) ? current.face : faceFor(cp);
    if (current && current.face === face) current.text += ch;
    else {
      current = { face, text: ch };
      runs.push(current);
    }
  }
  return runs;
}
