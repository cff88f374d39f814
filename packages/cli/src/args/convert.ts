import { UsageError } from '../errors.js';
import type { FlagSpec } from '../table/types.js';
import { matchChoice } from './choice.js';

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
      const given = splitList(raw as string | string[]);
      const values = f.choices ? given.map((v) => matchChoice(f.choices!, v) ?? v) : given;
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
    case 'enum': {
      const value = f.choices ? matchChoice(f.choices, String(raw)) : String(raw);
      if (value === undefined) {
        throw new UsageError(
          `${shownAs}: "${String(raw)}" is not one of ${f.choices!.join(', ')}`,
          undefined,
          'invalid_input',
          shownAs,
        );
      }
      return value;
    }
    case 'boolean':
      return raw === true || raw === 'true' || raw === '1';
    default:
      return raw;
  }
}
