import { defType, enumValues, literalValues, type Schema, unwrapSchema } from '@xsvc/sdk/contract';
import type { InteractiveOptionSpec, InteractiveOptionType, RawOptions } from '../types.js';
import { flagOf } from './options.js';
import { UsageError } from './usage-error.js';

/**
 * Flags generated from a request schema of the contract, so `xsvc extractions run` and `xsvc draws run`
 * accept every body field the service accepts, with the contract's own descriptions, and bad values fail
 * with the contract's own messages. Schemas are read through the contract's helpers (`@xsvc/sdk/contract`).
 */

/** A field schema of the contract. */
export type ZodLike = Schema;

/** The part of a zod issue used here. */
interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** An object schema: its fields and its validation. */
export interface ObjectSchemaLike<Out> {
  readonly shape: Readonly<Record<string, ZodLike>>;
  safeParse(
    value: unknown,
  ): { success: true; data: Out } | { success: false; error: { issues: readonly IssueLike[] } };
}

/** The value kind of a field once optional and default wrappers are removed. */
interface FieldKind {
  readonly type: InteractiveOptionType;
  readonly choices?: readonly string[];
}

function unwrap(schema: ZodLike): ZodLike {
  return unwrapSchema(schema, { kinds: ['optional', 'default', 'nullable', 'prefault'] });
}

function kindOf(schema: ZodLike): FieldKind {
  const s = unwrap(schema);
  switch (defType(s)) {
    case 'number':
    case 'int':
    case 'bigint':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return { type: 'string', choices: (enumValues(s) ?? []).map(String) };
    case 'literal':
      return { type: 'string', choices: (literalValues(s) ?? []).map(String) };
    case 'array':
      return { type: 'string[]' };
    default:
      return { type: 'string' };
  }
}

function descriptionOf(schema: ZodLike): string {
  return schema.description ?? unwrap(schema).description ?? '';
}

function flagSyntax(key: string, kind: FieldKind): string {
  const flag = flagOf(key);
  if (kind.type === 'boolean') return flag;
  const meta = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return kind.type === 'string[]' ? `${flag} <${meta}...>` : `${flag} <${meta}>`;
}

/** Option specs for every field of a request schema except `exclude` (positional or fixed fields). */
export function flagsFromSchema(
  schema: ObjectSchemaLike<unknown>,
  exclude: readonly string[] = [],
): InteractiveOptionSpec[] {
  return Object.entries(schema.shape)
    .filter(([key]) => !exclude.includes(key))
    .map(([key, field]) => {
      const kind = kindOf(field);
      return {
        flag: flagSyntax(key, kind),
        key,
        type: kind.type,
        description: descriptionOf(field),
        // Required fields are still checked by the schema, with its message; commander need not know.
        required: false,
        ...(kind.choices && { choices: kind.choices }),
      };
    });
}

function coerce(value: unknown, kind: FieldKind, key: string): unknown {
  if (value === undefined || value === null) return undefined;
  const flag = flagOf(key);
  switch (kind.type) {
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) {
        throw new UsageError(`${flag} must be a number, got ${JSON.stringify(value)}`, flag);
      }
      return n;
    }
    case 'boolean':
      if (value === 'true' || value === '1') return true;
      if (value === 'false' || value === '0') return false;
      return value;
    case 'string[]': {
      const parts = Array.isArray(value) ? value : [value];
      return parts.flatMap((p) => (typeof p === 'string' ? p.split(',') : [p])).filter((p) => p !== '');
    }
    default:
      return typeof value === 'number' ? String(value) : value;
  }
}

/**
 * Builds a request body from raw options (fields of `schema.shape` only, plus `fixed` values) and validates
 * it with the schema. The first issue becomes a {@link UsageError} naming the flag of the field at fault.
 */
export function bodyFromFlags<Out>(
  schema: ObjectSchemaLike<Out>,
  raw: RawOptions,
  fixed: Readonly<Record<string, unknown>> = {},
  flagNames: Readonly<Record<string, string>> = {},
): Out {
  const body: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    if (key in fixed) continue;
    const value = coerce(raw[key], kindOf(field), key);
    if (value !== undefined) body[key] = value;
  }
  const parsed = schema.safeParse({ ...body, ...fixed });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const key = issue ? String(issue.path[0] ?? '') : '';
  const flag = flagNames[key] ?? (key ? flagOf(key) : undefined);
  const message = issue ? issue.message : 'invalid input';
  const missing = key !== '' && body[key] === undefined && !(key in fixed);
  throw new UsageError(
    flag ? `${flag}: ${message}` : message,
    flag,
    missing ? 'missing_params' : 'invalid_input',
  );
}
