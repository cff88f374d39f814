import type { z } from 'zod';

/**
 * The one reader of zod's internals (`_zod.def`) in the repository: the tools that walk the contract (the
 * SDK's generators and mocks, the server's OpenAPI document, the CLI's command table and checks, MCP's
 * actions, the reference) go through these typed helpers, so a zod upgrade that moves its internals breaks
 * this file alone. `test/zod-internals.test.ts` fails when another file reads them.
 */

/** A zod schema, as the helpers take it. */
export type Schema = z.ZodType;

/** One check of a schema (`.min()`, `.max()`, `.length()`, `.regex()`, a number format…). */
export interface SchemaCheck {
  /** `min_length`, `max_length`, `length_equals`, `greater_than`, `less_than`, `string_format`, `number_format`, `overwrite`… */
  readonly check: string;
  /** The bound of `greater_than`/`less_than`, the length of `length_equals`. */
  readonly value?: unknown;
  /** True when a `greater_than`/`less_than` bound is inclusive (`.min()`/`.max()` of a number). */
  readonly inclusive?: boolean;
  /** The bound of `min_length`. */
  readonly minimum?: number;
  /** The bound of `max_length`. */
  readonly maximum?: number;
  /** A string or number format (`email`, `regex`, `safeint`…). */
  readonly format?: string;
  /** The pattern of a string format. */
  readonly pattern?: unknown;
}

/** The parts of a schema's definition the contract's tools read (by kind). */
export interface ZodDef {
  type: string;
  innerType?: Schema;
  element?: Schema;
  options?: Schema[];
  valueType?: Schema;
  keyType?: Schema;
  in?: Schema;
  out?: Schema;
  left?: Schema;
  right?: Schema;
  defaultValue?: unknown;
  entries?: Record<string, string | number>;
  values?: unknown[];
  getter?: () => Schema;
  shape?: Record<string, Schema>;
  coerce?: boolean;
  /** A string format schema's own format and pattern (`z.email()`), a number's format (`z.int()`). */
  format?: string;
  pattern?: unknown;
  check?: string;
}

interface Internals {
  readonly _zod: { readonly def: ZodDef };
}

/** True for a zod schema (any value carrying zod's internals). */
export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** A schema's definition (zod's `_zod.def`), for the tools that walk every kind of schema. */
export function zodDef(schema: Schema): ZodDef {
  return (schema as unknown as Internals)._zod.def;
}

/** The kind of a schema: `object`, `string`, `optional`, `union`, `pipe`… */
export function defType(schema: Schema): string {
  return zodDef(schema).type;
}

/** Wrappers that keep the value's kind: what {@link unwrapSchema} strips by default. */
export const WRAPPER_TYPES: ReadonlySet<string> = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'readonly',
  'catch',
  'nonoptional',
]);

/** The schema a wrapper or a pipe wraps (`innerType`, a pipe's `in`), or undefined for anything else. */
export function innerSchema(schema: Schema): Schema | undefined {
  const def = zodDef(schema);
  if (WRAPPER_TYPES.has(def.type)) return def.innerType;
  if (def.type === 'pipe') return def.in;
  return undefined;
}

/**
 * The schema under its wrappers: optional, nullable, default… (`kinds`, by default {@link WRAPPER_TYPES})
 * and, with `pipes`, the input side of pipes (`z.string().transform(…)`).
 */
export function unwrapSchema(
  schema: Schema,
  options: { readonly kinds?: ReadonlySet<string> | readonly string[]; readonly pipes?: boolean } = {},
): Schema {
  const kinds = new Set(options.kinds ?? WRAPPER_TYPES);
  let s = schema;
  for (;;) {
    const def = zodDef(s);
    if (kinds.has(def.type) && def.innerType) s = def.innerType;
    else if (options.pipes && def.type === 'pipe' && def.in) s = def.in;
    else return s;
  }
}

/** The first description on a schema or the wrappers and pipes around its value. */
export function descriptionOf(schema: Schema): string | undefined {
  for (let s: Schema | undefined = schema; s; s = innerSchema(s)) if (s.description) return s.description;
  return undefined;
}

/** The fields of an object schema, or undefined for another kind. */
export function objectShape(schema: Schema): Readonly<Record<string, Schema>> | undefined {
  return defType(schema) === 'object' ? (zodDef(schema).shape ?? {}) : undefined;
}

