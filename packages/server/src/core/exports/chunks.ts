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
 * a trip costs the writer's thread some 0.1 ms on a busy machine: 1 MiB buffers take some 110 trips for a
 * 100,000-row sheet (118 MB of XML), where 256 KiB ones took 450 (and 64 KiB ones 10% more CPU still).
 */
const CHUNK_BYTES = 1024 * 1024;
/** Buffers handed back ({@link Utf8Buffer.recycle}) kept for the next chunks, at most. */
const SPARE = 2;

/**
 * Text encoded as UTF-8 straight into 1 MiB buffers, for writers whose records are many and small: no
 * long string is built and flattened for each chunk. A writer asks {@link fits} before each {@link add},
 * and hands on {@link take} when the text does not fit. A reader done with a chunk may hand it back
 * ({@link recycle}): its memory is filled again, not allocated anew (and paged in) for every chunk.
 */
export class Utf8Buffer {
  private buf: Buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private at = 0;
  /** The memory of the chunks handed on, which alone may come back. */
  private readonly lent = new WeakSet<ArrayBufferLike>();
  private readonly spare: Buffer[] = [];

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
    this.lent.add(this.buf.buffer);
    this.buf = this.spare.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES);
    this.at = 0;
    return full;
  }

  /**
   * A chunk {@link take} handed on, handed back by a reader that no longer reads it (nor keeps it): its
   * memory is used for a later chunk. Anything else is ignored, and so is a chunk handed back twice.
   */
  recycle(chunk: Buffer): void {
    const memory = chunk.buffer;
    if (this.spare.length < SPARE && this.lent.delete(memory)) this.spare.push(Buffer.from(memory));
  }
}
