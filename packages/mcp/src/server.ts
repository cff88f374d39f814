import { McpServer } from '@modelcontextprotocol/server';
import { runAction } from './call.js';
import { getCatalog, type ToolDef } from './catalog.js';
import { CALL_DESCRIPTION, CALL_TITLE, callAnnotations, callInputSchema } from './code-tool.js';
import {
  EXPLORE_ANNOTATIONS,
  EXPLORE_DESCRIPTION,
  EXPLORE_INPUT,
  EXPLORE_TITLE,
  explore,
  unavailable,
} from './explore.js';
import { toolInputSchema } from './input-schema.js';
import { type ResolvedOptions, resolveOptions, type XsvcMcpOptions } from './options.js';
import { OUTPUT_SCHEMAS } from './output-schema.js';
import { success } from './result.js';
import { VERSION } from './version.js';

const INSTRUCTIONS =
  'Tools of the Social Data and Automation Service, grouped by area. Each takes `action` and `params` (the params branch titled with the action); lists answer `next_cursor`, passed back as params.cursor. `explore` searches every operation and gives its schemas; `call` (toolset code) calls any operation by id. Every result is `{ action, data }`: `data` is the API answer (null on error, then `error` says the code, message and next step); a durable write adds `status` (success or pending: do not send a pending one again) and `write_action_id`. Writes are served only when enabled.';

/**
 * Builds an MCP server exposing the service through `client`: one read tool per enabled toolset, one write
 * tool per toolset with writes when they are enabled, and `explore`. Not connected: hand it to a transport
 * (`serveStdio`, an in-memory pair, or the server's `/mcp` handler, which calls this once per request; the
 * tool schemas are built once per process).
 */
export function createXsvcMcpServer(options: XsvcMcpOptions): McpServer {
  const resolved = resolveOptions(options);
  const server = new McpServer(
    { name: 'xsvc', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const transport = options.client.transport;
  for (const tool of servedTools(resolved)) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: toolInputSchema(tool),
        outputSchema: tool.write ? OUTPUT_SCHEMAS.write : OUTPUT_SCHEMAS.read,
        annotations: tool.annotations,
      },
      async (args, ctx) => {
        // The input schema accepted only this tool's actions.
        const action = tool.actions.get(args.action)!;
        return runAction(action, args, {
          transport,
          callTimeoutMs: resolved.callTimeoutMs,
          writeWaitMs: resolved.writeWaitMs,
          signal: ctx.mcpReq.signal,
        });
      },
    );
  }
  const catalog = getCatalog();
  server.registerTool(
    'explore',
    {
      title: EXPLORE_TITLE,
      description: EXPLORE_DESCRIPTION,
      inputSchema: EXPLORE_INPUT,
      outputSchema: OUTPUT_SCHEMAS.explore,
      annotations: EXPLORE_ANNOTATIONS,
    },
    async (input) => success(explore(input, catalog, (entry) => unavailable(entry, resolved))),
  );
  if (resolved.code) {
    server.registerTool(
      'call',
      {
        title: CALL_TITLE,
        description: CALL_DESCRIPTION,
        inputSchema: callInputSchema(catalog, (entry) => unavailable(entry, resolved)),
        outputSchema: OUTPUT_SCHEMAS.call,
        annotations: callAnnotations(resolved),
      },
      async (args, ctx) =>
        runAction(args.entry.action, args, {
          transport,
          callTimeoutMs: resolved.callTimeoutMs,
          writeWaitMs: resolved.writeWaitMs,
          signal: ctx.mcpReq.signal,
        }),
    );
  }
  return server;
}

/** The grouped tools a server with these options serves, in listing order (`explore` not included). */
export function servedTools(options: ResolvedOptions): ToolDef[] {
  return getCatalog().tools.filter((t) => options.toolsets.has(t.toolset) && (options.writes || !t.write));
}
