import { UsageError } from '../errors.js';
import type { FlagSpec } from '../table/types.js';

/** Splits comma lists, from one or several occurrences of a flag, dropping empty parts. */
export function splitList(raw: string | readonly string[]): string[] {
  return (typeof raw === 'string' ? [raw] : raw)
    .flatMap((part) => part.split(','))
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/**
 * Types a flag's text (numbers, comma lists; booleans and enums come typed and checked from commander).
 * JSON and file flags are read by the caller. Errors name the flag as typed.
 */
export function convertScalar(f: FlagSpec, raw: unknown, shownAs = `--${f.flag}`): unknown {
  switch (f.type) {
    case 'number': {
      const text = String(raw).trim();
      const n = text === '' ? Number.NaN : Number(text);
      if (!Number.isFinite(n)) {
        throw new UsageError(
          `${shownAs} expects a number, got "${String(raw)}"`,
          undefined,
          'invalid_input',
          shownAs,
        );
      }
      return n;
    }
    case 'list': {
      const values = splitList(raw as string | string[]);
      const bad = f.choices ? values.filter((v) => !f.choices!.includes(v)) : [];
      if (bad.length > 0) {
        throw new UsageError(
          `${shownAs}: "${bad.join(', ')}" ${bad.length > 1 ? 'are' : 'is'} not one of ${f.choices!.join(', ')}`,
          undefined,
          'invalid_input',
          shownAs,
        );
      }
      return values;
    }
    case 'enum':
      if (f.choices && !f.choices.includes(String(raw))) {
        throw new UsageError(
          `${shownAs}: "${String(raw)}" is not one of ${f.choices.join(', ')}`,
          undefined,
          'invalid_input',
          shownAs,
        );
      }
      return String(raw);
    case 'boolean':
      return raw === true || raw === 'true' || raw === '1';
    default:
      return raw;
  }
}
