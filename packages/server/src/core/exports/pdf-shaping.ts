/**
 * Exact shortcuts past fontkit's OpenType shaper for the words most table cells hold: ids, counts, dates.
 *
 * pdfkit sets every word through fontkit's `layout`, which builds a shaping plan and runs every GSUB and
 * GPOS lookup of the default features over the glyphs, some 70 µs a word even when nothing applies: in a
 * 5,000-row PDF, two thirds of the words are digits (`1800000000000000175`), `#1234` or `user_1234`, and
 * shaping them took a third of the export. Every lookup fontkit applies starts at a glyph of its
 * coverage (its first input glyph, the first of a pair, the mark of a mark attachment), so:
 *
 * - a word none of whose glyphs is in any such coverage comes out of the shaper as its `cmap` glyphs with
 *   their advance widths: that run is built directly;
 * - a word whose covered glyphs all come before a tail of plain glyphs (`user_` then digits) is shaped as
 *   its head plus as many tail glyphs as a lookup reaches forward; the rest of the tail is unchanged by
 *   the shaper. Heads repeat (`user_1`), so their shaping is kept.
 *
 * The conditions that make the result the shaper's own, glyph for glyph and unit for unit, are checked per
 * font before any shortcut is taken (no AAT `morx`, no `kern` table, no variations, no lookup that skips
 * base glyphs, the reach of every positioning lookup known); a font that fails them, and any word outside
 * the plain characters below, goes through fontkit as before. The PDF's bytes are the same either way
 * (bench/exports-digests.json checks them), so this is a cache of a pure function, not another shaper.
 * No library offers it: fontkit has no fast path of its own, and harfbuzzjs would change the output.
 */

/** The features fontkit's default shaper applies to horizontal left-to-right text (fractions aside). */
const DEFAULT_FEATURES = new Set([
  'rvrn',
  'ltra',
  'ltrm',
  'ccmp',
  'locl',
  'rlig',
  'mark',
  'mkmk',
  'calt',
  'clig',
  'liga',
  'rclt',
  'curs',
  'kern',
]);

/**
 * Runs fontkit shaped that a font keeps, at most (then the keep starts over): the words of the default
 * path repeat (names, the words of posts, column labels) across pages, where pdfkit's own cache of them
 * is emptied (see pdf.ts), and the heads of the shortcut repeat too. 2,000 runs are some 2 MB.
 */
const KEPT_RUNS = 2_000;

/** What of a fontkit glyph a run carries. */
interface Glyph {
  readonly id: number;
  readonly advanceWidth: number;
}

/** fontkit's GlyphPosition: pdfkit scales these fields in place. */
interface GlyphPosition {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}

/** fontkit's GlyphRun, as pdfkit reads it. */
interface GlyphRun {
  glyphs: Glyph[];
  positions: GlyphPosition[];
  readonly features: unknown;
  readonly script: string;
  readonly direction: string;
}

type Table = Readonly<Record<string, unknown>>;

/** The few members of a fontkit font this file calls or reads. */
export interface ShapingFont {
  layout(text: string, ...rest: unknown[]): GlyphRun;
  glyphForCodePoint(codePoint: number): Glyph;
  readonly directory?: { readonly tables?: Readonly<Record<string, unknown>> };
  readonly GSUB?: Table;
  readonly GPOS?: Table;
  readonly GDEF?: Table;
  readonly _variationProcessor?: unknown;
}

/** Thrown inside the analysis when a table is not as expected: the font then keeps fontkit's path. */
class Unsupported extends Error {}

const list = (v: unknown): readonly unknown[] => {
  if (Array.isArray(v)) return v;
  const lazy = v as { length?: number; get?: (i: number) => unknown; toArray?: () => unknown[] } | null;
  if (lazy && typeof lazy.toArray === 'function') return lazy.toArray();
  throw new Unsupported('not a list');
};
const table = (v: unknown): Table => {
  if (v && typeof v === 'object') return v as Table;
  throw new Unsupported('not a table');
};
const num = (v: unknown): number => {
  if (typeof v === 'number') return v;
  throw new Unsupported('not a number');
};

/** Adds the glyphs of an OpenType coverage table to `into`. */
function addCoverage(into: Set<number>, coverage: unknown): void {
  const c = table(coverage);
  if (c.version === 1) for (const g of list(c.glyphs)) into.add(num(g));
  else if (c.version === 2) {
    for (const r of list(c.rangeRecords)) {
      const range = table(r);
      for (let g = num(range.start); g <= num(range.end); g++) into.add(g);
    }
  } else throw new Unsupported('coverage format');
}

