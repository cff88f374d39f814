/**
 * One export written in a process of its own, so that its peak memory is its own: `node --import tsx
 * exports-child.ts <writer> <format> <rows>` (bundled by exports.bench.ts and run by plain node) writes `<rows>` synthetic extraction rows to /dev/null and
 * prints `{ ms, cpuMs, bytes, peakMB, sha256 }` as JSON (wall and CPU time of the write). `<writer>` is `xsvc` (the server's export) or `peer` (a kept
 * library writing the same rows: csv-stringify, exceljs's streaming writer, pdfkit; for the formats no
 * library covers, JSON.stringify per row as a floor).
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportFormat } from '@xsvc/sdk/contract';
// The server's export writers alone (bundled by exports.bench.ts): importing the whole server would
// weigh its routes, drivers and contract into every figure.
import { renderExport } from '../packages/server/src/core/exports/render.js';
import { type BenchRow, benchRows, COLUMNS } from './exports-rows.js';

const [writer, format, rowsArg] = process.argv.slice(2) as ['xsvc' | 'peer', ExportFormat, string];
const count = Number(rowsArg);

/**
 * The one thing an export writes that is not its rows is the PDF's creation date (and the file id derived
 * from it): the clock is stopped at a fixed instant, so that the digest printed is the same in every run
 * and a change of the writers' bytes shows (the bench compares it with exports-digests.json). Dates made
 * from a value are untouched: the rows' own dates are made before and are strings.
 */
const FIXED_NOW = Date.UTC(2026, 0, 1);
globalThis.Date = class extends Date {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(FIXED_NOW);
    else super(...(args as [string]));
  }
  static override now(): number {
    return FIXED_NOW;
  }
} as DateConstructor;

/** A sink that counts what it is given and keeps nothing (the export's bytes go to /dev/null). */
function countingSink(): { sink: Writable; bytes: () => number; sha256: () => string } {
  let bytes = 0;
  const hash = createHash('sha256');
  const file = createWriteStream('/dev/null');
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  counter.pipe(file);
  return { sink: counter, bytes: () => bytes, sha256: () => hash.digest('hex') };
}

async function xsvc(sink: Writable): Promise<void> {
  const file = renderExport(format, {
    title: 'Extraction bench: reply_extractor',
    meta: [
      ['Job', 'bench'],
      ['Results', String(count)],
    ],
    columns: COLUMNS,
    rowCount: count,
    rows: benchRows(count),
    cells: (row) => row,
  });
  await pipeline(Readable.from(file.chunks), sink);
}

const keys = COLUMNS.map((c) => c.key);

async function csvPeer(sink: Writable): Promise<void> {
  const { stringify } = await import('csv-stringify');
  await pipeline(Readable.from(benchRows(count)), stringify({ header: true, columns: keys }), sink);
}

async function xlsxPeer(sink: Writable): Promise<void> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useSharedStrings: false,
    useStyles: false,
  });
  const sheet = book.addWorksheet('Extraction');
  sheet.addRow(keys).commit();
  for (const row of benchRows(count)) sheet.addRow(keys.map((k) => row[k])).commit();
  sheet.commit();
  await book.commit();
}

/** pdfkit on its own: the same 8 columns a page shows, one line per cell cut with an ellipsis, one font. */
async function pdfPeer(sink: Writable): Promise<void> {
  const { default: PDFDocument } = await import('pdfkit');
  const require = createRequire(import.meta.url);
  // The font the server's chain sets Latin text in (resolved through NODE_PATH, as the server's are).
  const font = require.resolve('@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff');
  const doc = new PDFDocument({ size: [792, 612], margin: 0 });
  doc.registerFont('noto', font);
  doc.font('noto').fontSize(8);
  const done = pipeline(doc, sink);
  const cols = keys.slice(0, 8);
  const width = (792 - 72) / cols.length;
  let y = 36;
  for (const row of benchRows(count)) {
    if (y + 12 > 612 - 54) {
      doc.addPage({ size: [792, 612], margin: 0 });
      y = 36;
    }
    cols.forEach((k, i) => {
      doc.text(String(row[k]).replace(/\n/g, ' '), 36 + i * width, y, {
        width: width - 6,
        height: 12,
        lineBreak: false,
        ellipsis: true,
      });
    });
    y += 12;
  }
  doc.end();
  await done;
}

/** For JSON, Markdown and text, which no kept library writes: JSON.stringify per row, a floor. */
async function floorPeer(sink: Writable): Promise<void> {
  async function* lines(): AsyncGenerator<string> {
    yield '[';
    let first = true;
    for (const row of benchRows(count)) {
      yield `${first ? '' : ','}\n${JSON.stringify(row as BenchRow)}`;
      first = false;
    }
    yield '\n]\n';
  }
  await pipeline(Readable.from(lines()), sink);
}

const { sink, bytes, sha256 } = countingSink();
const t = performance.now();
const cpu0 = process.cpuUsage();
if (writer === 'xsvc') await xsvc(sink);
else if (format === 'csv') await csvPeer(sink);
else if (format === 'xlsx') await xlsxPeer(sink);
else if (format === 'pdf') await pdfPeer(sink);
else await floorPeer(sink);
const ms = performance.now() - t;
const used = process.cpuUsage(cpu0);
const cpuMs = (used.user + used.system) / 1000;
const peakMB = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({ ms, cpuMs, bytes: bytes(), peakMB, sha256: sha256() }));
