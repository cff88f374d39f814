import type { z } from 'zod';
import { checkBound, defaultValueOf, defType, zodDef } from '../contract/introspect.js';

/**
 * Builds a value that satisfies a schema, for mock answers and documentation. Deterministic: the same
 * schema always gives the same example. Optional fields are filled in (richer mocks); unions take the first
 * branch that validates; paginated envelopes end (`has_next_page: false`, `hasMore: false`).
 */
export function exampleFor(schema: z.ZodType, key = '', depth = 0): unknown {
  const def = zodDef(schema);
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((schema as z.ZodObject).shape)) {
        if (depth > 4 && isOptional(v as z.ZodType)) continue;
        const value = exampleFor(v as z.ZodType, k, depth + 1);
        if (value !== undefined) out[k] = value;
      }
      if ('has_next_page' in out) out.has_next_page = false;
      if ('next_cursor' in out) out.next_cursor = '';
      if ('hasMore' in out) {
        out.hasMore = false;
        delete out.nextCursor;
      }
      return out;
    }
    case 'optional':
      return exampleFor(def.innerType as z.ZodType, key, depth);
    case 'nullable':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return exampleFor(def.innerType as z.ZodType, key, depth);
    case 'default':
    case 'prefault':
      return defaultValueOf(schema);
    case 'pipe':
      return exampleFor(def.in as z.ZodType, key, depth);
    case 'transform':
      return undefined;
    case 'lazy':
      return depth > 6 ? undefined : exampleFor((def.getter as () => z.ZodType)(), key, depth + 1);
    case 'array': {
      const el = exampleFor(def.element as z.ZodType, key, depth + 1);
      const min = checkBound(schema, 'min_length') ?? 0;
      return el === undefined ? [] : Array.from({ length: Math.max(1, min) }, () => el);
    }
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'union': {
      for (const o of def.options as z.ZodType[]) {
        const v = exampleFor(o, key, depth + 1);
        if (o.safeParse(v).success) return v;
      }
      return exampleFor((def.options as z.ZodType[])[0]!, key, depth + 1);
    }
    case 'intersection': {
      const l = exampleFor(def.left as z.ZodType, key, depth);
      const r = exampleFor(def.right as z.ZodType, key, depth);
      return typeof l === 'object' && typeof r === 'object' ? { ...(l as object), ...(r as object) } : l;
    }
    case 'record':
      return {};
    case 'string':
      return stringExample(schema, key);
    case 'number':
    case 'int': {
      const min = checkBound(schema, 'greater_than');
      const max = checkBound(schema, 'less_than');
      if (min !== undefined) return min;
      if (max !== undefined) return Math.min(max, 1);
      return /count|total|entries|attempts|followers|following/i.test(key) ? 3 : 1;
    }
    case 'boolean':
      return key.startsWith('is') || key === 'success';
    case 'null':
      return null;
    case 'bigint':
      return 1n;
    case 'date':
      return new Date(0);
    default:
      return undefined;
  }
}

function isOptional(s: z.ZodType): boolean {
  return defType(s) === 'optional';
}

const CANDIDATES = [
  '1790000000000000001',
  '2026-04-29T12:00:00.000Z',
  '2026-04-29',
  '00000000-0000-4000-8000-000000000001',
  'https://example.com/resource',
  'example@example.com',
  `svc_${'0'.repeat(64)}`,
  'xch_example',
  '#example',
  '@example',
  'example_1',
  'usd',
  'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk0123456789abcdefghijk',
  '0'.repeat(64),
  '0123456789abcdef0123456789abcdef',
  'example',
  'https://x.com/example/status/1790000000000000001',
  'ex',
  'a',
  '1',
  'https',
  '',
];

function stringExample(schema: z.ZodType, key: string): string {
  const s = schema as z.ZodString & { format?: string | null };
  const fmt = s.format ?? undefined;
  if (fmt === 'datetime') return '2026-04-29T12:00:00.000Z';
  if (fmt === 'date') return '2026-04-29';
  if (fmt === 'uuid' || fmt === 'guid') return '00000000-0000-4000-8000-000000000001';
  if (fmt === 'url') return 'https://example.com/resource';
  if (fmt === 'email') return 'example@example.com';
  const preferred: string[] = [];
  if (/At$|^timestamp$|expires/.test(key)) preferred.push('2026-04-29T12:00:00.000Z');
  if (/[iI]d$|^id$/.test(key)) preferred.push('1790000000000000001');
  if (/[uU]rl$|^url$/.test(key)) preferred.push('https://example.com/resource');
  if (/balance|credits|lifetime|threshold|Credits|Estimate|Burn|Day|Hour/.test(key)) preferred.push('1000');
  if (/username|userName/i.test(key)) preferred.push('example');
  for (const c of [...preferred, ...CANDIDATES]) if (schema.safeParse(c).success) return c;
  return 'example';
}