/** The glyph class of `id` in a class definition table (0 when unlisted), as fontkit reads it. */
function classOf(classDef: Table, id: number): number {
  if (classDef.version === 1) {
    const values = list(classDef.classValueArray);
    const i = id - num(classDef.startGlyph);
    return i >= 0 && i < values.length ? num(values[i]) : 0;
  }
  if (classDef.version === 2) {
    for (const r of list(classDef.classRangeRecord)) {
      const range = table(r);
      if (num(range.start) <= id && id <= num(range.end)) return num(range.class);
    }
    return 0;
  }
  throw new Unsupported('class definition format');
}

/** What a lookup list tells of the glyphs where its lookups start and how far they reach. */
interface LookupFacts {
  /** Glyphs at which a lookup of the default features can start. */
  readonly starts: Set<number>;
  /** Glyphs past the starting one that a lookup (with the lookups it calls) reads or moves, at most. */
  readonly reach: number;
}

/**
 * The starting glyphs and forward reach of the default features' lookups of a GSUB or GPOS table.
 * Extension lookups are unwrapped; lookups called from contextual ones count toward the reach, and must
 * not skip base glyphs either (a skip would let them reach past the counted glyphs).
 */
function lookupFacts(t: Table, kind: 'GSUB' | 'GPOS'): LookupFacts {
  if (t.featureVariations) throw new Unsupported('feature variations');
  const lookups = list(t.lookupList);
  const starts = new Set<number>();
  const extension = kind === 'GSUB' ? 7 : 9;
  const [context, chaining] = kind === 'GSUB' ? [5, 6] : [7, 8];
  const reachOf = new Map<number, number>();
  /** Forward reach of lookup `index`; with `outer`, its subtables' starting glyphs are gathered too. */
  const visit = (index: number, outer: boolean, depth: number): number => {
    if (!outer && reachOf.has(index)) return reachOf.get(index) as number;
    if (depth > 8) throw new Unsupported('nested too deep');
    const lookup = table(lookups[index]);
    const flags = table(table(lookup.flags).flags ?? {});
    if (flags.ignoreBaseGlyphs) throw new Unsupported('a lookup skips base glyphs');
    let reach = 0;
    for (const sub of list(lookup.subTables)) {
      let type = num(lookup.lookupType);
      let st = table(sub);
      if (type === extension) {
        type = num(st.lookupType);
        st = table(st.extension);
      }
      const nested = (records: unknown): number => {
        let r = 0;
        for (const rec of list(records ?? [])) {
          const record = table(rec);
          r = Math.max(r, num(record.sequenceIndex) + visit(num(record.lookupListIndex), false, depth + 1));
        }
        return r;
      };
      if (type === context || type === chaining) {
        if (st.version === 3) {
          const inputs = list(type === context ? st.coverages : st.inputCoverage);
          if (inputs.length === 0) throw new Unsupported('context without input');
          if (outer) addCoverage(starts, inputs[0]);
          const ahead = type === chaining ? list(st.lookaheadCoverage).length : 0;
          reach = Math.max(reach, inputs.length - 1 + ahead, nested(st.lookupRecords));
        } else if (st.version === 1 || st.version === 2) {
          if (outer) addCoverage(starts, st.coverage);
          const sets = list(
            type === context
              ? st.version === 1
                ? st.ruleSets
                : st.classSet
              : st.version === 1
                ? st.chainRuleSets
                : st.chainClassSet,
          );
          for (const set of sets) {
            if (!set) continue;
            for (const rule of list(set)) {
              const r = table(rule);
              const input = list(type === context && st.version === 2 ? r.classes : r.input).length;
              const ahead = type === chaining ? list(r.lookahead).length : 0;
              reach = Math.max(reach, input + ahead, nested(r.lookupRecords));
            }
          }
        } else throw new Unsupported('context format');
      } else if (kind === 'GSUB') {
        if (type < 1 || type > 4) throw new Unsupported('substitution type');
        // Only where substitutions start matters: a word with such a glyph is shaped by fontkit whole.
        if (outer) addCoverage(starts, st.coverage);
      } else {
        if (type === 1) reach = Math.max(reach, 0);
        else if (type === 2 || type === 3) reach = Math.max(reach, 1);
        else if (type < 4 || type > 6) throw new Unsupported('positioning type');
        if (outer)
          addCoverage(
            starts,
            type === 4 || type === 5 ? st.markCoverage : type === 6 ? st.mark1Coverage : st.coverage,
          );
      }
    }
    reachOf.set(index, reach);
    return reach;
  };
  for (const f of list(t.featureList)) {
    const feature = table(f);
    if (!DEFAULT_FEATURES.has(String(feature.tag))) continue;
    for (const i of list(table(feature.feature).lookupListIndexes)) visit(num(i), true, 0);
  }
  return { starts, reach: Math.max(...reachOf.values(), 0) };
}

