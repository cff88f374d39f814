import { inflateSync } from 'node:zlib';

/**
 * A WOFF 1.0 font (W3C WOFF File Format 1.0) as the plain OpenType/TrueType file it wraps: each table
 * inflated (zlib, natively) and laid out again behind an sfnt table directory. The PDF library could read
 * the WOFF itself, but it inflates with a JavaScript inflater, which cost more than the rest of a
 * 100-row export; decoded once, a face is kept for every later export.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) throw new TypeError('not a WOFF 1.0 font');
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables: { tag: number; checksum: number; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    const at = 44 + i * 20;
    const offset = woff.readUInt32BE(at + 4);
    const packed = woff.readUInt32BE(at + 8);
    const size = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + packed);
    tables.push({
      tag: woff.readUInt32BE(at),
      checksum: woff.readUInt32BE(at + 16),
      data: packed < size ? inflateSync(raw) : raw,
    });
  }
  // The sfnt header's binary-search fields (OpenType spec, "Table directory").
  const maxPow2 = 2 ** Math.floor(Math.log2(Math.max(1, count)));
  const head = Buffer.alloc(12 + 16 * count);
  head.writeUInt32BE(flavor, 0);
  head.writeUInt16BE(count, 4);
  head.writeUInt16BE(maxPow2 * 16, 6);
  head.writeUInt16BE(Math.log2(maxPow2), 8);
  head.writeUInt16BE(count * 16 - maxPow2 * 16, 10);
  const parts: Buffer[] = [head];
  let offset = head.length;
  tables.forEach((t, i) => {
    const at = 12 + i * 16;
    head.writeUInt32BE(t.tag, at);
    head.writeUInt32BE(t.checksum, at + 4);
    head.writeUInt32BE(offset, at + 8);
    head.writeUInt32BE(t.data.length, at + 12);
    const pad = (4 - (t.data.length % 4)) % 4;
    parts.push(t.data, Buffer.alloc(pad));
    offset += t.data.length + pad;
  });
  return Buffer.concat(parts);
}
