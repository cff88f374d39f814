import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { Xsvc } from '@xsvc/sdk';
import { createHandlers } from '@xsvc/sdk/testing';
import { setupServer } from 'msw/node';
import { createXsvcMcpServer, type XsvcMcpOptions } from '../src/index.js';

export const BASE = 'http://xsvc.test';
export const KEY = `svc_${'ab'.repeat(32)}`;

/** The service mocked from the contract: every operation answers a schema-valid example. */
export const api = setupServer(...createHandlers({ baseUrl: BASE }));

/** An MCP client connected in memory to a server built with these options. */
export async function connect(options: Omit<XsvcMcpOptions, 'client'> = {}): Promise<{
  mcp: Client;
  close: () => Promise<void>;
}> {
  const client = new Xsvc({ apiKey: KEY, baseUrl: BASE, logger: { warn: () => {} } });
  const server = createXsvcMcpServer({ client, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: 'xsvc-mcp-test', version: '1.0.0' });
  await mcp.connect(clientSide);
  return {
    mcp,
    close: async () => {
      await mcp.close();
      await server.close();
    },
  };
}

/** The text of a tool result's first content block. */
export function textOf(result: { content?: unknown }): string {
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

/** A tool result's structured content as a record. */
export function structured(result: { structuredContent?: unknown }): Record<string, unknown> {
  return (result.structuredContent ?? {}) as Record<string, unknown>;
}
