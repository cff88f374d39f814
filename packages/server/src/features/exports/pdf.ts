import { fitText, pdfLiteral, textWidth, winAnsi } from './pdf-text.js';
import { cellText, type ExportTable } from './table.js';

// US Letter, landscape, in points.
const PAGE_W = 792;
const PAGE_H = 612;
const MARGIN = 36;
const TITLE_SIZE = 14;
const META_SIZE = 9;
const ROW_H = 12;
const PAD = 3;
/** Rows measured to size the columns. */
const MEASURED_ROWS = 200;

/** One drawn page: its content stream. */
type PageOps = string[];

function text(x: number, y: number, font: 'F1' | 'F2', size: number, bytes: string): string {
  return `BT /${font} ${size} Tf 1 0 0 1 ${x.toFixed(2)} ${y.toFixed(2)} Tm ${pdfLiteral(bytes)} Tj ET`;
}

function rule(y: number): string {
  return `0.5 w ${MARGIN} ${y.toFixed(2)} m ${PAGE_W - MARGIN} ${y.toFixed(2)} l S`;
}

/**
 * Column widths: each column's widest text among the header and the first rows, scaled down together to
 * fit the page (no column under 24 points).
 */
function columnWidths(table: ExportTable, size: number): number[] {
  const room = PAGE_W - 2 * MARGIN;
  const natural = table.columns.map((c) => {
    let w = textWidth(winAnsi(c.label), size, true);
    for (const row of table.rows.slice(0, MEASURED_ROWS)) {
      w = Math.max(w, textWidth(winAnsi(cellText(row[c.key])), size));
    }
    return Math.min(w, room / 2) + 2 * PAD;
  });
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= room) return natural;
  const min = Math.min(24, room / Math.max(1, natural.length));
  const widths = natural.map((w) => Math.max(min, (w * room) / total));
  const scale = room / widths.reduce((a, b) => a + b, 0);
  return widths.map((w) => w * scale);
}

/** Columns a page shows at most; a wider table shows its first ones (the other formats hold them all). */
export const PDF_MAX_COLUMNS = 8;

/** The table a page can show: its first {@link PDF_MAX_COLUMNS} columns, the cut noted among the facts. */
function narrowed(table: ExportTable): ExportTable {
  const hidden = table.columns.length - PDF_MAX_COLUMNS;
  if (hidden <= 0) return table;
  return {
    ...table,
    columns: table.columns.slice(0, PDF_MAX_COLUMNS),
    meta: [...table.meta, ['Columns', `${hidden} more in the CSV, XLSX and JSON exports`]],
  };
}

/** Lays the table out on pages: title and facts on the first, the header row repeated on every page. */
function layout(wide: ExportTable): PageOps[] {
  const table = narrowed(wide);
  const size = 8;
  const widths = columnWidths(table, size);
  const xs = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const bottom = MARGIN + 18;
  const pages: PageOps[] = [];
  let ops: PageOps = [];
  let y = PAGE_H - MARGIN - TITLE_SIZE;
  ops.push(
    text(MARGIN, y, 'F2', TITLE_SIZE, fitText(winAnsi(table.title), PAGE_W - 2 * MARGIN, TITLE_SIZE, true)),
  );
  y -= TITLE_SIZE;
  for (const [label, value] of table.meta) {
    const line = fitText(winAnsi(`${label}: ${value}`), PAGE_W - 2 * MARGIN, META_SIZE);
    ops.push(text(MARGIN, y, 'F1', META_SIZE, line));
    y -= META_SIZE + 3;
  }
  y -= 6;
  const header = () => {
    table.columns.forEach((c, i) => {
      const label = fitText(winAnsi(c.label), (widths[i] as number) - 2 * PAD, size, true);
      ops.push(text((xs[i] as number) + PAD, y, 'F2', size, label));
    });
    ops.push(rule(y - 3));
    y -= ROW_H;
  };
  header();
  if (table.rows.length === 0) ops.push(text(MARGIN + PAD, y, 'F1', size, '(no rows)'));
  for (const row of table.rows) {
    if (y < bottom) {
      pages.push(ops);
      ops = [];
      y = PAGE_H - MARGIN - size;
      header();
    }
    table.columns.forEach((c, i) => {
      const cell = fitText(winAnsi(cellText(row[c.key])), (widths[i] as number) - 2 * PAD, size);
      if (cell) ops.push(text((xs[i] as number) + PAD, y, 'F1', size, cell));
    });
    y -= ROW_H;
  }
  pages.push(ops);
  return pages;
}

/**
 * The table as a PDF 1.4 document: Helvetica (a standard font, nothing embedded), landscape Letter pages,
 * the header row repeated on each page, page numbers at the foot; at most {@link PDF_MAX_COLUMNS} columns,
 * cells cut to their column with `...`. Streams are left uncompressed. Text outside WinAnsi (non-Latin
 * scripts, emoji) is shown as `?`.
 */
export function toPdf(table: ExportTable): Buffer {
  const pages = layout(table);
  const objects: string[] = [];
  const pageRefs: string[] = [];
  const firstPage = 5;
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  pages.forEach((ops, i) => {
    const pageObj = firstPage + 2 * i;
    const footer = `Page ${i + 1} of ${pages.length}`;
    const content = [...ops, text(PAGE_W - MARGIN - textWidth(footer, 8), MARGIN / 2, 'F1', 8, footer)].join(
      '\n',
    );
    pageRefs.push(`${pageObj} 0 R`);
    objects[pageObj] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageObj + 1} 0 R >>`;
    objects[pageObj + 1] =
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });
  objects[2] = `<< /Type /Pages /Kids [${pageRefs.join(' ')}] /Count ${pages.length} >>`;
  const info = objects.length;
  objects[info] = `<< /Title ${pdfLiteral(winAnsi(table.title))} /Producer (xsvc-server) >>`;

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let n = 1; n < objects.length; n++) {
    offsets[n] = Buffer.byteLength(out, 'latin1');
    out += `${n} 0 obj\n${objects[n]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let n = 1; n < objects.length; n++) out += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${info} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
