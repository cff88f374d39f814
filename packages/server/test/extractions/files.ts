import { inflateRawSync } from 'node:zlib';
import { crc32 } from '../../src/features/exports/zip.js';

/** Reads a ZIP archive back (central directory first, as unzip does), checking every CRC. */
export function unzip(archive: Buffer): Map<string, string> {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('no end of central directory');
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const files = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = archive.readUInt16LE(at + 10);
    const crc = archive.readUInt32LE(at + 16);
    const packed = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const extra = archive.readUInt16LE(at + 30);
    const comment = archive.readUInt16LE(at + 32);
    const local = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (archive.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad local header of ${name}`);
    const dataAt = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const raw = archive.subarray(dataAt, dataAt + packed);
    const data = method === 8 ? inflateRawSync(raw) : raw;
    if (data.length !== size || crc32(data) !== crc) throw new Error(`bad size or CRC of ${name}`);
    files.set(name, data.toString('utf8'));
    at += 46 + nameLength + extra + comment;
  }
  return files;
}

/** The cell texts of the sheet of an XLSX workbook, row by row (inline strings, numbers and booleans). */
export function readXlsx(file: Buffer): string[][] {
  const parts = unzip(file);
  for (const name of [
    '[Content_Types].xml',
    '_rels/.rels',
    'xl/workbook.xml',
    'xl/_rels/workbook.xml.rels',
  ]) {
    if (!parts.has(name)) throw new Error(`missing part ${name}`);
  }
  const sheet = parts.get('xl/worksheets/sheet1.xml') ?? '';
  const xmlUnescape = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  return [...sheet.matchAll(/<row r="\d+">(.*?)<\/row>/gs)].map((row) =>
    [...(row[1] ?? '').matchAll(/<c r="[A-Z]+\d+"(?: t="(\w+)")?>(.*?)<\/c>/gs)].map((c) => {
      const inner = c[2] ?? '';
      if (c[1] === 'inlineStr') return xmlUnescape(/<t[^>]*>(.*?)<\/t>/s.exec(inner)?.[1] ?? '');
      const v = /<v>(.*?)<\/v>/.exec(inner)?.[1] ?? '';
      return c[1] === 'b' ? (v === '1' ? 'true' : 'false') : v;
    }),
  );
}

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF records). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length) rows.push([...row, field]);
  return rows;
}

/**
 * Checks a PDF's structure: header, every xref offset pointing at its `n 0 obj`, the trailer and
 * `startxref`; returns its page count and the text shown (the `Tj` strings, unescaped).
 */
export function readPdf(file: Buffer): { pages: number; text: string } {
  const s = file.toString('latin1');
  if (!s.startsWith('%PDF-1.4\n')) throw new Error('no PDF 1.4 header');
  if (!s.trimEnd().endsWith('%%EOF')) throw new Error('no %%EOF');
  const startxref = Number(/startxref\n(\d+)\n%%EOF\s*$/.exec(s)?.[1]);
  if (s.slice(startxref, startxref + 5) !== 'xref\n') throw new Error('startxref does not point at xref');
  const head = /^xref\n0 (\d+)\n/.exec(s.slice(startxref));
  const size = Number(head?.[1]);
  const entries = s
    .slice(startxref + (head?.[0].length ?? 0))
    .split('\n')
    .slice(0, size);
  entries.forEach((line, n) => {
    if (n === 0) return;
    const offset = Number(line.slice(0, 10));
    if (!s.startsWith(`${n} 0 obj\n`, offset)) throw new Error(`xref entry ${n} points at the wrong place`);
  });
  const trailer = /trailer\n<< \/Size (\d+) \/Root 1 0 R/.exec(s);
  if (Number(trailer?.[1]) !== size) throw new Error('trailer /Size does not match xref');
  for (const m of s.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
    const start = (m.index ?? 0) + m[0].length;
    if (s.slice(start + Number(m[1]), start + Number(m[1]) + 10) !== '\nendstream') {
      throw new Error('stream /Length is wrong');
    }
  }
  const pages = Number(/\/Type \/Pages \/Kids \[[^\]]*\] \/Count (\d+)/.exec(s)?.[1]);
  const text = [...s.matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)]
    .map((m) => (m[1] ?? '').replace(/\\(.)/g, '$1'))
    .join('\n');
  return { pages, text };
}
