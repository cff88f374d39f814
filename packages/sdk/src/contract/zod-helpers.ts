import { z } from 'zod';
import { markOpenEnum, zodDef } from './introspect.js';

/**
 * An enum the service may extend at any time (spec 9.1). The server validates what it emits against the
 * listed values; the TypeScript type stays open (`'a' | 'b' | (string & {})`) so that client code written
 * today keeps compiling and running when a value is added, and {@link loosen} accepts any string on the wire.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(
  values: T,
): z.ZodType<T[number] | (string & {}), T[number]> & { readonly options: T } {
  const schema = z.enum(values as unknown as [T[number], ...T[number][]]);
  markOpenEnum(schema);
  return Object.assign(schema, { options: values }) as unknown as z.ZodType<
    T[number] | (string & {}),
    T[number]
  > & {
    readonly options: T;
  };
}

/** An opaque big-integer id (spec 2.1): digits only. */
export const NumericId = z.string().regex(/^\d{1,25}$/, 'must be a numeric id');

/**
 * The `{id}` of one of the service's own resources that carry big-integer ids (monitors, events, webhooks):
 * anything else is 400 `invalid_id` (spec 7), never a lookup.
 */
export const ResourceId = z.string().regex(/^\d{1,25}$/, 'invalid_id: must be a numeric id');

/** The `{id}` of a draw or an extraction job (spec 2.1: UUIDs); anything else is 400 `invalid_id`. */
export const UuidResourceId = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'invalid_id: must be a UUID');

/** A credit quantity: a 64-bit integer carried as a decimal string (spec 2.1, 8.3). */
export const CreditString = z.string().regex(/^-?\d{1,20}$/, 'must be an integer string');

/** An ISO 8601 UTC timestamp (default contract). */
export const IsoDateTime = z.iso.datetime({ offset: true });

/** A `YYYY-MM-DD` date. */
export const IsoDate = z.iso.date();

/**
 * A boolean carried in a query string: `true`/`false`/`1`/`0` are accepted; the parsed value is a boolean.
 * Clients send `true`/`false`.
 */
export const QueryBoolean = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
]);

/** An integer carried in a query string (digits), parsed to a number. */
export const QueryInt = z.coerce.number().int();

const looseCache = new WeakMap<z.ZodType, z.ZodType>();
const strictCache = new WeakMap<z.ZodType, z.ZodType>();

type Mode = 'loose' | 'strict';

/**
 * Rebuilds a schema for reading what comes from the wire: unknown object keys are kept and enums accept any
 * string (spec 9.1: clients must ignore unknown fields; strict enums have broken production elsewhere).
 */
export function loosen<T extends z.ZodType>(schema: T): z.ZodType<z.output<T>> {
  return rebuild(schema, 'loose') as z.ZodType<z.output<T>>;
}

/**
 * Rebuilds a schema for checking what the server emits: unknown object keys are an error, so a response
 * that drifts from its contract fails the server's tests.
 */
export function strictify<T extends z.ZodType>(schema: T): z.ZodType<z.output<T>> {
  return rebuild(schema, 'strict') as z.ZodType<z.output<T>>;
}

function rebuild(schema: z.ZodType, mode: Mode): z.ZodType {
  const cache = mode === 'loose' ? looseCache : strictCache;
  const hit = cache.get(schema);
  if (hit) return hit;
  const def = zodDef(schema);
  let out: z.ZodType;
  switch (def.type) {
    case 'object': {
      const shape = (schema as z.ZodObject).shape;
      const next: Record<string, z.ZodType> = {};
      for (const [k, v] of Object.entries(shape)) next[k] = rebuild(v as z.ZodType, mode);
      out = mode === 'loose' ? z.looseObject(next) : z.strictObject(next);
      break;
    }
    case 'enum':
      out = mode === 'loose' ? z.union([schema, z.string()]) : schema;
      break;
    case 'array':
      out = z.array(rebuild(def.element!, mode));
      break;
    case 'optional':
      out = rebuild(def.innerType!, mode).optional();
      break;
    case 'nullable':
      out = rebuild(def.innerType!, mode).nullable();
      break;
    case 'default':
      out = rebuild(def.innerType!, mode).default(def.defaultValue as never);
      break;
    case 'union':
      out = z.union(def.options!.map((o) => rebuild(o, mode)) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
      break;
    case 'record':
      out = z.record(def.keyType as z.ZodString, rebuild(def.valueType!, mode));
      break;
    case 'lazy':
      out = z.lazy(() => rebuild(def.getter!(), mode));
      break;
    default:
      out = schema;
  }
  cache.set(schema, out);
  return out;
}
