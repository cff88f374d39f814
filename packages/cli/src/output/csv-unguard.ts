import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** What the service's guard puts a `'` before (OWASP CSV injection: `=`, `+`, `-`, `@`, tab, CR). */
const GUARDED = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * Undoes the service's CSV formula guard as the file streams by: a field that starts with `'` followed by
 * one of the guarded characters loses the `'` (`'@reply` → `@reply`), inside quotes or not; everything
 * else passes through byte for byte. For files meant for programs, not spreadsheets (`--no-formula-guard`).
 * A field whose own text began with `'=` is indistinguishable from a guarded one and loses its `'` too.
 */
export function unguardCsv(): Transform {
  let inQuotes = false;
  /** At the first character of a field (or just after its opening quote). */
  let fieldStart = true;
  /** A `'` seen at a field's start, held until the next character decides. */
  let held = false;
  // A character split across two chunks is decoded whole.
  const decoder = new StringDecoder('utf8');
  const pass = (text: string): string => {
    let out = '';
    for (const ch of text) {
      if (held) {
        held = false;
        // An unquoted `'` then CR is a field ending the line: the guard's `'\r` is always quoted.
        if (!GUARDED.has(ch) || (ch === '\r' && !inQuotes)) out += "'";
      } else if (fieldStart && ch === "'") {
        held = true;
        fieldStart = false;
        continue;
      }
      const wasStart = fieldStart;
      fieldStart = false;
      if (ch === '"') {
        inQuotes = !inQuotes;
        // An opening quote: the field's text starts after it.
        if (wasStart && inQuotes) fieldStart = true;
      } else if (!inQuotes && (ch === ',' || ch === '\n')) {
        fieldStart = true;
      }
      out += ch;
    }
    return out;
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      done(null, pass(decoder.write(chunk)));
    },
    flush(done) {
      done(null, pass(decoder.end()) + (held ? "'" : ''));
    },
  });
}