/** The branches of a union, or undefined for another kind. */
export function unionOptions(schema: Schema): readonly Schema[] | undefined {
  return defType(schema) === 'union' ? (zodDef(schema).options ?? []) : undefined;
}

/** The element schema of an array, or undefined for another kind. */
export function arrayElement(schema: Schema): Schema | undefined {
  return defType(schema) === 'array' ? zodDef(schema).element : undefined;
}

/** The value schema of a record, or undefined for another kind. */
export function recordValue(schema: Schema): Schema | undefined {
  return defType(schema) === 'record' ? zodDef(schema).valueType : undefined;
}

/** The values of an enum (`z.enum`, an open enum), or undefined for another kind. */
export function enumValues(schema: Schema): readonly (string | number)[] | undefined {
  const def = zodDef(schema);
  return def.type === 'enum' ? Object.values(def.entries ?? {}) : undefined;
}

/** The values of a literal (`z.literal('a')`), or undefined for another kind. */
export function literalValues(schema: Schema): readonly unknown[] | undefined {
  const def = zodDef(schema);
  return def.type === 'literal' ? (def.values ?? []) : undefined;
}

/** The default of a `.default()` / `.prefault()` schema (called when zod stores it as a function). */
export function defaultValueOf(schema: Schema): unknown {
  const d = zodDef(schema).defaultValue;
  return typeof d === 'function' ? (d as () => unknown)() : d;
}

/** The checks of a schema (`.min()`, `.max()`, `.length()`, `.regex()`…), in order. */
export function checksOf(schema: Schema): SchemaCheck[] {
  const checks = (zodDef(schema) as { checks?: readonly Internals[] }).checks ?? [];
  return checks.map((c) => c._zod.def as SchemaCheck);
}

/**
 * The checks of a schema with its own format first: a format schema (`z.email()`, `z.int()`) carries its
 * format and pattern in its definition rather than as a check.
 */
export function checksWithFormat(schema: Schema): SchemaCheck[] {
  const def = zodDef(schema);
  const own: SchemaCheck[] =
    def.format !== undefined || def.pattern !== undefined
      ? [
          {
            check: def.check ?? (def.type === 'number' ? 'number_format' : 'string_format'),
            ...(def.format !== undefined && { format: def.format }),
            ...(def.pattern !== undefined && { pattern: def.pattern }),
          },
        ]
      : [];
  return [...own, ...checksOf(schema)];
}

/** The first numeric bound of a check kind (`min_length`, `greater_than`…), or undefined. */
export function checkBound(schema: Schema, kind: string): number | undefined {
  for (const c of checksOf(schema)) {
    if (c.check !== kind) continue;
    const v = c.value ?? c.minimum ?? c.maximum;
    if (typeof v === 'number') return v;
  }
  return undefined;
}

/** True when a schema coerces its input (`z.coerce.number()`). */
export function isCoerced(schema: Schema): boolean {
  return zodDef(schema).coerce === true;
}

/** The schema a lazy schema stands for, or undefined for another kind. */
export function lazyTarget(schema: Schema): Schema | undefined {
  const def = zodDef(schema);
  return def.type === 'lazy' && def.getter ? def.getter() : undefined;
}

/**
 * Every schema directly inside a schema (an object's fields, a wrapper's inner schema, an array's element,
 * a record's values, a pipe's two sides, a union's branches, an intersection's two sides, a lazy's target):
 * for walks over the whole contract.
 */
export function childSchemas(schema: Schema): Schema[] {
  const def = zodDef(schema);
  const out: Schema[] = [];
  if (def.type === 'object') out.push(...Object.values(def.shape ?? {}));
  for (const s of [def.innerType, def.element, def.valueType, def.in, def.out, def.left, def.right])
    if (s) out.push(s);
  if (Array.isArray(def.options)) out.push(...def.options);
  if (typeof def.getter === 'function') out.push(def.getter());
  return out;
}

const openEnums = new WeakSet<object>();

/** Marks an enum as open (see `openEnum`); kept by the schema's definition, which `.describe()` shares. */
export function markOpenEnum(schema: Schema): void {
  openEnums.add(zodDef(schema));
}

/** True for an enum made by `openEnum` (the SDK's generated types leave it open). */
export function isOpenEnum(schema: Schema): boolean {
  return openEnums.has(zodDef(schema));
}
