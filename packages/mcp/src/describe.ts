import type { StandardSchemaWithJSON, ToolAnnotations } from '@modelcontextprotocol/server';
import { getCatalog } from './catalog.js';
import { CALL_DESCRIPTION, CALL_TITLE, callAnnotations, callInputSchema } from './code-tool.js';
import {
  EXPLORE_ANNOTATIONS,
  EXPLORE_DESCRIPTION,
  EXPLORE_INPUT,
  EXPLORE_TITLE,
  type ExploreInput,
  explore,
  unavailable,
} from './explore.js';
import { toolInputSchema } from './input-schema.js';
import { resolveOptions, type XsvcMcpOptions } from './options.js';
import { type ExploreOutput, OUTPUT_SCHEMAS } from './output-schema.js';
import { servedTools } from './server.js';

/** A tool as `tools/list` describes it. */
export interface ToolDescription {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema: Record<string, unknown>;
  readonly annotations: ToolAnnotations;
}

/**
 * The tools a server built with these options lists, without building one: for documentation, reviews
 * (the package snapshot-tests it) and measuring what the tool list costs in a model's context.
 */
export function describeTools(options: Omit<XsvcMcpOptions, 'client'> = {}): ToolDescription[] {
  const resolved = resolveOptions(options);
  const tools: ToolDescription[] = servedTools(resolved).map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: json(toolInputSchema(t), 'input'),
    outputSchema: json(t.write ? OUTPUT_SCHEMAS.write : OUTPUT_SCHEMAS.read, 'output'),
    annotations: t.annotations,
  }));
  tools.push({
    name: 'explore',
    title: EXPLORE_TITLE,
    description: EXPLORE_DESCRIPTION,
    inputSchema: json(EXPLORE_INPUT, 'input'),
    outputSchema: json(OUTPUT_SCHEMAS.explore, 'output'),
    annotations: EXPLORE_ANNOTATIONS,
  });
  if (resolved.code) {
    tools.push({
      name: 'call',
      title: CALL_TITLE,
      description: CALL_DESCRIPTION,
      inputSchema: json(
        callInputSchema(getCatalog(), (entry) => unavailable(entry, resolved)),
        'input',
      ),
      outputSchema: json(OUTPUT_SCHEMAS.call, 'output'),
      annotations: callAnnotations(resolved),
    });
  }
  return tools;
}

/**
 * Searches the operation catalog as the `explore` tool of a server with these options answers, without
 * building one (`limit` is not capped here: `{ limit: Infinity }` lists every operation).
 */
export function exploreCatalog(
  input: ExploreInput = {},
  options: Omit<XsvcMcpOptions, 'client'> = {},
): ExploreOutput {
  const resolved = resolveOptions(options);
  return explore(input, getCatalog(), (entry) => unavailable(entry, resolved));
}

/** The conversion the MCP SDK applies when it lists a tool. */
function json(schema: StandardSchemaWithJSON, io: 'input' | 'output'): Record<string, unknown> {
  const out = schema['~standard'].jsonSchema[io]({ target: 'draft-2020-12' });
  return io === 'input' ? { type: 'object', ...out } : out;
}
