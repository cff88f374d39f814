/** Reading MCP tool results in tests. */

/** The text of a tool result's first content block ('' when there is none). */
export function textOf(result: { content?: unknown }): string {
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

/** A tool result's structured content as a record. */
export function structured(result: { structuredContent?: unknown }): Record<string, unknown> {
  return (result.structuredContent ?? {}) as Record<string, unknown>;
}
