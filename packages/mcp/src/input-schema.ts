import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { Action } from './actions.js';
import type { ToolDef } from './catalog.js';

/** The validated arguments of a grouped tool. */
export interface ToolArgs {
  readonly action: string;
  /** The action's params, parsed by its schema. */
  readonly params: Record<string, unknown>;
  readonly idempotency_key?: string;
}

/** A validation failure, as Standard Schema reports it. */
export type Issue = { readonly message: string; readonly path?: readonly PropertyKey[] };

/** The failure of an `idempotency_key` argument, or undefined when it is absent or valid. */
export function idempotencyKeyIssue(key: unknown): Issue | undefined {
  if (key === undefined || (typeof key === 'string' && key.length > 0 && key.length <= 255)) return undefined;
  return { message: 'must be a string of 1-255 characters', path: ['idempotency_key'] };
}

/** Parses an action's params with its zod schema; the issues name `label` (`action search`). */
export function parseActionParams(
  action: Action,
  params: Record<string, unknown>,
  label: string,
): { readonly params: Record<string, unknown> } | { readonly issues: Issue[] } {
  const parsed = action.params.safeParse(params);
  if (parsed.success) return { params: (parsed.data ?? {}) as Record<string, unknown> };
  return {
    issues: parsed.error.issues.map((i) => ({
      message: `${i.message} (${label})`,
      path: ['params', ...i.path],
    })),
  };
}

/**
 * The input schema a grouped tool registers: validation picks the action's own zod schema (so errors name
 * the action's fields, not every branch of a union), and the advertised JSON Schema is the catalog's.
 */
export function toolInputSchema(tool: ToolDef): StandardSchemaWithJSON<unknown, ToolArgs> {
  const filterArgs = new Set([...tool.actions.values()].flatMap((a) => [...a.filters.keys()]));
  const takesKey = [...tool.actions.values()].some((a) => a.idempotencyKey);
  const allowed = new Set(['action', 'params', ...filterArgs, ...(takesKey ? ['idempotency_key'] : [])]);
  const names = [...tool.actions.keys()].join(', ');
  const fail = (issues: Issue[]) => ({ issues });
  return {
    '~standard': {
      version: 1,
      vendor: 'xsvc-mcp',
      validate(value: unknown) {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) {
          return fail([{ message: `expected an object with action and params` }]);
        }
        const input = value as Record<string, unknown>;
        const unknown = Object.keys(input).filter((k) => !allowed.has(k));
        if (unknown.length > 0) {
          return fail([{ message: `unknown argument(s) ${unknown.join(', ')}: put parameters in params` }]);
        }
        const action = typeof input.action === 'string' ? tool.actions.get(input.action) : undefined;
        if (!action) return fail([{ message: `must be one of: ${names}`, path: ['action'] }]);
        const key = input.idempotency_key;
        const keyFailure = idempotencyKeyIssue(key);
        if (keyFailure) return fail([keyFailure]);
        const params = input.params ?? {};
        if (params === null || typeof params !== 'object' || Array.isArray(params)) {
          return fail([{ message: 'must be an object', path: ['params'] }]);
        }
        const merged: Record<string, unknown> = { ...(params as Record<string, unknown>) };
        for (const name of filterArgs) {
          const given = input[name];
          if (given === undefined) continue;
          const keys = action.filters.get(name);
          if (!keys) return fail([{ message: `action ${action.name} takes no ${name}`, path: [name] }]);
          if (given === null || typeof given !== 'object' || Array.isArray(given)) {
            return fail([{ message: 'must be an object', path: [name] }]);
          }
          for (const [k, v] of Object.entries(given)) {
            if (!keys.includes(k))
              return fail([{ message: `not a filter of action ${action.name}`, path: [name, k] }]);
            merged[k] = v;
          }
        }
        const parsed = parseActionParams(action, merged, `action ${action.name}`);
        if ('issues' in parsed) return fail(parsed.issues);
        return {
          value: {
            action: action.name,
            params: parsed.params,
            ...(typeof key === 'string' && { idempotency_key: key }),
          },
        };
      },
      jsonSchema: { input: () => tool.inputJson, output: () => tool.inputJson },
    },
  };
}
