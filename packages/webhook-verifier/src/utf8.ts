/**
 * Strict UTF-8 decoding of the body for the Web build. `fatal` rejects invalid bytes instead of silently
 * turning them into U+FFFD (which would hand the receiver text that differs from what was signed);
 * `ignoreBOM` keeps a BOM so JSON.parse rejects it, exactly as the Node build does.
 */
import { invalidUtf8 } from './payload.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as text; a string body is already text. Throws `invalid_payload` on invalid UTF-8. */
export function decodeBody(body: string | Uint8Array): string {
  if (typeof body === 'string') return body;
  try {
    return decoder.decode(body);
  } catch (cause) {
    throw invalidUtf8(cause);
  }
}
