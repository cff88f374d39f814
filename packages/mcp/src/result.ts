import type { CallToolResult } from '@modelcontextprotocol/server';

/**
 * A successful tool result: the structured answer, and the same as compact JSON text for clients that only
 * read `content` (the MCP spec asks for both).
 */
export function success(output: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
}
