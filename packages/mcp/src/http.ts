import { createMcpHandler } from '@modelcontextprotocol/server';
import type { Xsvc } from '@xsvc/sdk';
import type { XsvcMcpOptions } from './options.js';
import { createXsvcMcpServer } from './server.js';

/** Options of {@link createXsvcMcpHttpHandler}: the server options, without the client (made per caller). */
export type XsvcMcpHttpOptions = Omit<XsvcMcpOptions, 'client'>;

/** A web-standard MCP endpoint: `fetch(request, { token, parsedBody })` answers one HTTP request. */
export interface XsvcMcpHttpHandler {
  /**
   * Serves one request to the MCP endpoint as the caller whose credential is `token` (already verified by the
   * host: this handler does no authentication of its own). `parsedBody` is the JSON body when the host has
   * parsed it already.
   */
  fetch(
    request: Request,
    caller: { token: string; clientId?: string; parsedBody?: unknown },
  ): Promise<Response>;
  /** Closes open subscription streams. */
  close(): Promise<void>;
}

/**
 * The MCP server as an HTTP endpoint (Streamable HTTP, stateless: one fresh server per request, as the
 * service's `/mcp` serves it). `clientFor(token)` gives the SDK client the tools call through, acting as the
 * caller (for example an `Xsvc` whose `fetch` goes straight into the hosting server).
 */
export function createXsvcMcpHttpHandler(
  clientFor: (token: string) => Pick<Xsvc, 'transport'>,
  options: XsvcMcpHttpOptions = {},
): XsvcMcpHttpHandler {
  const handler = createMcpHandler(
    (ctx) => {
      const token = ctx.authInfo?.token;
      if (!token) throw new Error('the MCP endpoint was called without a verified credential');
      return createXsvcMcpServer({ ...options, client: clientFor(token) });
    },
    { responseMode: 'json' },
  );
  return {
    fetch: (request, caller) =>
      handler.fetch(request, {
        authInfo: { token: caller.token, clientId: caller.clientId ?? 'xsvc', scopes: ['mcp:tools'] },
        ...(caller.parsedBody !== undefined && { parsedBody: caller.parsedBody }),
      }),
    close: async () => {
      await handler.close();
    },
  };
}
