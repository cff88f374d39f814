import bidiModule from 'bidi-js';
import { type FontRun, fontRuns } from './pdf-fonts.js';

// bidi-js is CommonJS: Node hands its factory over as the module itself, bundlers as `.default`.
const bidiFactory: typeof bidiModule.default =
  typeof bidiModule === 'function' ? bidiModule : bidiModule.default;
const bidi = bidiFactory();

/** A run as drawn: one face, one direction, in its place from left to right. */
export interface VisualRun extends FontRun {
  readonly rtl: boolean;
}

/** Maximal stretches of `text` at one bidi embedding level, in logical order. */
function levelRuns(text: string): { text: string; level: number }[] {
  const { levels } = bidi.getEmbeddingLevels(text, 'auto');
  const out: { text: string; level: number }[] = [];
  let start = 0;
  for (let i = 1; i <= text.length; i++) {
    if (i === text.length || levels[i] !== levels[start]) {
      out.push({ text: text.slice(start, i), level: levels[start] as number });
      start = i;
    }
  }
  return out;
}

/**
 * One line of text as runs to draw left to right (Unicode Bidirectional Algorithm, rule L2, applied to
 * whole runs): the line is cut into stretches of one embedding level, these are put in visual order, and
 * each is cut into runs of one face ({@link fontRuns}), in reverse order within a right-to-left stretch.
 * Within a run the PDF library's shaper sets right-to-left scripts from right to left itself.
 */
export function visualRuns(text: string): VisualRun[] {
  // Text without right-to-left characters needs no reordering: the common case, kept cheap.
  if (!/[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u.test(text)) {
    return fontRuns(text).map((r) => ({ ...r, rtl: false }));
  }
  const runs = levelRuns(text);
  const max = Math.max(...runs.map((r) => r.level));
  const lowestOdd = Math.min(...runs.map((r) => r.level).filter((l) => l % 2 === 1));
  for (let level = max; level >= lowestOdd; level--) {
    for (let i = 0; i < runs.length; ) {
      if ((runs[i] as { level: number }).level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < runs.length && (runs[j] as { level: number }).level >= level) j++;
      runs.splice(i, j - i, ...runs.slice(i, j).reverse());
      i = j;
    }
  }
  return runs.flatMap(({ text: part, level }) => {
    const rtl = level % 2 === 1;
    const faces = fontRuns(part).map((r) => ({ ...r, text: rtl ? neutralsReversed(r.text) : r.text, rtl }));
    return rtl ? faces.reverse() : faces;
  });
}

const STRONG_RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/**
 * A run of a right-to-left stretch as it is drawn left to right. The shaper reverses Hebrew and Arabic
 * itself, but not the spaces and punctuation between them, set in another face: those are put in visual
 * order here, character by character, with their mirrored forms (`(` for `)`), as rule L4 asks.
 */
function neutralsReversed(text: string): string {
  if (text.length === 1) return bidi.getMirroredCharacter(text) ?? text;
  if (STRONG_RTL.test(text)) return text;
  let out = '';
  for (const { segment } of graphemes.segment(text))
    out = (bidi.getMirroredCharacter(segment) ?? segment) + out;
  return out;
}

/** One segmenter for every run (making one is costly). */
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