/** What a font allows: the glyphs that start substitutions and positionings, and how far these reach. */
interface Plain {
  readonly substituted: Set<number>;
  readonly positioned: Set<number>;
  readonly reach: number;
  /** GDEF glyph classes (1 base, 2 ligature, 3 mark), when the font has them. */
  readonly classes: Table | undefined;
}

function plainFacts(font: ShapingFont): Plain | undefined {
  const tables = font.directory?.tables ?? {};
  if ('morx' in tables || 'mort' in tables || 'kern' in tables || font._variationProcessor || !font.GPOS)
    return undefined;
  try {
    const gpos = lookupFacts(font.GPOS, 'GPOS');
    const substituted = font.GSUB ? lookupFacts(font.GSUB, 'GSUB').starts : new Set<number>();
    const classes = font.GDEF?.glyphClassDef ? table(font.GDEF.glyphClassDef) : undefined;
    if (classes && classes.version !== 1 && classes.version !== 2) return undefined;
    return { substituted, positioned: gpos.starts, reach: gpos.reach, classes };
  } catch {
    // A table not as expected (Unsupported), or one fontkit fails to read: that font keeps fontkit's path,
    // which fails or not as it always did.
    return undefined;
  }
}

/**
 * Code points a shortcut may set: Latin (Basic, Latin-1, Extended-A and -B) and general punctuation,
 * without the default-ignorable soft hyphen, U+2044 (fontkit's fractions) and the bidi controls: none is a
 * combining mark or right-to-left, and all take fontkit's default shaper.
 */
function plainCodePoint(cp: number): boolean {
  return (
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0x24f && cp !== 0xad) ||
    (cp >= 0x2010 && cp <= 0x2027) ||
    (cp >= 0x2030 && cp <= 0x205e && cp !== 0x2044)
  );
}

/** ASCII other than letters: Unicode's Common script, which does not change the script fontkit detects. */
function commonAscii(cp: number): boolean {
  return cp >= 0x20 && cp <= 0x7e && !((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a));
}

const patched = new WeakSet<object>();

/**
 * Gives `font` (a fontkit font pdfkit set up) the exact shortcuts described above, once; a font whose
 * tables do not allow them is left as it is.
 */
