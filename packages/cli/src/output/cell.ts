import { oneLine } from './text-width.js';

/** A value as one line of text in a table cell or a `key: value` line. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return oneLine(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    return value.map((v) => cellText(v)).join(',');
  }
  return oneLine(JSON.stringify(value));
}
