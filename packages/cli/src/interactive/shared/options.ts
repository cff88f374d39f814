import { matchChoice } from '../../args/choice.js';
import type { RawOptions } from '../types.js';
import { UsageError } from './usage-error.js';

/**
 * Readers of the raw values the command layer hands a runner. Each accepts what commander produces (strings,
 * booleans, string arrays) and what a caller in code passes (numbers), and throws a {@link UsageError}
 * naming the flag otherwise.
 */

/** `--monitor-id` from `monitorId`: the flag a key is typed as. */
export function flagOf(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** A string option; `undefined` when absent. */
export function readString(raw: RawOptions, key: string, flag = flagOf(key)): string | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') throw new UsageError(`${flag} takes a value`, flag);
  if (v.trim() === '') throw new UsageError(`${flag} must not be empty`, flag);
  return v;
}

/** A required string option or argument. */
export function requireString(raw: RawOptions, key: string, flag = flagOf(key)): string {
  const v = readString(raw, key, flag);
  if (v === undefined) throw new UsageError(`${flag} is required`, flag, 'missing_params');
  return v;
}

/** A number option (integer when `integer`), within `[min, max]`. */
export function readNumber(
  raw: RawOptions,
  key: string,
  bounds: { min?: number; max?: number; integer?: boolean } = {},
  flag = flagOf(key),
): number | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  const kind = bounds.integer ? 'an integer' : 'a number';
  if (!Number.isFinite(n) || (bounds.integer && !Number.isInteger(n))) {
    throw new UsageError(`${flag} must be ${kind}, got ${JSON.stringify(v)}`, flag);
  }
  if (bounds.min !== undefined && n < bounds.min)
    throw new UsageError(`${flag} must be >= ${bounds.min}`, flag);
  if (bounds.max !== undefined && n > bounds.max)
    throw new UsageError(`${flag} must be <= ${bounds.max}`, flag);
  return n;
}

/** A boolean flag: `true`/`false` values and the strings `true`, `false`, `1`, `0`, `yes`, `no`. */
export function readBoolean(raw: RawOptions, key: string, flag = flagOf(key)): boolean | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(s)) return true;
    if (['false', '0', 'no'].includes(s)) return false;
  }
  throw new UsageError(`${flag} is a switch (true or false), got ${JSON.stringify(v)}`, flag);
}

/** A list option: repeated values (`--events a b`) or one comma-separated value (`--events a,b`). */
export function readList(raw: RawOptions, key: string, flag = flagOf(key)): string[] | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  const parts = Array.isArray(v) ? v : [v];
  const out: string[] = [];
  for (const p of parts) {
    if (typeof p !== 'string') throw new UsageError(`${flag} takes text values`, flag);
    for (const s of p.split(',')) if (s.trim() !== '') out.push(s.trim());
  }
  if (out.length === 0) throw new UsageError(`${flag} needs at least one value`, flag);
  return out;
}

/** One of a fixed set of values; `code` is the spec's error code for another value. */
export function readChoice<const T extends string>(
  raw: RawOptions,
  key: string,
  choices: readonly T[],
  flag = flagOf(key),
  code = 'invalid_input',
): T | undefined {
  const given = readString(raw, key, flag);
  if (given === undefined) return undefined;
  const v = matchChoice(choices, given);
  if (v === undefined) {
    throw new UsageError(
      `${flag} must be one of ${choices.join(', ')}; got ${JSON.stringify(given)}`,
      flag,
      code,
    );
  }
  return v as T;
}