export function plainShaping(font: ShapingFont): void {
  if (patched.has(font)) return;
  patched.add(font);
  const facts = plainFacts(font);
  if (!facts) return;
  const layout = font.layout.bind(font);
  // fontkit's own run class (an empty text shapes nothing and creates no glyph), so that a shortcut's run
  // has the shaper's `advanceWidth` and the rest of its members.
  const RunClass = layout('').constructor as new (
    glyphs: Glyph[],
    features: unknown,
    script: string,
    language: null,
    direction: string,
  ) => GlyphRun;
  /**
   * fontkit's GlyphPosition class, taken from the first run fontkit shapes (before that, no shortcut):
   * pdfkit adds a field to each position, which its class makes room for.
   */
  let PositionClass:
    | (new (
        xAdvance?: number,
        yAdvance?: number,
        xOffset?: number,
        yOffset?: number,
      ) => GlyphPosition)
    | undefined;
  const position = (xAdvance: number, yAdvance = 0, xOffset = 0, yOffset = 0): GlyphPosition =>
    new (PositionClass as NonNullable<typeof PositionClass>)(xAdvance, yAdvance, xOffset, yOffset);
  const { substituted, positioned, reach, classes } = facts;
  const kept = new Map<string, GlyphRun>();
  /** A run of `glyphs` (a copy pdfkit may keep), positioned as `from` has them, past it by advance widths. */
  const runOf = (glyphs: Glyph[], from: readonly GlyphPosition[], like?: GlyphRun): GlyphRun => {
    const positions = glyphs.map((glyph, i) => {
      const p = from[i];
      return p ? position(p.xAdvance, p.yAdvance, p.xOffset, p.yOffset) : position(glyph.advanceWidth);
    });
    const run = like
      ? new RunClass(glyphs, like.features, like.script, null, like.direction)
      : new RunClass(glyphs, [], 'latn', null, 'ltr');
    run.positions = positions;
    return run;
  };
  /**
   * fontkit's run of `text`, kept as a copy: pdfkit scales a run's positions in place, so the kept one
   * must never reach it; and fontkit's own arrays and objects must not be what is kept. Kept, they outlive
   * the young generation while fontkit makes few others (most words take the shortcut), and V8 then
   * allocates them, for every word fontkit shapes from then on, in the old generation (allocation-site
   * pretenuring), where they and what they hold stay until the next full collection: in one run out of
   * four or five the export's peak memory rose by some 40 MB (bench: 168 MB instead of 128 MB).
   * The copy is made by code of this file, whose arrays come from `map` and `slice` (no literal, so no
   * allocation site to pretenure).
   */
  const shaped = (text: string): GlyphRun => {
    let run = kept.get(text);
    if (!run) {
      const fresh = layout(text);
      PositionClass ??= fresh.positions[0]?.constructor as typeof PositionClass;
      run = runOf(fresh.glyphs.slice(), fresh.positions, fresh);
      if (kept.size >= KEPT_RUNS) kept.clear();
      kept.set(text, run);
    }
    return run;
  };
  const scratch: Glyph[] = [];
  /** Per code point: its glyph, and whether it rules a shortcut out, is plain, or starts a positioning. */
  const glyphInfo = new Map<number, { glyph: Glyph; kind: 'none' | 'plain' | 'starts' }>();
  const info = (cp: number) => {
    let known = glyphInfo.get(cp);
    if (!known) {
      const glyph = font.glyphForCodePoint(cp);
      let none: boolean;
      try {
        none = substituted.has(glyph.id) || (classes !== undefined && classOf(classes, glyph.id) > 1);
      } catch {
        none = true; // a class table fontkit would read some other way: the word goes to fontkit
      }
      known = { glyph, kind: none ? 'none' : positioned.has(glyph.id) ? 'starts' : 'plain' };
      glyphInfo.set(cp, known);
    }
    return known;
  };

  const shortcut = (text: string): GlyphRun | undefined => {
    if (text.length === 0 || !PositionClass) return undefined;
    // Every character first: a glyph looked up here is one fontkit would have looked up the same way
    // (a character before a variation selector, say, would not be).
    for (let i = 0; i < text.length; i++) if (!plainCodePoint(text.charCodeAt(i))) return undefined;
    // The glyphs are gathered in a scratch array and copied out, the positions mapped from them: a run
    // lives as long as pdfkit keeps the word, and arrays made by a literal here would all outlive the
    // young generation, which makes V8 allocate that literal in the old one (pretenuring) and the heap
    // grow by tens of MB between full collections.
    scratch.length = 0;
    // The code unit where the plain tail starts: after the last glyph a positioning can start at, and after
    // the last letter (which decides the script fontkit shapes for).
    let tailFrom = 0;
    let headPositioned = false;
    for (let i = 0; i < text.length; i++) {
      const cp = text.charCodeAt(i);
      const { glyph, kind } = info(cp);
      if (kind === 'none') return undefined;
      scratch.push(glyph);
      const starts = kind === 'starts';
      if (starts) headPositioned = true;
      if (starts || !commonAscii(cp)) tailFrom = i + 1;
    }
    let head: GlyphRun | undefined;
    if (headPositioned) {
      // The head, with the tail glyphs its lookups can reach, shaped by fontkit (and kept: heads repeat).
      const end = tailFrom + reach;
      if (end >= text.length) return undefined;
      head = shaped(text.slice(0, end));
      if (head.glyphs.length !== end) return undefined;
      for (let i = 0; i < end; i++) if (head.glyphs[i] !== scratch[i]) return undefined;
    }
    return runOf(scratch.slice(), head?.positions ?? []);
  };

  font.layout = (text: string, ...rest: unknown[]): GlyphRun => {
    if (typeof text === 'string' && (rest.length === 0 || (rest.length === 1 && rest[0] === undefined))) {
      const run = shortcut(text);
      if (run) return run;
      if (PositionClass) {
        const whole = shaped(text);
        return runOf(whole.glyphs.slice(), whole.positions, whole);
      }
    }
    const run = layout(text, ...rest);
    PositionClass ??= run.positions[0]?.constructor as typeof PositionClass;
    return run;
  };
}
