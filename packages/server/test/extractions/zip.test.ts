/**
 * The streaming ZIP writer under the XLSX export, read back by an independent reader (Python's zipfile,
 * which checks every CRC), in its plain form and in its ZIP64 form. ZIP64 starts past 4 GiB or 65,534
 * entries; the limits are lowered here so that the ZIP64 records are written and read on small archives.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { crc32, zipStream } from '../../src/core/exports/zip.js';

const READER = `
import io, json, sys, zipfile
z = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))
bad = z.testzip()
print(json.dumps({"bad": bad, "files": [[i.filename, i.file_size, i.CRC, z.read(i).decode("utf-8")] for i in z.infolist()]}))
`;

interface Read {
  bad: string | null;
  files: [string, number, number, string][];
}

function readZip(file: Buffer): Read {
  return JSON.parse(
    execFileSync('python3', ['-c', READER], { input: file, maxBuffer: 64 * 1024 * 1024 }).toString('utf8'),
  ) as Read;
}

async function zipOf(limits?: { size: number; entries: number }): Promise<Buffer> {
  async function* streamed(): AsyncGenerator<Buffer> {
    for (let i = 0; i < 50; i++) yield Buffer.from(`<row r="${i}">山田 🎉 ${'x'.repeat(i)}</row>`);
  }
  const parts: Buffer[] = [];
  const entries = [
    { name: 'a.txt', data: Buffer.from('hello, zip') },
    { name: 'dir/ünï.xml', data: streamed() },
    { name: 'empty', data: Buffer.alloc(0) },
  ];
  for await (const chunk of zipStream(entries, limits)) parts.push(chunk);
  return Buffer.concat(parts);
}

const expected = () => {
  let rows = '';
  for (let i = 0; i < 50; i++) rows += `<row r="${i}">山田 🎉 ${'x'.repeat(i)}</row>`;
  return [
    ['a.txt', 'hello, zip'],
    ['dir/ünï.xml', rows],
    ['empty', ''],
  ];
};

/** Whether `file` holds the ZIP64 end of central directory record and its locator. */
const hasZip64End = (file: Buffer) =>
  file.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06])) &&
  file.includes(Buffer.from([0x50, 0x4b, 0x06, 0x07]));

describe('streaming ZIP writer', () => {
  it('writes an archive an independent reader opens, every CRC right, no ZIP64 records when small', async () => {
    const file = await zipOf();
    const read = readZip(file);
    expect(read.bad).toBeNull();
    expect(read.files.map(([n, , , t]) => [n, t])).toEqual(expected());
    for (const [, size, crc, text] of read.files) {
      expect(size).toBe(Buffer.byteLength(text));
      expect(crc).toBe(crc32(Buffer.from(text)));
    }
    expect(hasZip64End(file)).toBe(false);
  });

  it('switches to ZIP64 records past its limits (sizes, offsets and the entry count), still read back whole', async () => {
    // Every size and offset past 64 bytes and more than one entry: the ZIP64 extra fields, the 64-bit
    // data descriptors and the ZIP64 end records are all written.
    const file = await zipOf({ size: 64, entries: 1 });
    expect(hasZip64End(file)).toBe(true);
    // The classic end record says "look in the ZIP64 one": counts 0xFFFF, size and offset 0xFFFFFFFF.
    const end = file.subarray(file.length - 22);
    expect(end.readUInt32LE(0)).toBe(0x06054b50);
    expect(end.readUInt16LE(10)).toBe(0xffff);
    expect(end.readUInt32LE(16)).toBe(0xffffffff);
    const read = readZip(file);
    expect(read.bad).toBeNull();
    expect(read.files.map(([n, , , t]) => [n, t])).toEqual(expected());
  });

  it('hands each chunk of an entry back once deflated: a writer refilling it at once changes nothing written', async () => {
    // The writer reuses a handed-back chunk's memory for its next one, as the XLSX sheet does: were a chunk
    // handed back while the deflater still read it, the archive would hold the later chunk's bytes.
    const spare: Buffer[] = [];
    let handedBack = 0;
    let expected = '';
    async function* reused(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 40; i++) {
        const chunk = spare.pop() ?? Buffer.alloc(64 * 1024);
        chunk.fill(`chunk ${i}, row ${i * 7};`);
        expected += chunk.toString('latin1');
        yield chunk;
      }
    }
    const parts: Buffer[] = [];
    const entries = [
      {
        name: 'big.txt',
        data: reused(),
        recycle: (chunk: Buffer) => {
          handedBack++;
          spare.push(chunk);
        },
      },
    ];
    for await (const part of zipStream(entries)) parts.push(part);
    const read = readZip(Buffer.concat(parts));
    expect(read.bad).toBeNull();
    expect(read.files[0]?.[3] === expected).toBe(true);
    expect(read.files[0]?.[2]).toBe(crc32(Buffer.from(expected, 'latin1')));
    expect(handedBack).toBe(40);
  });

  it('computes the CRC-32 ZIP records (IEEE), also across chunks', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.from('6789'), crc32(Buffer.from('12345')))).toBe(0xcbf43926);
  });
});
