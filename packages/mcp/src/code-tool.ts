import type { StandardSchemaWithJSON, ToolAnnotations } from '@modelcontextprotocol/server';
import type { Action } from './actions.js';
import type { Catalog, CatalogEntry } from './catalog.js';
import { type Issue, idempotencyKeyIssue, parseActionParams, type ToolArgs } from './input-schema.js';
import type { JsonSchema } from './json-schema.js';
import type { ResolvedOptions } from './options.js';

/** The name of the toolset that serves the whole API as two tools: `explore` and `call`. */
export const CODE_TOOLSET = 'code';

/** The validated arguments of `call`: the action serving the operation, and its parsed params. */
export interface CallArgs extends ToolArgs {
  readonly entry: CatalogEntry & { readonly action: Action };
}

export const CALL_TITLE = 'Call an operation';
export const CALL_DESCRIPTION =
  'Call any operation of the API by its id (find it, and its params schema, with explore first). Lists answer `next_cursor`: pass it back as params.cursor. Writes take an optional idempotency_key.';

/** `call` may write when writes are enabled; it always reaches the service. */
export function callAnnotations(options: ResolvedOptions): ToolAnnotations {
  return {
    readOnlyHint: !options.writes,
    destructiveHint: options.writes,
    idempotentHint: !options.writes,
    openWorldHint: true,
  };
}

const INPUT_JSON: JsonSchema = {
  type: 'object',
  properties: {
    operation: { type: 'string', description: 'Operation id as explore answers it (searchTweets).' },
    params: { type: 'object', description: 'Path, query and body parameters in one object.' },
    idempotency_key: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'Writes: repeat the key of a call whose outcome you did not see; it is not done twice.',
    },
  },
  required: ['operation'],
  additionalProperties: false,
};

/**
 * The input schema of `call`: the operation must be one this server serves (`unavailable` says why not),
 * and its params are validated by the same zod schema as the grouped tool's action.
 */
export function callInputSchema(
  catalog: Catalog,
  unavailable: (entry: CatalogEntry) => string | undefined,
): StandardSchemaWithJSON<unknown, CallArgs> {
  const byId = new Map(catalog.entries.map((e) => [e.op.id, e]));
  const fail = (issues: Issue[]) => ({ issues });
  return {
    '~standard': {
      version: 1,
      vendor: 'xsvc-mcp',
      validate(value: unknown) {
        if (value === null || typeof value !== 'object' || Array.isArray(value))
          return fail([{ message: 'expected an object with operation and params' }]);
        const input = value as Record<string, unknown>;
        const unknown = Object.keys(input).filter(
          (k) => k !== 'operation' && k !== 'params' && k !== 'idempotency_key',
        );
        if (unknown.length > 0)
          return fail([{ message: `unknown argument(s) ${unknown.join(', ')}: put parameters in params` }]);
        const id = input.operation;
        const entry = typeof id === 'string' ? byId.get(id) : undefined;
        if (!entry)
          return fail([
            {
              message: 'not an operation id: find one with explore (searchTweets, createMonitor, …)',
              path: ['operation'],
            },
          ]);
        const why = unavailable(entry);
        if (why !== undefined || !entry.action)
          return fail([
            { message: `${entry.op.id} cannot be called here: ${why ?? 'not served.'}`, path: ['operation'] },
          ]);
        const key = input.idempotency_key;
        const keyFailure = idempotencyKeyIssue(key);
        if (keyFailure) return fail([keyFailure]);
        const params = input.params ?? {};
        if (params === null || typeof params !== 'object' || Array.isArray(params))
          return fail([{ message: 'must be an object', path: ['params'] }]);
        const parsed = parseActionParams(
          entry.action,
          params as Record<string, unknown>,
          `operation ${entry.op.id}`,
        );
        if ('issues' in parsed) return fail(parsed.issues);
        return {
          value: {
            entry: entry as CallArgs['entry'],
            action: entry.action.name,
            params: parsed.params,
            ...(typeof key === 'string' && { idempotency_key: key }),
          },
        };
      },
      jsonSchema: { input: () => INPUT_JSON, output: () => INPUT_JSON },
    },
  };
}
