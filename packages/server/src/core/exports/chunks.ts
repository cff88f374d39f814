/** Characters a writer gathers before handing a chunk on: large enough to keep per-chunk costs small. */
export const CHUNK_CHARS = 64 * 1024;

/**
 * Text pieces gathered into UTF-8 chunks of about 64 KiB: writers yield a record at a time, the response
 * (or the ZIP deflater) gets fewer, larger writes. Memory holds one chunk, whatever the total.
 */
export async function* utf8Chunks(pieces: AsyncIterable<string>): AsyncGenerator<Buffer> {
  let text = '';
  for await (const piece of pieces) {
    text += piece;
    if (text.length >= CHUNK_CHARS) {
      yield Buffer.from(text, 'utf8');
      text = '';
    }
  }
  if (text) yield Buffer.from(text, 'utf8');
}

/**
 * Bytes of the buffers a {@link Utf8Buffer} fills: each is one trip to the deflater on the thread pool, and
 * 256 KiB took some 10% less CPU than 64 KiB on a 100,000-row sheet (118 MB of XML).
 */
const CHUNK_BYTES = 256 * 1024;

/**
 * Text encoded as UTF-8 straight into 256 KiB buffers, for writers whose records are many and small: no
 * long string is built and flattened for each chunk. A writer asks {@link fits} before each {@link add},
 * and hands on {@link take} when the text does not fit.
 */
export class Utf8Buffer {
  private buf = Buffer.allocUnsafe(CHUNK_BYTES);
  private at = 0;

  /** Whether `text` surely fits in what is left (UTF-8 takes at most 3 bytes per UTF-16 code unit). */
  fits(text: string): boolean {
    return this.at + text.length * 3 <= this.buf.length;
  }

  /** Whether `text` fits in an empty buffer (else it is handed on as a buffer of its own). */
  static small(text: string): boolean {
    return text.length * 3 <= CHUNK_BYTES;
  }

  /** Appends `text` (which {@link fits}). */
  add(text: string): void {
    this.at += this.buf.write(text, this.at, 'utf8');
  }

  /** The bytes written so far (undefined when none), the buffer starting over. */
  take(): Buffer | undefined {
    if (this.at === 0) return undefined;
    const full = this.buf.subarray(0, this.at);
    this.buf = Buffer.allocUnsafe(CHUNK_BYTES);
    this.at = 0;
    return full;
  }
}
