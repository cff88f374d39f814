import {
  type AnyOperation,
  arrayElement,
  checksOf,
  checksWithFormat,
  enumValues,
  innerSchema,
  literalValues,
  objectShape,
  recordValue,
  type Schema,
  unionOptions,
  zodDef,
} from '@xsvc/sdk/contract';
import type { OperationCheck, ValueCheck } from './check-types.js';
import { deriveCommands } from './derive.js';

const ANY: ValueCheck = { t: 'any' };
const INTEGER_FORMATS = new Set(['safeint', 'int32', 'uint32']);

/** A zod schema as a {@link ValueCheck}: what it cannot express becomes `any` (left to the contract). */
export function checkOf(schema: Schema): ValueCheck {
  const type = zodDef(schema).type;
  const inner = innerSchema(schema);
  switch (type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'catch':
      return { t: 'opt', of: inner ? checkOf(inner) : ANY };
    case 'nullable':
      return { t: 'nul', of: inner ? checkOf(inner) : ANY };
    case 'readonly':
    case 'nonoptional':
    case 'pipe':
      return inner ? checkOf(inner) : ANY;
    case 'string':
      return stringCheck(schema);
    case 'number':
      return numberCheck(schema);
    case 'boolean':
      return { t: 'bool' };
    case 'null':
      return { t: 'null' };
    case 'enum':
      return { t: 'one', of: [...(enumValues(schema) ?? [])] };
    case 'literal': {
      const values = literalValues(schema) ?? [];
      return values.every(isPlainLiteral) ? { t: 'one', of: [...values] as PlainLiteral[] } : ANY;
    }
    case 'array': {
      const element = arrayElement(schema);
      const c: { t: 'arr'; of: ValueCheck; min?: number; max?: number } = {
        t: 'arr',
        of: element ? checkOf(element) : ANY,
      };
      for (const cd of checksOf(schema)) {
        if (cd.check === 'min_length') c.min = cd.minimum!;
        else if (cd.check === 'max_length') c.max = cd.maximum!;
      }
      return c;
    }
    case 'object':
      return {
        t: 'obj',
        props: Object.fromEntries(Object.entries(objectShape(schema) ?? {}).map(([k, v]) => [k, checkOf(v)])),
      };
    case 'record': {
      const value = recordValue(schema);
      return { t: 'rec', of: value ? checkOf(value) : ANY };
    }
    case 'union': {
      const of = (unionOptions(schema) ?? []).map(checkOf);
      return of.some((o) => o.t === 'any') ? ANY : { t: 'or', of };
    }
    default:
      return ANY;
  }
}

type PlainLiteral = string | number | boolean | null;
const isPlainLiteral = (v: unknown): v is PlainLiteral =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v);

function stringCheck(schema: Schema): ValueCheck {
  const c: { t: 'str'; min?: number; max?: number; re?: [string, string][] } = { t: 'str' };
  const re: [string, string][] = [];
  // A format schema (`z.email()`) carries its pattern itself (first); `url` has none (checked with `new URL`).
  for (const cd of checksWithFormat(schema)) {
    if (cd.check === 'min_length') c.min = Math.max(c.min ?? 0, cd.minimum!);
    else if (cd.check === 'max_length') c.max = Math.min(c.max ?? Infinity, cd.maximum!);
    else if (cd.check === 'length_equals') {
      c.min = cd.value as number;
      c.max = cd.value as number;
    } else if (cd.check === 'string_format' && cd.pattern instanceof RegExp) {
      re.push([cd.pattern.source, cd.pattern.flags]);
    } else if (cd.check === 'overwrite') {
      // A transform (trim, lower case) runs before the checks after it: from here on, leave it to zod.
      break;
    }
  }
  if (re.length > 0) c.re = re;
  return c;
}

function numberCheck(schema: Schema): ValueCheck {
  const c: { t: 'num'; int?: true; ge?: number; gt?: number; le?: number; lt?: number } = { t: 'num' };
  for (const cd of checksWithFormat(schema)) {
    if (cd.check === 'number_format' && INTEGER_FORMATS.has(cd.format ?? '')) c.int = true;
    else if (cd.check === 'greater_than' && typeof cd.value === 'number') {
      if (cd.inclusive) c.ge = cd.value;
      else c.gt = cd.value;
    } else if (cd.check === 'less_than' && typeof cd.value === 'number') {
      if (cd.inclusive) c.le = cd.value;
      else c.lt = cd.value;
    }
  }
  return c;
}

/** One operation's request checks. */
export function operationCheck(op: AnyOperation): OperationCheck {
  const part = (s: Schema | null) => (s ? checkOf(s) : undefined);
  const params = part(op.params);
  const query = part(op.query);
  const body = part(op.body);
  return {
    queryKeys: Object.keys((op.query as { shape?: object } | null)?.shape ?? {}),
    ...(params && { params }),
    ...(query && { query }),
    ...(body && { body }),
  };
}

/**
 * The source of `checks.generated.ts`: every operation's checks, gathered from the per-resource tables of
 * `render.ts` (each check JSON text, parsed when its command runs: a string is far cheaper to load than an
 * object literal). For the tests; a command loads only its resource's table.
 */
export function renderChecks(ops: readonly AnyOperation[]): string {
  const resources = [...new Set(deriveCommands(ops).map((c) => c.path[0]!))];
  return [
    '// Generated by scripts/generate-table.ts from the contract. Do not edit by hand.',
    '',
    ...resources.map((r, i) => `import { checks as r${i} } from './checks/${r}.generated.js';`),
    '',
    "/** Every operation's request checks (an `OperationCheck` as JSON; see `render-checks.ts`). */",
    'export const checks: Readonly<Record<string, string>> = {',
    ...resources.map((_, i) => `  ...r${i},`),
    '};',
    '',
  ].join('\n');
}
