import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { AnyOperation } from '@xsvc/sdk/contract';
import { z } from 'zod';
import { actionJsonSchema } from './actions.js';
import type { Catalog, CatalogEntry } from './catalog.js';
import { isWrite } from './exposure.js';
import { compacted, type JsonSchema, toJsonSchema } from './json-schema.js';
import type { ResolvedOptions } from './options.js';
import type { ExploreOutput } from './output-schema.js';

/** The input of the `explore` tool. */
export const ExploreInput = z.object({
  query: z.string().optional().describe('Words to find in operation names, paths and descriptions.'),
  tag: z.string().optional().describe('A toolset or tool (tweets, x_write, …) or a reference tag.'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  limit: z.number().int().min(1).max(20).optional().describe('Most results, default 5.'),
});
export type ExploreInput = z.infer<typeof ExploreInput>;

/** The input as the tool registers it. */
export const EXPLORE_INPUT = compacted(ExploreInput);

/** The tool's title and description: what it finds, and that schemas come with the results. */
export const EXPLORE_TITLE = 'Explore the API';
export const EXPLORE_DESCRIPTION =
  'Search the API catalog by words, tag or method. Answers the tool, action and params schema of each operation found (with its response schema and notes when at most 2 match), and why one is not available.';

/** `explore` reads the catalog of this package only. */
export const EXPLORE_ANNOTATIONS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Whether an entry can be called on this server, and why not. */
export type Availability = (entry: CatalogEntry) => string | undefined;

/** Why an entry cannot be called on a server with these options, or undefined when it can. */
export function unavailable(entry: CatalogEntry, options: ResolvedOptions): string | undefined {
  if (entry.withheld !== undefined) return `not served: ${entry.withheld}`;
  const tool = entry.tool;
  if (!tool) return 'not served.';
  if (!options.code && !options.toolsets.has(tool.toolset))
    return `toolset ${tool.toolset} is not enabled (--toolsets).`;
  if (tool.write && !options.writes) return 'writes are disabled: start the server with --enable-writes.';
  return undefined;
}

/** Above this many results, only the params schema of each is answered (response schemas are large). */
const DETAIL_LIMIT = 2;
const responseCache = new WeakMap<AnyOperation, JsonSchema>();

/**
 * Searches the catalog: every word must appear somewhere (names and paths weigh more than descriptions);
 * `tag` matches a toolset, a tool or a reference tag; `method` the HTTP method.
 */
export function explore(input: ExploreInput, catalog: Catalog, unavailable: Availability): ExploreOutput {
  const words = (input.query ?? '')
    .toLowerCase()
    .split(/[^a-z0-9_]+/)
    .filter(Boolean);
  const tag = input.tag === undefined ? undefined : norm(input.tag);
  const scored: { entry: CatalogEntry; score: number; index: number }[] = [];
  catalog.entries.forEach((entry, index) => {
    const { op } = entry;
    if (input.method && op.method !== input.method) return;
    if (
      tag !== undefined &&
      ![op.tag, entry.tool?.toolset, entry.tool?.name].some((t) => t && norm(t) === tag)
    )
      return;
    let score = 0;
    if (words.length > 0) {
      const strong = [op.id, op.sdk.join(' '), entry.tool?.name, entry.action?.name, op.path]
        .join(' ')
        .toLowerCase();
      const weak = `${op.summary} ${op.description ?? ''} ${op.tag}`.toLowerCase();
      for (const w of words) {
        const s = strong.includes(w) ? 3 : weak.includes(w) ? 1 : 0;
        if (s === 0) return;
        score += s;
      }
    }
    if (unavailable(entry) === undefined) score += 0.5;
    scored.push({ entry, score, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  const found = scored.slice(0, input.limit ?? 5);
  const detail = found.length <= DETAIL_LIMIT;
  return {
    total: scored.length,
    operations: found.map(({ entry }) => describe(entry, unavailable(entry), detail)),
  };
}

function describe(
  entry: CatalogEntry,
  unavailable: string | undefined,
  detail: boolean,
): Record<string, unknown> {
  const { op, tool, action } = entry;
  return {
    operation: op.id,
    method: op.method,
    path: op.path,
    tool: tool?.name ?? null,
    action: action?.name ?? null,
    summary: op.summary,
    write: isWrite(op),
    available: unavailable === undefined,
    ...(unavailable !== undefined && { unavailable }),
    cost: op.cost.kind === 'free' ? 'free' : op.cost,
    ...(op.pagination && { paginated: true }),
    ...(action && { params: actionJsonSchema(action, { inline: true }) }),
    ...(detail && op.description && { description: op.description }),
    ...(detail && { response: responseSchema(op) }),
  };
}

function responseSchema(op: AnyOperation): JsonSchema {
  let s = responseCache.get(op);
  if (!s) {
    s = toJsonSchema(op.response, 'output');
    responseCache.set(op, s);
  }
  return s;
}

function norm(s: string): string {
  return s.toLowerCase().replace(/[\s_-]+/g, '');
}
