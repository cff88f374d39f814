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
export function compacted<T extends z.ZodType>(schema: T): StandardSchemaWithJSON<z.input<T>, z.output<T>> {
  const std = schema['~standard'];
  let input: JsonSchema | undefined;
  let output: JsonSchema | undefined;
  return {
    '~standard': {
      version: 1,
      vendor: std.vendor,
      validate: std.validate,
      jsonSchema: {
        input: () => (input ??= toJsonSchema(schema, 'input')),
        output: () => (output ??= toJsonSchema(schema, 'output')),
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
