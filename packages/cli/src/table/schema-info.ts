import {
  arrayElement,
  checksOf,
  defType,
  descriptionOf,
  enumValues as enumValuesOf,
  literalValues,
  objectShape,
  type Schema,
  unionOptions,
  unwrapSchema,
} from '@xsvc/sdk/contract';
import type { FlagType } from './types.js';

/**
 * Reads what the CLI needs from a zod schema of the contract (its kind, choices, bounds, description)
 * through the contract's schema helpers (`@xsvc/sdk/contract`), so the CLI reads no zod internals itself.
 */

/** A schema of the contract. */
export type SchemaLike = Schema;

const WRAPPERS = ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'];

/** The schema under optional/default/nullable/pipe wrappers. */
export function unwrap(schema: SchemaLike): SchemaLike {
  return unwrapSchema(schema, { kinds: WRAPPERS, pipes: true });
}

/** The first description found on the schema or its wrappers. */
export function describeSchema(schema: SchemaLike): string | undefined {
  return descriptionOf(schema);
}

/** The values of an enum or literal schema, or undefined for anything else. */
function enumValues(schema: SchemaLike): string[] | undefined {
  const values = enumValuesOf(schema) ?? literalValues(schema);
  return values?.map(String);
}

const QUERY_BOOLEAN = new Set(['true', 'false', '1', '0']);

/** How a parameter is typed on the command line, with its choices when it has some. */
export function flagTypeOf(schema: SchemaLike): { type: FlagType; choices?: string[] } {
  const s = unwrap(schema);
  const values = enumValues(s);
  if (values) return { type: 'enum', choices: values };
  switch (defType(s)) {
    case 'string':
    case 'date':
      return { type: 'string' };
    case 'number':
    case 'bigint':
    case 'int':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'file':
      return { type: 'file' };
    case 'array': {
      const element = arrayElement(s);
      const el = element ? unwrap(element) : undefined;
      if (!el) return { type: 'json' };
      const choices = enumValues(el);
      if (choices) return { type: 'list', choices };
      const k = defType(el);
      return k === 'string' || k === 'number' ? { type: 'list' } : { type: 'json' };
    }
    case 'union':
      return unionType(unionOptions(s) ?? []);
    default:
      return { type: 'json' };
  }
}

/**
 * Unions seen in the contract: a query boolean (`true | "true" | "1" | …`), ids as a comma string or an
 * array, two string formats, several enums. Anything else is JSON.
 */
function unionType(options: readonly SchemaLike[]): { type: FlagType; choices?: string[] } {
  const kinds = options.map((o) => flagTypeOf(o));
  const types = new Set(kinds.map((k) => k.type));
  if (types.has('boolean') && kinds.every((k) => k.type === 'boolean' || isQueryBoolean(k.choices))) {
    return { type: 'boolean' };
  }
  if (types.size === 1 && types.has('string')) return { type: 'string' };
  if (types.size === 1 && types.has('enum'))
    return { type: 'enum', choices: kinds.flatMap((k) => k.choices ?? []) };
  if ([...types].every((t) => t === 'string' || t === 'list')) return { type: 'list' };
  if ([...types].every((t) => t === 'number' || t === 'string')) return { type: 'string' };
  return { type: 'json' };
}

function isQueryBoolean(choices: readonly string[] | undefined): boolean {
  return choices?.every((c) => QUERY_BOOLEAN.has(c)) ?? false;
}

/** The inclusive bounds of a number schema (`.min()` / `.max()`), when set. */
export function numberBounds(schema: SchemaLike): { min?: number; max?: number } {
  const out: { min?: number; max?: number } = {};
  for (const d of checksOf(unwrap(schema))) {
    if (typeof d.value !== 'number') continue;
    if (d.check === 'greater_than') out.min = d.value;
    if (d.check === 'less_than') out.max = d.value;
  }
  return out;
}

/** True when the parameter must be given (the schema refuses `undefined`). */
export function isRequired(schema: SchemaLike): boolean {
  return !schema.safeParse(undefined).success;
}

/**
 * The fields of an object schema, or of every branch of a union of objects: each field with the schemas it
 * has in the branches that hold it (one for a plain object).
 */
export function fieldsOf(schema: SchemaLike | null): Record<string, SchemaLike[]> {
  if (!schema) return {};
  const shape = objectShape(schema);
  if (shape) return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, [v]]));
  const out: Record<string, SchemaLike[]> = {};
  const options = unionOptions(schema);
  if (options) {
    for (const option of options) {
      for (const [k, v] of Object.entries(fieldsOf(option))) out[k] = [...(out[k] ?? []), ...v];
    }
  }
  return out;
}

/** The command-line type of a field that several union branches define: their enums merged. */
export function mergedFlagType(schemas: readonly SchemaLike[]): { type: FlagType; choices?: string[] } {
  const kinds = schemas.map((s) => flagTypeOf(s));
  const first = kinds[0] ?? { type: 'json' as const };
  if (kinds.length > 1 && kinds.every((k) => k.type === 'enum')) {
    return { type: 'enum', choices: [...new Set(kinds.flatMap((k) => k.choices ?? []))] };
  }
  return first;
}
