/**
 * Strict UTF-8 decoding of the body for the Node build. Node's decoder turns invalid bytes into U+FFFD, so a
 * decoded text without U+FFFD came from valid UTF-8; only a text that contains one (rare, and instant to
 * rule out for ASCII text, which V8 stores one byte per character) is validated again with `isUtf8`. A BOM
 * is kept so JSON.parse rejects it, exactly as the Web build does.
 */
import { Buffer, isUtf8 } from 'node:buffer';
import { invalidUtf8 } from './payload.js';

/** The body as text; a string body is already text. Throws `invalid_payload` on invalid UTF-8. */
export function decodeBody(body: string | Uint8Array): string {
  if (typeof body === 'string') return body;
  const buffer = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const text = buffer.toString('utf8');
  if (text.indexOf('\uFFFD') !== -1 && !isUtf8(buffer)) throw invalidUtf8();
  return text;
}
