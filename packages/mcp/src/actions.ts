import { type AnyOperation, defType, takesIdempotencyKey, unwrapSchema } from '@xsvc/sdk/contract';
import { type Route, routes } from '@xsvc/sdk/transport';
import { z } from 'zod';
import type { Area } from './areas.js';
import { isDestructive, isWrite, reachesOutside } from './exposure.js';
import { filtersOf } from './filter-groups.js';
import { type JsonSchema, leanProperty, toJsonSchema } from './json-schema.js';

/** One operation as an action of a tool. */
export interface Action {
  /** The action name within its tool (`search`, `create_tweet`). */
  readonly name: string;
  readonly op: AnyOperation;
  readonly route: Route;
  readonly write: boolean;
  readonly destructive: boolean;
  readonly outside: boolean;
  /** Validates `params` (path parameters, query and body in one object). */
  readonly params: z.ZodType;
  /** The API parameter that `params.cursor` maps to, for paginated actions. */
  readonly cursorKey?: 'after' | 'cursor';
  /** Shared filter sets the action takes (by tool argument name), listed once per tool. */
  readonly filters: ReadonlyMap<string, readonly string[]>;
  /** True when the operation takes an `Idempotency-Key` (the contract declares it): `idempotency_key`. */
  readonly idempotencyKey: boolean;
}

/** Query keys that carry a page position; a paginated action takes `cursor` instead. */
const CURSOR_KEYS = new Set(['cursor', 'after', 'afterCursor']);

const cursorParam = z.string().optional().describe('`next_cursor` of the previous page.');

/**
 * Builds the action of an operation: its name (the SDK path without the area's own segment, snake_case;
 * a durable write is named by its write action) and the schema of its params: path parameters, query and
 * body merged; page positions replaced by `cursor`; deprecated parameters and file fields left out (a
 * file is sent by `url`, which then becomes required).
 */
export function buildAction(op: AnyOperation, area: Area): Action {
  const route = (routes as Readonly<Record<string, Route>>)[op.id];
  if (!route) throw new TypeError(`no route for operation ${op.id}`);
  const shape: Record<string, z.ZodType> = {};
  if (op.params) Object.assign(shape, op.params.shape);
  if (op.query) Object.assign(shape, op.query.shape);
  let bodyUnion: z.ZodType | undefined;
  if (op.body) {
    if (defType(op.body) === 'object') Object.assign(shape, (op.body as z.ZodObject).shape);
    else bodyUnion = op.body;
  }
  let cursorKey: 'after' | 'cursor' | undefined;
  if (op.pagination && op.query) {
    const keys = Object.keys(op.query.shape);
    if (keys.some((k) => CURSOR_KEYS.has(k))) {
      for (const k of CURSOR_KEYS) delete shape[k];
      shape.cursor = cursorParam;
      cursorKey = op.pagination === 'A' ? 'after' : 'cursor';
    }
  }
  for (const p of Object.keys(op.deprecated?.params ?? {})) delete shape[p];
  let droppedFile = false;
  for (const [k, v] of Object.entries(shape)) {
    if (defType(unwrapOptional(v)) === 'file') {
      delete shape[k];
      droppedFile = true;
    }
  }
  if (droppedFile && shape.url) {
    const about = shape.url.description;
    const required = unwrapOptional(shape.url);
    shape.url = about === undefined ? required : required.describe(about);
  }
  const params =
    bodyUnion === undefined
      ? z.strictObject(shape)
      : Object.keys(shape).length === 0
        ? bodyUnion
        : z.intersection(z.object(shape), bodyUnion);
  return {
    name: actionName(op, area),
    op,
    route,
    write: isWrite(op),
    destructive: isDestructive(op),
    outside: reachesOutside(op),
    params,
    ...(cursorKey !== undefined && { cursorKey }),
    filters: filtersOf(shape),
    idempotencyKey: takesIdempotencyKey(op),
  };
}

/** How {@link actionJsonSchema} renders the shared filter sets. */
export interface ActionSchemaOptions {
  /** List the filters among the params (for `explore`) instead of pointing to the tool's filter argument. */
  readonly inline?: boolean;
  /** The fields each filter argument of the tool lists, to name those this action does not take. */
  readonly offered?: ReadonlyMap<string, readonly string[]>;
  /**
   * Advertise parameters by name, type and choices (the tool list), required ones with their description:
   * `explore` answers the whole schema of any action.
   */
  readonly lean?: boolean;
  /** The price the tool's description states for most of its actions: not repeated on those. */
  readonly toolCost?: string;
}

/**
 * The JSON Schema of an action's params, titled with the action and described by its summary and cost.
 * In a tool, the shared filter sets are left out and named instead (the tool lists them once).
 */
export function actionJsonSchema(action: Action, options: ActionSchemaOptions = {}): JsonSchema {
  const json = toJsonSchema(action.params);
  let note = costNote(action.op);
  if (note !== '' && note === options.toolCost) note = '';
  if (!options.inline && action.filters.size > 0) {
    const props = { ...(json.properties as Record<string, unknown>) };
    const parts: string[] = [];
    for (const [name, keys] of action.filters) {
      for (const k of keys) delete props[k];
      const missing = (options.offered?.get(name) ?? keys).filter((k) => !keys.includes(k));
      parts.push(missing.length > 0 ? `${name} (not ${missing.join(', ')})` : name);
    }
    json.properties = props;
    note += `. Filters: ${parts.join('; ')}`;
  }
  if (options.lean) {
    leanObject(json);
    // The tool's `params` is an object already, and unknown keys are refused when the call is validated.
    delete json.type;
    delete json.additionalProperties;
  }
  return { title: action.name, description: `${action.op.summary}${note}`, ...json };
}

/**
 * Leans an object schema in place: every property by name, type and choices, required ones with their
 * description; the branches of a union (a body with variants) the same way.
 */
function leanObject(json: JsonSchema): void {
  if (json.properties) {
    const required = new Set((json.required as string[] | undefined) ?? []);
    const props: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(json.properties as Record<string, JsonSchema>))
      props[k] =
        required.has(k) && v.description !== undefined
          ? { ...leanProperty(v), description: v.description }
          : leanProperty(v);
    json.properties = props;
  }
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    const branches = json[key];
    if (Array.isArray(branches)) for (const b of branches as JsonSchema[]) leanObject(b);
  }
}

function actionName(op: AnyOperation, area: Area): string {
  if (op.writeAction) return op.writeAction;
  const renamed = area.rename?.[op.id];
  if (renamed) return renamed;
  const path = [...op.sdk];
  if (path.length > 1 && area.home.includes(path[0]!)) path.shift();
  return path.map(snakeCase).join('_');
}

function snakeCase(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** A short price tag: reads that cost credits say so, so an agent can weigh a call. */
export function costNote(op: AnyOperation): string {
  switch (op.cost.kind) {
    case 'per_call':
      return ` (${op.cost.credits} credit${op.cost.credits === 1 ? '' : 's'})`;
    case 'per_result':
      return ` (${op.cost.credits} credit/result)`;
    case 'metered':
      return ' (metered)';
    default:
      return '';
  }
}

/** The schema under one `.optional()`, else the schema itself. */
function unwrapOptional(schema: z.ZodType): z.ZodType {
  return defType(schema) === 'optional' ? unwrapSchema(schema, { kinds: ['optional'] }) : schema;
}
