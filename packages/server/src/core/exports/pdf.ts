import PDFDocument from 'pdfkit';
import { type FontFace, faceData } from './pdf-fonts.js';
import { type VisualRun, visualRuns } from './pdf-runs.js';
import { plainShaping, type ShapingFont } from './pdf-shaping.js';
import { cellText, type ExportTable, type Row, tableRows } from './table.js';

// US Letter, landscape, in points.
const PAGE_W = 792;
const PAGE_H = 612;
const MARGIN = 36;
const TITLE_SIZE = 14;
const META_SIZE = 9;
const SIZE = 8;
const ROW_H = 12;
const PAD = 3;
const BOTTOM = MARGIN + 18;
/** Rows measured to size the columns (read ahead, then drawn). */
const MEASURED_ROWS = 200;

/** Cuts text between user-perceived characters (one segmenter for the whole process: making one is costly). */
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Columns a page shows at most; a wider table shows its first ones (the other formats hold them all). */
export const PDF_MAX_COLUMNS = 8;

type Doc = InstanceType<typeof PDFDocument>;

/** The fontkit font of the document's current pdfkit font (pdfkit's `_font.font`). */
interface CurrentFont {
  readonly _font?: { readonly font?: ShapingFont };
}

/** What of pdfkit's font objects the page turn touches: each font's cache of shaped words. */
interface FontFamilies {
  readonly _fontFamilies?: Record<string, { layoutCache?: Record<string, unknown> }>;
}

/**
 * Empties each font's cache of shaped words at a page turn. pdfkit keeps the shaping of every distinct
 * word for the whole document, which with rows of ids, names and dates grows with the row count (some
 * 12 MB per 1,000 rows). The words that repeat are kept by the fonts' own keep of shaped runs
 * (pdf-shaping.ts), and the words of plain glyphs cost little to lay out again, so pdfkit's cache holds
 * one page's words: measured on 5,000 rows, the same CPU time as keeping 300 words across pages.
 */
function emptyShapedWords(doc: Doc): void {
  for (const font of Object.values((doc as unknown as FontFamilies)._fontFamilies ?? {})) {
    if (font.layoutCache) font.layoutCache = Object.create(null) as Record<string, unknown>;
  }
}

/** What of a pdfkit page the batching below wraps: its content stream's writer and its end. */
interface PageWriter {
  write(chunk: unknown): unknown;
  end(): unknown;
}

/** Characters of page content gathered before they are handed to the page as one buffer. */
const CONTENT_BATCH = 64 * 1024;

/**
 * Gathers what pdfkit writes to a page's content stream into large buffers. pdfkit makes a buffer of each
 * operator it writes (a few thousand per page, each `Buffer.from(operator + '\n', 'binary')`) and joins
 * them when the page ends, before compressing the whole: the same bytes gathered in a string first give
 * the same stream at a fraction of the buffers (and of their collection).
 */
function batchContent(page: PageWriter): void {
  const write = page.write.bind(page);
  const end = page.end.bind(page);
  let pending = '';
  const flush = () => {
    if (pending) write(Buffer.from(pending, 'binary'));
    pending = '';
  };
  page.write = (chunk: unknown) => {
    if (chunk instanceof Uint8Array) {
      flush();
      return write(chunk);
    }
    pending += `${chunk}\n`;
    if (pending.length >= CONTENT_BATCH) flush();
  };
  page.end = () => {
    flush();
    return end();
  };
}

/** A line of text ready to draw: its runs left to right, each with its width at the size it was set for. */
interface SetLine {
  readonly text: string;
  readonly runs: readonly (VisualRun & { readonly width: number })[];
  readonly width: number;
}

/**
 * pdfkit's writer of one line of text, which `doc.text(text, x, y, { lineBreak: false })` ends in for a
 * line without breaks, given the options `text` makes of `{ lineBreak: false }`. Called directly, it
 * writes the same operators without what `text` does around them for every cell: copying and completing
 * the options, splitting the text at line breaks, and measuring it again to move the document's cursor
 * (which this writer never reads: every line is drawn at a given point).
 */
interface FragmentWriter {
  _fragment(text: string, x: number, y: number, options: Readonly<Record<string, unknown>>): void;
}

/** The options `doc.text` hands its fragment writer for `{ lineBreak: false }` (pdfkit's `_initOptions`). */
const FRAGMENT_OPTIONS = Object.freeze({ lineBreak: false, columns: 0, columnGap: 18, rotation: 0 });

/** Printable ASCII: each character is a grapheme of its own (Unicode's segmentation rules need no pass). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Draws text with the font fallback chain and the bidi algorithm; measures it the same way. */
class Typesetter {
  private readonly registered = new Set<string>();
  /** The face and size the document is set to (it changes only through {@link use}). */
  private face: FontFace | undefined;
  private size = 0;

  constructor(private readonly doc: Doc) {}

