import type { AnyOperation } from '@xsvc/sdk/contract';
import type { OperationCheck, ValueCheck } from './check-types.js';

/** The members of a zod schema (and of its checks) read here, when generating. */
interface Zod {
  readonly _zod: { readonly def: ZodDef };
}
interface ZodDef {
  readonly type: string;
  readonly check?: string;
  readonly format?: string;
  readonly pattern?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly value?: unknown;
  readonly inclusive?: boolean;
  readonly innerType?: Zod;
  readonly in?: Zod;
  readonly element?: Zod;
  readonly valueType?: Zod;
  readonly shape?: Readonly<Record<string, Zod>>;
  readonly options?: readonly Zod[];
  readonly entries?: Readonly<Record<string, string | number>>;
  readonly values?: readonly unknown[];
  readonly checks?: readonly Zod[];
}

const ANY: ValueCheck = { t: 'any' };
const INTEGER_FORMATS = new Set(['safeint', 'int32', 'uint32']);

/** A zod schema as a {@link ValueCheck}: what it cannot express becomes `any` (left to the contract). */
export function checkOf(schema: Zod): ValueCheck {
  const def = schema._zod.def;
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'catch':
      return { t: 'opt', of: def.innerType ? checkOf(def.innerType) : ANY };
    case 'nullable':
      return { t: 'nul', of: def.innerType ? checkOf(def.innerType) : ANY };
    case 'readonly':
    case 'nonoptional':
      return def.innerType ? checkOf(def.innerType) : ANY;
    case 'pipe':
      return def.in ? checkOf(def.in) : ANY;
    case 'string':
      return stringCheck(def);
    case 'number':
      return numberCheck(def);
    case 'boolean':
      return { t: 'bool' };
    case 'null':
      return { t: 'null' };
    case 'enum':
      return { t: 'one', of: Object.values(def.entries ?? {}) };
    case 'literal':
      return (def.values ?? []).every(isPlainLiteral) ? { t: 'one', of: def.values as PlainLiteral[] } : ANY;
    case 'array': {
      const c: { t: 'arr'; of: ValueCheck; min?: number; max?: number } = {
        t: 'arr',
        of: def.element ? checkOf(def.element) : ANY,
      };
      for (const k of def.checks ?? []) {
        const cd = k._zod.def;
        if (cd.check === 'min_length') c.min = cd.minimum!;
        else if (cd.check === 'max_length') c.max = cd.maximum!;
      }
      return c;
    }
    case 'object':
      return {
        t: 'obj',
        props: Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, v]) => [k, checkOf(v)])),
      };
    case 'record':
      return { t: 'rec', of: def.valueType ? checkOf(def.valueType) : ANY };
    case 'union': {
      const of = (def.options ?? []).map(checkOf);
      return of.some((o) => o.t === 'any') ? ANY : { t: 'or', of };
    }
    default:
      return ANY;
  }
}

type PlainLiteral = string | number | boolean | null;
const isPlainLiteral = (v: unknown): v is PlainLiteral =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v);

function stringCheck(def: ZodDef): ValueCheck {
  const c: { t: 'str'; min?: number; max?: number; re?: [string, string][] } = { t: 'str' };
  const re: [string, string][] = [];
  // A format schema (`z.email()`) carries its pattern itself; `url` has none (checked with `new URL`).
  if (def.pattern instanceof RegExp) re.push([def.pattern.source, def.pattern.flags]);
  for (const k of def.checks ?? []) {
    const cd = k._zod.def;
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

function numberCheck(def: ZodDef): ValueCheck {
  const c: { t: 'num'; int?: true; ge?: number; gt?: number; le?: number; lt?: number } = { t: 'num' };
  for (const k of [...(def.format ? [{ _zod: { def } }] : []), ...(def.checks ?? [])]) {
    const cd = k._zod.def;
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
  const part = (s: unknown) => (s ? checkOf(s as Zod) : undefined);
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
 * The source of `checks.generated.ts`: one operation per line, so a contract change shows in review. Each
 * is JSON text, parsed when its command runs: a string is far cheaper to load than an object literal.
 */
export function renderChecks(ops: readonly AnyOperation[]): string {
  const lines = ops.map(
    (op) => `  ${JSON.stringify(op.id)}: ${JSON.stringify(JSON.stringify(operationCheck(op)))},`,
  );
  return [
    '// Generated by scripts/generate-table.ts from the contract. Do not edit by hand.',
    '',
    "/** Every operation's request checks (an `OperationCheck` as JSON; see `render-checks.ts`). */",
    'export const checks: Readonly<Record<string, string>> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}
