/**
 * Reading the raw body of a Node request (`http.IncomingMessage`, or any async iterable of chunks) for
 * servers without a raw-body option. Node build only: the Web build gets the bytes from `request.arrayBuffer()`.
 */
import { Buffer } from 'node:buffer';

/** Options of {@link readRawBody}. */
export interface ReadRawBodyOptions {
  /** Largest accepted body in bytes; more is a `RangeError` (answer 413). Default 1 MiB. */
  readonly limitBytes?: number | undefined;
}

/** Default body limit: far above any delivery (a 25,000-character note tweet is ~100 KB as UTF-8 JSON). */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Collects the request's chunks into one `Buffer`, stopping as soon as the limit is passed so an oversized
 * body is not buffered. Pass the result to `verifyWebhook` as `payload`.
 */
export async function readRawBody(
  request: AsyncIterable<Uint8Array | string>,
  options: ReadRawBodyOptions = {},
): Promise<Buffer> {
  const limit = options.limitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
    throw new TypeError('readRawBody: limitBytes must be a non-negative integer.');
  }
  if (typeof (request as { [Symbol.asyncIterator]?: unknown })?.[Symbol.asyncIterator] !== 'function') {
    throw new TypeError('readRawBody: expected a readable request (an async iterable of chunks).');
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request) {
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk, 'utf8')
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    total += bytes.length;
    if (total > limit) throw new RangeError(`readRawBody: the body exceeds ${limit} bytes.`);
    chunks.push(bytes);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}