  private use(face: FontFace, size: number): void {
    if (face === this.face && size === this.size) return;
    if (!this.registered.has(face.name)) {
      this.doc.registerFont(face.name, faceData(face));
      this.registered.add(face.name);
      this.doc.font(face.name);
      const font = (this.doc as unknown as CurrentFont)._font?.font;
      if (font) plainShaping(font);
    }
    this.doc.font(face.name).fontSize(size);
    this.face = face;
    this.size = size;
  }

  /** `text` cut into runs and measured at `size`. */
  set(text: string, size: number): SetLine {
    let width = 0;
    const runs = visualRuns(text).map((run) => {
      this.use(run.face, size);
      const w = this.doc.widthOfString(run.text);
      width += w;
      return { ...run, width: w };
    });
    return { text, runs, width };
  }

  /** Width of `text` in points at `size`. */
  width(text: string, size: number): number {
    return this.set(text, size).width;
  }

  /**
   * `text` on one line (line breaks as spaces), cut at a character boundary to fit `room` with `…`. The
   * cut is first guessed from the widths' ratio, then moved a few characters at a time: a handful of
   * measures instead of a binary search's dozen.
   */
  fit(raw: string, room: number, size: number): SetLine {
    const text = raw.replace(/[\r\n\t]+/g, ' ');
    const whole = this.set(text, size);
    if (whole.width <= room) return whole;
    const graphemes = PRINTABLE_ASCII.test(text)
      ? text.split('')
      : [...GRAPHEMES.segment(text)].map((s) => s.segment);
    const cut = (n: number) => this.set(`${graphemes.slice(0, n).join('').trimEnd()}…`, size);
    let n = Math.max(0, Math.min(graphemes.length - 1, Math.floor((graphemes.length * room) / whole.width)));
    let line = cut(n);
    while (line.width > room && n > 0) line = cut(--n);
    for (let next = cut(n + 1); n + 1 < graphemes.length && next.width <= room; next = cut(n + 1)) {
      n++;
      line = next;
    }
    return line;
  }

  /**
   * Draws a set line with its left edge at `x` and its top at `y`. Text without right-to-left characters
   * is marked with its characters as ActualText, so that extraction gives back what shaping reorders or
   * merges (Indic and Thai clusters, emoji sequences) as one piece. Right-to-left text is left to the
   * glyphs' own Unicode mapping: extractors reorder it from visual order themselves, and would turn a
   * logical ActualText around.
   */
  draw(line: SetLine, x: number, y: number, size: number): void {
    const actual = !line.runs.some((r) => r.rtl);
    if (actual) this.doc.markContent('Span', { actual: line.text });
    let at = x;
    for (const run of line.runs) {
      this.use(run.face, size);
      (this.doc as unknown as FragmentWriter)._fragment(run.text, at, y, FRAGMENT_OPTIONS);
      at += run.width;
    }
    if (actual) this.doc.endMarkedContent();
  }
}

/** The table a page can show: its first {@link PDF_MAX_COLUMNS} columns, the cut noted among the facts. */
function narrowed<T>(table: ExportTable<T>): ExportTable<T> {
  const hidden = table.columns.length - PDF_MAX_COLUMNS;
  if (hidden <= 0) return table;
  return {
    ...table,
    columns: table.columns.slice(0, PDF_MAX_COLUMNS),
    meta: [...table.meta, ['Columns', `${hidden} more in the CSV, XLSX and JSON exports`]],
  };
}

/**
 * Column widths: each column's widest text among the first rows (at most half the page), at least its
 * label; when they are too wide together, each gives up the same share of its width beyond its label.
 */
function columnWidths<T>(table: ExportTable<T>, sample: readonly Row[], ts: Typesetter): number[] {
  const room = PAGE_W - 2 * MARGIN;
  const fair = room / Math.max(1, table.columns.length);
  // A column is never narrower than its label (nor than 24 points), as far as the page allows.
  const mins = table.columns.map((c) => Math.min(fair, Math.max(24, ts.width(c.label, SIZE) + 2 * PAD + 1)));
  const natural = table.columns.map((c, i) => {
    let w = 0;
    for (const row of sample) w = Math.max(w, ts.width(cellText(row[c.key]).slice(0, 200), SIZE));
    return Math.max(mins[i] as number, Math.min(w, room / 2) + 2 * PAD);
  });
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= room) return natural;
  // Too wide: every column keeps its minimum and gives up the same share of what it has beyond it.
  const floor = mins.reduce((a, b) => a + b, 0);
  const k = (room - floor) / (total - floor);
  return natural.map((w, i) => (mins[i] as number) + (w - (mins[i] as number)) * k);
}

/** Where the first page's table starts, below the title and the facts. */
function firstTableTop(metaLines: number): number {
  return MARGIN + TITLE_SIZE + 6 + metaLines * (META_SIZE + 3) + 8;
}

