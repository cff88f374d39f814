import type { ValueCheck } from '../table/check-types.js';

const patterns = new Map<string, RegExp>();

function pattern([source, flags]: readonly [string, string]): RegExp {
  const key = `${flags}/${source}`;
  let re = patterns.get(key);
  if (!re) {
    re = new RegExp(source, flags);
    patterns.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}

/**
 * Whether a value passes a {@link ValueCheck}: the structure of a request (types, required parameters,
 * enums, lengths, bounds, patterns) checked without loading the contract. `false` is a hint, not a verdict:
 * the caller asks the contract then (see `validate.ts`).
 */
export function passes(check: ValueCheck, v: unknown): boolean {
  switch (check.t) {
    case 'any':
      return true;
    case 'opt':
      return v === undefined || passes(check.of, v);
    case 'nul':
      return v === null || passes(check.of, v);
    case 'str':
      return (
        typeof v === 'string' &&
        (check.min === undefined || v.length >= check.min) &&
        (check.max === undefined || v.length <= check.max) &&
        (check.re ?? []).every((p) => pattern(p).test(v))
      );
    case 'num':
      return (
        typeof v === 'number' &&
        Number.isFinite(v) &&
        (!check.int || Number.isSafeInteger(v)) &&
        (check.ge === undefined || v >= check.ge) &&
        (check.gt === undefined || v > check.gt) &&
        (check.le === undefined || v <= check.le) &&
        (check.lt === undefined || v < check.lt)
      );
    case 'bool':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    case 'one':
      return check.of.includes(v as string);
    case 'arr':
      return (
        Array.isArray(v) &&
        (check.min === undefined || v.length >= check.min) &&
        (check.max === undefined || v.length <= check.max) &&
        v.every((x) => passes(check.of, x))
      );
    case 'obj':
      return (
        isObject(v) &&
        Object.entries(check.props).every(([k, c]) => passes(c, Object.hasOwn(v, k) ? v[k] : undefined))
      );
    case 'rec':
      return isObject(v) && Object.values(v).every((x) => passes(check.of, x));
    case 'or':
      return check.of.some((c) => passes(c, v));
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
