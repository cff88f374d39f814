import { oneLine } from './text-width.js';

/**
 * What the API sends for an allowance without a limit: the largest safe integer (`monitorsAllowed`, since
 * monitor slots are unlimited). The JSON output keeps the number; text output says what it means.
 */
export const UNLIMITED = Number.MAX_SAFE_INTEGER;

/**
 * A value as one line of text in a table cell or a `key: value` line (the {@link UNLIMITED} number as
 * `unlimited`).
 */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return oneLine(value);
  if (value === UNLIMITED) return 'unlimited';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    return value.map((v) => cellText(v)).join(',');
  }
  return oneLine(JSON.stringify(value));
}