/** How many pages `rowCount` rows take (known before drawing, for the "Page n of m" footers). */
function pageCount(rowCount: number, metaLines: number): number {
  const perPage = (top: number) => Math.max(1, Math.floor((PAGE_H - BOTTOM - top - ROW_H) / ROW_H) + 1);
  const first = perPage(firstTableTop(metaLines));
  if (rowCount <= first) return 1;
  return 1 + Math.ceil((rowCount - first) / perPage(MARGIN));
}

/**
 * The table as a PDF (pdfkit): landscape Letter pages, the title and facts on the first, the header row
 * repeated on each page, "Page n of m" at the foot; at most {@link PDF_MAX_COLUMNS} columns, each cell on
 * one line cut to its column with `…`. Text in any script is kept: each character is set in the first face
 * of the Noto fallback chain that has it (embedded as subsets), right-to-left text in bidi order.
 * Streams: each page is handed on as soon as it is complete, so memory stays flat however many rows.
 */
export async function* pdfChunks<T>(wide: ExportTable<T>): AsyncGenerator<Buffer> {
  const table = narrowed(wide);
  const doc = new PDFDocument({
    size: [PAGE_W, PAGE_H],
    margin: 0,
    info: { Title: table.title, Producer: 'xsvc-server', Creator: 'xsvc-server' },
  });
  batchContent(doc.page as unknown as PageWriter);
  doc.on('pageAdded', () => batchContent(doc.page as unknown as PageWriter));
  // Read in paused mode: what the document has written so far, taken synchronously.
  const take = (): Buffer => {
    const out: Buffer[] = [];
    for (let c = doc.read() as Buffer | null; c !== null; c = doc.read() as Buffer | null) out.push(c);
    return Buffer.concat(out);
  };
  const ts = new Typesetter(doc);
  const rows = tableRows(table);
  const sample: Row[] = [];
  for (let r = await rows.next(); ; r = await rows.next()) {
    if (r.done) break;
    sample.push(r.value);
    if (sample.length >= MEASURED_ROWS) break;
  }
  const widths = columnWidths(table, sample, ts);
  // The measuring above filled pdfkit's word cache with the words of all the rows read ahead: emptied
  // before the first page, as at every page turn. Kept, they are what the young generation holds when
  // V8's first full collection comes (about then), and the allocation sites that made them are judged
  // long-lived from it: every later word's objects would then be made in the old generation, whose
  // garbage stays until the next full collection (one run out of four or five peaked 40 MB higher).
  emptyShapedWords(doc);
  const xs = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const pages = pageCount(table.rowCount, table.meta.length);
  let page = 1;
  const footer = () => {
    const line = ts.set(`Page ${page} of ${pages}`, SIZE);
    ts.draw(line, PAGE_W - MARGIN - line.width, PAGE_H - MARGIN / 2 - SIZE, SIZE);
  };
  let y = MARGIN;
  ts.draw(ts.fit(table.title, PAGE_W - 2 * MARGIN, TITLE_SIZE), MARGIN, y, TITLE_SIZE);
  y += TITLE_SIZE + 6;
  for (const [label, value] of table.meta) {
    ts.draw(ts.fit(`${label}: ${value}`, PAGE_W - 2 * MARGIN, META_SIZE), MARGIN, y, META_SIZE);
    y += META_SIZE + 3;
  }
  y += 8;
  const header = () => {
    table.columns.forEach((c, i) => {
      ts.draw(ts.fit(c.label, (widths[i] as number) - 2 * PAD, SIZE), (xs[i] as number) + PAD, y, SIZE);
    });
    doc
      .lineWidth(0.5)
      .moveTo(MARGIN, y + SIZE + 2)
      .lineTo(PAGE_W - MARGIN, y + SIZE + 2)
      .stroke();
    y += ROW_H;
  };
  header();
  /** Draws a row, on a new page when this one is full; true when a page was completed. */
  const drawRow = (row: Row): boolean => {
    let turned = false;
    if (y + ROW_H > PAGE_H - BOTTOM) {
      turned = true;
      footer();
      emptyShapedWords(doc);
      doc.addPage({ size: [PAGE_W, PAGE_H], margin: 0 });
      page++;
      y = MARGIN;
      header();
    }
    table.columns.forEach((c, i) => {
      const text = cellText(row[c.key]);
      if (text)
        ts.draw(ts.fit(text, (widths[i] as number) - 2 * PAD, SIZE), (xs[i] as number) + PAD, y, SIZE);
    });
    y += ROW_H;
    return turned;
  };
  if (table.rowCount === 0 && sample.length === 0) ts.draw(ts.set('(no rows)', SIZE), MARGIN + PAD, y, SIZE);
  for (const row of sample) drawRow(row);
  for (let r = await rows.next(); !r.done; r = await rows.next()) {
    if (drawRow(r.value)) yield take();
  }
  footer();
  doc.end();
  yield take();
}
