import { defType, type Schema } from '@xsvc/sdk/contract';
import { z } from 'zod';

/** A JSON value, for documents built here. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** A JSON object (a JSON Schema, an OpenAPI object). */
export type JsonObject = { [key: string]: Json };

/**
 * Clamping `catch` schemas (the trends `count`) have no JSON Schema form: their inner schema describes what
 * is accepted, so they fall back to it; anything else unrepresentable is a contract bug and throws.
 */
const unrepresentable = (ctx: { zodSchema: unknown }) =>
  defType(ctx.zodSchema as Schema) === 'catch' ? ('any' as const) : ('throw' as const);

/** The conversion options shared by every schema of the document (JSON Schema 2020-12, the dialect of OAS 3.1). */
export const conversion = { target: 'draft-2020-12', unrepresentable } as const;

/**
 * Removes what does not belong inside an OpenAPI document: `$schema` and `$id` of standalone schemas, and
 * `additionalProperties: false`, because the API may add fields at any time and clients must ignore unknown
 * ones (spec 9.1), and the server keeps unknown request fields (they are never rejected).
 */
export function tidy<T extends Json>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => tidy(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$schema' || k === '$id') continue;
    if (k === 'additionalProperties' && v === false) continue;
    out[k] = tidy(v);
  }
  return out as T;
}

/** The JSON Schema of what a client sends (`input`: defaults make fields optional) or receives (`output`). */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  return tidy(z.toJSONSchema(schema, { ...conversion, io }) as JsonObject);
}
