/**
 * The PDF export's shaping shortcuts (src/core/exports/pdf-shaping.ts) against fontkit itself: for every
 * face of the fallback chain that sets Latin text, thousands of words (ids, counts, names, punctuation,
 * pairs that kern, ligatures, marks) laid out through a font with the shortcuts and through a fresh one
 * must give the same glyphs (ids and code points, which the PDF's text map takes) and the same positions,
 * unit for unit. The shortcuts must also be taken (else the test would compare fontkit with itself).
 */
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { faceData, fontChain } from '../../src/core/exports/pdf-fonts.js';
import { plainShaping, type ShapingFont } from '../../src/core/exports/pdf-shaping.js';
import { seededRandom } from '../helpers/random.js';

interface Run {
  glyphs: { id: number; codePoints: number[]; advanceWidth: number }[];
  positions: { xAdvance: number; yAdvance: number; xOffset: number; yOffset: number }[];
  advanceWidth: number;
}

/** A fontkit font of `face`, as pdfkit makes it (a document of its own: every call gets a fresh font). */
function fontkitFont(face: ReturnType<typeof fontChain>[number]): ShapingFont {
  const doc = new PDFDocument();
  doc.registerFont(face.name, faceData(face));
  doc.font(face.name);
  return (doc as unknown as { _font: { font: ShapingFont } })._font.font;
}

/** What a run says, as plain data. */
const plain = (run: Run) => ({
  glyphs: run.glyphs.map((g) => [g.id, [...g.codePoints]]),
  positions: run.positions.map((p) => ({ ...p })),
  advanceWidth: run.advanceWidth,
});

const PIECES = [
  ...'0123456789',
  ...'0123456789',
  '_',
  '#',
  '…',
  ' ',
  '-',
  '.',
  ',',
  "'",
  '"',
  '/',
  ':',
  '@',
  '(',
  ')',
  '?',
  ']',
  '}',
  'res_',
  'user_',
  'T',
  'V',
  'W',
  'Y',
  'A',
  'L',
  'P',
  'f',
  'fi',
  'ffl',
  'é',
  'ß',
  'ı',
  'Ǆ',
  'ŀ',
  '½',
  '⁄',
  'a\u0301',
  '\u00ad',
  'Ta',
  'AV',
  'To',
  'Lovelace',
  'x',
  'Ж',
  'Ω',
];

function words(count: number, seed: number): string[] {
  const next = seededRandom(seed);
  const out = [
    'res_00001470',
    'user_233',
    '1800000000000000175',
    '#1306',
    '#15…',
    '2026-04-01T00:00:00.000Z',
    'L1',
    'T1',
    'Y0',
    '_0',
    '1/2',
    '3⁄4',
    'fi1',
    'AV1',
    // Pairs that kern across the head's end (Noto Sans: F, T, V, W, Y, f, v, w, y before ? ) ] }).
    'Why?',
    'T?1234',
    'f)99',
    'of]2',
    'y?',
    '_F?7',
    'F?12',
  ];
  while (out.length < count) {
    let w = '';
    for (let n = 1 + Math.floor(next() * 6); n > 0; n--) w += PIECES[Math.floor(next() * PIECES.length)];
    out.push(next() < 0.3 ? `${w} ` : w);
  }
  return out;
}

describe('PDF shaping shortcuts', () => {
  const latin = fontChain().filter((f) =>
    /^noto-sans-(latin|latin-ext|vietnamese|cyrillic|greek)-400/.test(f.name),
  );

  it('the faces that set Latin text are in the chain', () => {
    expect(latin.map((f) => f.name)).toContain('noto-sans-latin-400-normal');
  });

  for (const face of latin) {
    it(`${face.name}: every word laid out as fontkit lays it out`, () => {
      const reference = fontkitFont(face);
      const fast = fontkitFont(face);
      let shaped = 0;
      const own = fast.layout.bind(fast);
      // Counts fontkit's own layouts behind the shortcuts.
      (fast as { layout: ShapingFont['layout'] }).layout = (text: string, ...rest: unknown[]) => {
        shaped++;
        return own(text, ...rest);
      };
      plainShaping(fast);
      const list = words(3_000, face.name.length);
      // Twice: the second time the shortcuts' kept heads are used.
      for (const round of [0, 1]) {
        for (const w of list) {
          const got = plain(fast.layout(w) as unknown as Run);
          const want = plain(reference.layout(w) as unknown as Run);
          expect(got, `${JSON.stringify(w)} (round ${round})`).toEqual(want);
        }
      }
      // Cell-like words: ids, counts, usernames, cut hashtags. Past fontkit but for a head per prefix.
      shaped = 0;
      const cells = Array.from({ length: 500 }, (_, i) => [
        `res_${String(i).padStart(8, '0')}`,
        `user_${i * 7}`,
        String(1_000_000_000 + i * 7),
        `#${i}…`,
      ]).flat();
      for (const w of cells)
        expect(plain(fast.layout(w) as unknown as Run)).toEqual(plain(reference.layout(w) as unknown as Run));
      if (face.name === 'noto-sans-latin-400-normal') expect(shaped).toBeLessThan(30);
    });
  }
});
