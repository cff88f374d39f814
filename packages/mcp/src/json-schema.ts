import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** A JSON Schema document (draft 2020-12), as tools/list carries it. */
export type JsonSchema = Record<string, unknown>;

/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
/** Keywords whose value is data, never a schema. */
const DATA = new Set(['default', 'const', 'enum', 'examples']);
const QUERY_BOOLEAN_STRINGS = new Set(['true', 'false', '1', '0']);

/**
 * Converts a zod schema of the contract to the JSON Schema a tool advertises, compacted: every schema is
 * sent to the model on each turn, so what carries no meaning for it goes (see {@link compactJsonSchema}).
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return compactJsonSchema(json);
}

/**
 * A zod schema as a tool registers it: validated by zod, advertised with {@link toJsonSchema} (zod's own
 * conversion would keep what the compaction drops).
 */
export function compacted<T extends z.ZodType>(
  schema: T,
  options: { readonly descriptions?: boolean } = {},
): StandardSchemaWithJSON<z.input<T>, z.output<T>> {
  const std = schema['~standard'];
  let input: JsonSchema | undefined;
  let output: JsonSchema | undefined;
  const convert = (io: 'input' | 'output') => {
    const json = toJsonSchema(schema, io);
    return options.descriptions === false ? withoutDescriptions(json) : json;
  };
  return {
    '~standard': {
      version: 1,
      vendor: std.vendor,
      validate: std.validate,
      jsonSchema: {
        input: () => (input ??= convert('input')),
        output: () => (output ??= convert('output')),
      },
    },
  };
}

/**
 * Drops what costs tokens without telling a model anything: the long regular expressions behind `format`
 * (date-time, date), the JavaScript safe-integer bounds, `propertyNames: string`, empty
 * `additionalProperties`; and turns the query-string boolean (`true | "true" | "1" | …`) into `boolean`.
 */
export function compactJsonSchema(schema: JsonSchema): JsonSchema {
  const bool = queryBoolean(schema);
  if (bool) return bool;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' && 'format' in schema) continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'propertyNames' && isPlainString(value)) continue;
    if (key === 'additionalProperties' && isEmptySchema(value)) continue;
    if (DATA.has(key) || value === null || typeof value !== 'object') out[key] = value;
    else if (SCHEMA_MAPS.has(key)) {
      const map: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value as JsonSchema)) map[name] = compactNode(sub);
      out[key] = map;
    } else out[key] = compactNode(value);
  }
  return out;
}

function compactNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactNode);
  if (node !== null && typeof node === 'object') return compactJsonSchema(node as JsonSchema);
  return node;
}

/** `anyOf: [boolean, enum of "true"/"false"/"1"/"0"]` → `boolean`, keeping the annotations. */
function queryBoolean(schema: JsonSchema): JsonSchema | undefined {
  const anyOf = schema.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return undefined;
  const [a, b] = anyOf as JsonSchema[];
  const strings = (s: JsonSchema | undefined) =>
    s?.type === 'string' &&
    Array.isArray(s.enum) &&
    s.enum.every((v) => typeof v === 'string' && QUERY_BOOLEAN_STRINGS.has(v));
  const isBool = (s: JsonSchema | undefined) => s?.type === 'boolean';
  if (!((isBool(a) && strings(b)) || (isBool(b) && strings(a)))) return undefined;
  const { anyOf: _, ...rest } = schema;
  return { type: 'boolean', ...rest };
}

function isPlainString(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    Object.keys(value).length === 1 &&
    (value as JsonSchema).type === 'string'
  );
}

function isEmptySchema(value: unknown): boolean {
  return value !== null && typeof value === 'object' && Object.keys(value).length === 0;
}

/**
 * A property as a tool list advertises an optional parameter: its name's type and choices only. Its
 * description and limits stay with `explore`, which answers the full schema of any action: a model needs
 * the names to see what exists, and asks for the rest when it uses one. (Validation is unchanged: the
 * action's zod schema checks every call.)
 */
export function leanProperty(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.enum)) return { enum: schema.enum };
  const out: JsonSchema = {};
  const types = new Set<unknown>();
  const collect = (s: JsonSchema) => {
    if (Array.isArray(s.anyOf)) for (const b of s.anyOf as JsonSchema[]) collect(b);
    else if (Array.isArray(s.enum)) for (const v of s.enum) types.add(typeof v);
    else if (s.type !== undefined) for (const t of [s.type].flat()) types.add(t);
  };
  collect(schema);
  if (types.size === 1) out.type = [...types][0];
  else if (types.size > 1) out.type = [...types];
  const items = schema.items as JsonSchema | undefined;
  if (out.type === 'array' && items && typeof items === 'object') out.items = leanProperty(items);
  return out;
}

/** A copy of a schema without `description` keywords (property names called `description` stay). */
function withoutDescriptions(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description') continue;
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') {
      const map: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value as JsonSchema))
        map[name] = sub !== null && typeof sub === 'object' ? withoutDescriptions(sub as JsonSchema) : sub;
      out[key] = map;
    } else if (Array.isArray(value))
      out[key] = value.map((v) =>
        v !== null && typeof v === 'object' && !DATA.has(key) ? withoutDescriptions(v as JsonSchema) : v,
      );
    else if (value !== null && typeof value === 'object' && !DATA.has(key))
      out[key] = withoutDescriptions(value as JsonSchema);
    else out[key] = value;
  }
  return out;
}
