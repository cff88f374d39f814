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
