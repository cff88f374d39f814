import { HttpError } from './errors.js';

/** A UTF-16 surrogate without its other half: not a Unicode character, and not storable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function illFormedAt(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : undefined;
  if (depth > 64 || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = illFormedAt(value[i], `${path}.${i}`, depth + 1);
      if (at) return at;
    }
    return undefined;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
    return undefined; // files of a multipart body, and other non-JSON values
  for (const [k, v] of Object.entries(value)) {
    if (LONE_SURROGATE.test(k)) return path;
    const at = illFormedAt(v, `${path}.${k}`, depth + 1);
    if (at) return at;
  }
  return undefined;
}

/**
 * Refuses input text that is not valid Unicode: JSON can carry a lone surrogate (`"\ud800"`), which no
 * database stores as text and no UTF-8 encoder can write. 400 `invalid_input` naming the field.
 */
export function assertWellFormed(value: unknown, where: string): void {
  const at = illFormedAt(value, where, 0);
  if (at)
    throw new HttpError('invalid_input', `${at}: contains a lone UTF-16 surrogate (not valid Unicode text)`);
}
