import { UsageError } from '../errors.js';
import { findItems } from './render.js';

/** A compiled `--jq` program: every output of the filter for one input. */
export type JqProgram = (input: unknown) => Iterable<unknown>;

/**
 * How `--json` output is shaped: `--json id,text` keeps these fields (of each item of a listing, else of
 * the answer), then `--jq` filters the result. The same for every command, whatever the other flags.
 */
export interface JsonShape {
  readonly fields?: readonly string[];
  readonly jq?: JqProgram;
}

/**
 * Compiles a `--jq` filter with a pure-JavaScript jq (loaded only now); a syntax error is a usage error
 * before anything is sent.
 */
export async function compileJq(expression: string): Promise<JqProgram> {
  const { compile } = await import('@michaelhomer/jqjs');
  try {
    return compile(expression);
  } catch (err) {
    throw new UsageError(
      `--jq: ${err instanceof Error ? err.message : String(err)}`,
      'See https://jqlang.org/manual/ for the syntax, e.g. --jq ".items[].id".',
      'invalid_input',
      '--jq',
    );
  }
}

/**
 * The lines printed for a JSON value: indented JSON, or with `--jq` one line per output (strings raw,
 * as gh and `jq -r` print them; anything else as compact JSON).
 */
export function shapedLines(value: unknown, shape: JsonShape, itemsKey?: string): string[] {
  const selected = shape.fields ? selectFields(value, shape.fields, itemsKey) : value;
  if (!shape.jq) return [toJson(selected, false)];
  const lines: string[] = [];
  try {
    for (const out of shape.jq(selected)) lines.push(typeof out === 'string' ? out : toJson(out, true));
  } catch (err) {
    throw new UsageError(
      `--jq: ${err instanceof Error ? err.message : String(err)}`,
      undefined,
      'invalid_input',
      '--jq',
    );
  }
  return lines;
}

function toJson(value: unknown, compact: boolean): string {
  return JSON.stringify(value ?? null, jsonReplacer, compact ? undefined : 2);
}

/** Bigints (never in answers, but possible in a hand-made value) as strings, not a crash. */
function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Keeps `fields` (dotted paths) of what the answer is about, in the answer's own shape: each item of a
 * list (the page object keeps its other fields), else the object an answer wraps alone (`{ tweet }`),
 * else the answer itself. A field an object lacks is `null`, as gh prints it.
 */
export function selectFields(value: unknown, fields: readonly string[], itemsKey?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, fields));
  const found = findItems(value, itemsKey);
  if (found && isRecord(value) && found.kind !== undefined) {
    return { ...value, [found.kind]: found.items.map((v) => pick(v, fields)) };
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    const [only] = entries;
    if (entries.length === 1 && isRecord(only![1]) && !fields.some((f) => f.split('.')[0] === only![0])) {
      return { [only![0]]: pick(only![1], fields) };
    }
  }
  return pick(value, fields);
}

/** The fields of one object, nested as their paths say (`author.username` → `{ author: { username } }`). */
function pick(item: unknown, fields: readonly string[]): unknown {
  if (!isRecord(item)) return item;
  const out: Record<string, unknown> = {};
  for (const path of fields) {
    const parts = path.split('.');
    let from: unknown = item;
    let to = out;
    parts.forEach((part, i) => {
      from = isRecord(from) ? from[part] : undefined;
      if (i === parts.length - 1) to[part] = from ?? null;
      else {
        if (!isRecord(to[part])) to[part] = {};
        to = to[part] as Record<string, unknown>;
      }
    });
  }
  return out;
}
