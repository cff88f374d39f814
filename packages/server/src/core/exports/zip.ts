import { once } from 'node:events';
import * as zlib from 'node:zlib';

/** A file to put in a ZIP archive: its name and its bytes, whole or as a stream of chunks. */
export interface ZipEntry {
  readonly name: string;
  readonly data: Buffer | AsyncIterable<Buffer>;
  /**
   * Given each chunk of `data` once the archive is done with it (deflated: it is no longer read), so that
   * its writer may fill the chunk's memory again.
   */
  readonly recycle?: (chunk: Buffer) => void;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * The CRC-32 (IEEE 802.3) of `data`, continuing from `value` (the CRC of what came before), as ZIP records it.
 * The archive takes its entries' CRCs from the deflater (see {@link deflated}); this is their independent
 * statement, which the tests hold them to.
 */
export function crc32(data: Uint8Array, value = 0): number {
  // Node 20.15+ computes it natively; the table is for older Node 20 releases.
  if (typeof zlib.crc32 === 'function') return zlib.crc32(data, value);
  let c = (value ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++)
    c = (CRC_TABLE[(c ^ (data[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// 1980-01-01 00:00, the earliest DOS date: archives of the same content are byte-identical.
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
/** General purpose flags: sizes and CRC in a data descriptor after the data (bit 3), UTF-8 names (bit 11). */
const FLAGS = 0x0808;
const U32_MAX = 0xffffffff;

/** Limits past which the archive switches to ZIP64 records (overridable so that tests reach them). */
export interface Zip64Limits {
  /** Largest size or offset a 32-bit field holds. */
  readonly size: number;
  /** Most entries the 16-bit count of the end record holds. */
  readonly entries: number;
}

const ZIP_LIMITS: Zip64Limits = { size: U32_MAX - 1, entries: 0xfffe };

/**
 * Deflate level of the entries: 3 packs extraction sheets within some 10% of level 6 at about half its
 * time (measured on 100,000-row sheets); the deflater runs on libuv's thread pool, beside the XML writer.
 */
const LEVEL = 3;

/**
 * Bytes of the deflater's output buffer: its output for a 1 MiB sheet chunk (some 100 KiB) fits several
 * times, so that a chunk takes one trip to the thread pool (a full output buffer takes another).
 */
const OUT_BYTES = 1024 * 1024;
/** Entries given whole up to this size are deflated at once on the writer's thread. */
const SMALL = 64 * 1024;
/** zlib's gzip header (no name, no extra field) and trailer (CRC-32 and size mod 2^32, little-endian). */
const GZIP_HEAD = 10;
const GZIP_TRAILER = 8;

interface Written {
  name: Buffer;
  crc: number;
  packed: number;
  size: number;
  offset: number;
}

/**
 * The entry's bytes as one raw deflate stream, their CRC and size set in `w`. The deflater runs on libuv's
 * thread pool beside the writer: each chunk is handed to it as soon as it is written, and the next one is
 * written while it deflates (one chunk in flight: the writer waits only when the deflater has not finished
 * the one before); a chunk it has taken in goes to `recycle`. Its output is handed on as it comes, as fast
 * as it is read. Deflate's output does not depend on how its input is cut, so the archive's bytes are
 * those of one deflate call on the whole entry.
 *
 * The deflater writes gzip, whose body is that raw deflate stream (the wrapper changes none of its bytes)
 * and whose trailer holds the CRC-32 ZIP records: the CRC is computed on the thread pool as the input is
 * read, not on the writer's thread. The 10-byte header is dropped and the trailer read off the end.
 *
 * (Formerly a stream pipeline, `Readable.from(source)` into the deflater and its output read with
 * `for await`: the writer stood idle some 20% of the time, waiting on the streams' turns.)
 */
async function* deflated(
  data: Buffer | AsyncIterable<Buffer>,
  w: Written,
  recycle?: (chunk: Buffer) => void,
): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(data) && data.length <= SMALL) {
    // A small part at once, on this thread: a trip to the thread pool would cost more than its deflate.
    const gzip = zlib.gzipSync(data, { level: LEVEL });
    w.size = data.length;
    w.crc = gzip.readUInt32LE(gzip.length - GZIP_TRAILER);
    yield gzip.subarray(GZIP_HEAD, gzip.length - GZIP_TRAILER);
    return;
  }
  const z = zlib.createGzip({ level: LEVEL, chunkSize: OUT_BYTES });
  const out: Buffer[] = [];
  let failure: Error | undefined;
  let busy = false;
  let wake: (() => void) | undefined;
  const settle = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  // The output, less the gzip header, one piece behind: the last piece holds the trailer (pieces of
  // under 8 bytes are joined to the one before, so that the trailer is never split).
  let head = GZIP_HEAD;
  let held: Buffer | undefined;
  z.on('data', (piece: Buffer) => {
    if (head > 0) {
      const cut = Math.min(head, piece.length);
      head -= cut;
      piece = piece.subarray(cut);
      if (piece.length === 0) return;
    }
    if (!held) held = piece;
    else if (piece.length < GZIP_TRAILER) held = Buffer.concat([held, piece]);
    else {
      out.push(held);
      held = piece;
    }
  });
  // A failed deflater may never call back the write in flight: its error wakes the writer too.
  z.on('error', (error: Error) => {
    failure = error;
    settle();
  });
  /** Until the deflater has taken in the chunk in flight (or failed). */
  const idle = () =>
    busy && !failure ? new Promise<void>((resolve) => (wake = resolve)) : Promise.resolve();
  try {
    for await (const chunk of Buffer.isBuffer(data) ? [data] : data) {
      if (chunk.length === 0) continue;
      await idle();
      if (failure) throw failure;
      w.size += chunk.length;
      busy = true;
      z.write(chunk, () => {
        busy = false;
        recycle?.(chunk);
        settle();
      });
      while (out.length) yield out.shift() as Buffer;
    }
    await idle();
    if (failure) throw failure;
    const ended = once(z, 'end');
    z.end();
    await ended;
    while (out.length) yield out.shift() as Buffer;
    const last = held as Buffer;
    if (last.length > GZIP_TRAILER) yield last.subarray(0, last.length - GZIP_TRAILER);
    const trailer = last.subarray(last.length - GZIP_TRAILER);
    if (trailer.length !== GZIP_TRAILER || trailer.readUInt32LE(4) !== w.size % 2 ** 32)
      throw new Error(`deflate of ${w.name.toString('utf8')}: the gzip trailer does not match the entry`);
    w.crc = trailer.readUInt32LE(0);
  } finally {
    // An early stop of the reader (or a failure) ends the deflater too.
    z.destroy();
  }
}

function localHeader(name: Buffer): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
  h.writeUInt16LE(FLAGS, 6);
  h.writeUInt16LE(8, 8);
  h.writeUInt16LE(DOS_TIME, 10);
  h.writeUInt16LE(DOS_DATE, 12);
  // CRC and sizes: 0 here, given in the data descriptor.
  h.writeUInt16LE(name.length, 26);
  return Buffer.concat([h, name]);
}

/** The data descriptor: 32-bit sizes, or 64-bit ones once an entry outgrows them (as Go's archive/zip does). */
function dataDescriptor(w: Written, limits: Zip64Limits): Buffer {
  const wide = w.packed > limits.size || w.size > limits.size;
  const d = Buffer.alloc(wide ? 24 : 16);
  d.writeUInt32LE(0x08074b50, 0);
  d.writeUInt32LE(w.crc, 4);
  if (wide) {
    d.writeBigUInt64LE(BigInt(w.packed), 8);
    d.writeBigUInt64LE(BigInt(w.size), 16);
  } else {
    d.writeUInt32LE(w.packed, 8);
    d.writeUInt32LE(w.size, 12);
  }
  return d;
}

/** A central directory record, with a ZIP64 extra field holding whichever values outgrow 32 bits. */
function centralRecord(w: Written, limits: Zip64Limits): Buffer {
  const extra: bigint[] = [];
  const big = (v: number) => v > limits.size;
  if (big(w.size)) extra.push(BigInt(w.size));
  if (big(w.packed)) extra.push(BigInt(w.packed));
  if (big(w.offset)) extra.push(BigInt(w.offset));
  const ext = Buffer.alloc(extra.length ? 4 + 8 * extra.length : 0);
  if (extra.length) {
    ext.writeUInt16LE(0x0001, 0);
    ext.writeUInt16LE(8 * extra.length, 2);
    extra.forEach((v, i) => {
      ext.writeBigUInt64LE(v, 4 + 8 * i);
    });
  }
  const d = Buffer.alloc(46);
  d.writeUInt32LE(0x02014b50, 0);
  d.writeUInt16LE(extra.length ? 45 : 20, 4); // made by: 4.5 (ZIP64) or 2.0
  d.writeUInt16LE(extra.length ? 45 : 20, 6);
  d.writeUInt16LE(FLAGS, 8);
  d.writeUInt16LE(8, 10);
  d.writeUInt16LE(DOS_TIME, 12);
  d.writeUInt16LE(DOS_DATE, 14);
  d.writeUInt32LE(w.crc, 16);
  d.writeUInt32LE(big(w.packed) ? U32_MAX : w.packed, 20);
  d.writeUInt32LE(big(w.size) ? U32_MAX : w.size, 24);
  d.writeUInt16LE(w.name.length, 28);
  d.writeUInt16LE(ext.length, 30);
  // comment length, disk number, internal and external attributes: 0
  d.writeUInt32LE(big(w.offset) ? U32_MAX : w.offset, 42);
  return Buffer.concat([d, w.name, ext]);
}

/** The end records: ZIP64 end record and locator first when a count, size or offset outgrows its field. */
function endRecords(count: number, dirSize: number, dirOffset: number, limits: Zip64Limits): Buffer {
  const zip64 = count > limits.entries || dirSize > limits.size || dirOffset > limits.size;
  const parts: Buffer[] = [];
  if (zip64) {
    const r = Buffer.alloc(56);
    r.writeUInt32LE(0x06064b50, 0);
    r.writeBigUInt64LE(44n, 4); // size of the rest of this record
    r.writeUInt16LE(45, 12);
    r.writeUInt16LE(45, 14);
    r.writeBigUInt64LE(BigInt(count), 24);
    r.writeBigUInt64LE(BigInt(count), 32);
    r.writeBigUInt64LE(BigInt(dirSize), 40);
    r.writeBigUInt64LE(BigInt(dirOffset), 48);
    const loc = Buffer.alloc(20);
    loc.writeUInt32LE(0x07064b50, 0);
    loc.writeBigUInt64LE(BigInt(dirOffset + dirSize), 8);
    loc.writeUInt32LE(1, 16);
    parts.push(r, loc);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? 0xffff : count, 8);
  end.writeUInt16LE(zip64 ? 0xffff : count, 10);
  end.writeUInt32LE(zip64 ? U32_MAX : dirSize, 12);
  end.writeUInt32LE(zip64 ? U32_MAX : dirOffset, 16);
  parts.push(end);
  return Buffer.concat(parts);
}

/**
 * A ZIP archive (PKWARE APPNOTE 6.3) of `entries`, written as it goes: each entry is deflated a chunk at
 * a time and followed by a data descriptor, so neither an entry nor the archive is ever held whole. Past
 * 4 GiB (or 65,534 entries) the records switch to ZIP64.
 */
export async function* zipStream(
  entries: readonly ZipEntry[],
  limits: Zip64Limits = ZIP_LIMITS,
): AsyncGenerator<Buffer> {
  const written: Written[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const header = localHeader(name);
    yield header;
    const w: Written = { name, crc: 0, packed: 0, size: 0, offset };
    offset += header.length;
    for await (const packed of deflated(entry.data, w, entry.recycle)) {
      w.packed += packed.length;
      yield packed;
    }
    const descriptor = dataDescriptor(w, limits);
    yield descriptor;
    offset += w.packed + descriptor.length;
    written.push(w);
  }
  const dir = Buffer.concat(written.map((w) => centralRecord(w, limits)));
  yield dir;
  yield endRecords(written.length, dir.length, offset, limits);
}
