import { Readable } from 'node:stream';
import type { XsvcMcpHttpHandler } from '@xsvc/mcp';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, type Principal } from '../../core/auth/authenticate.js';
import { injectFetch } from '../../core/http/inject-fetch.js';
import type { Services } from '../../core/services.js';

/**
 * The `WWW-Authenticate` challenge of an unauthenticated MCP call (spec 5.3.2): realm `OAuth`, where the
 * protected-resource metadata is, and the scope to ask for.
 */
export function mcpChallenge(services: Services, error?: string): string {
  const base = services.publicUrl();
  const parts = [
    'Bearer realm="OAuth"',
    `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    'scope="mcp:tools"',
  ];
  if (error) parts.push(`error="${error}"`);
  return parts.join(', ');
}

function bearerOf(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  return /^Bearer\s+(.+)$/i.exec(Array.isArray(h) ? (h[0] ?? '') : (h ?? ''))?.[1]?.trim();
}

/**
 * The remote MCP endpoint (spec 1.2, 4.16, 5.3): the tools of `@xsvc/mcp` over Streamable HTTP, for an
 * OAuth access token (`Bearer xat_…`) or an API key as a bearer token. Without one: 401 with the OAuth
 * challenge that lets an MCP client discover the authorization server. Each tool call goes through this
 * server's own REST API as the caller (in-process, no network), with its limits, metering and errors. The
 * tools are read-only unless `XSVC_MCP_ENABLE_WRITES` is set.
 */
export function registerMcpRoute(app: FastifyInstance, services: Services): void {
  let handler: XsvcMcpHttpHandler | undefined;
  const handlerFor = async (): Promise<XsvcMcpHttpHandler> => {
    if (handler) return handler;
    // Loaded on the first call: the MCP SDK stays off the start-up path of a server nobody asks for it.
    const [{ createXsvcMcpHttpHandler }, { Xsvc }] = await Promise.all([
      import('@xsvc/mcp'),
      import('@xsvc/sdk'),
    ]);
    const fetch = injectFetch(app);
    handler = createXsvcMcpHttpHandler(
      (token) =>
        new Xsvc({
          ...(token.startsWith('svc_') ? { apiKey: token } : { bearerToken: token }),
          baseUrl: services.publicUrl(),
          fetch,
          maxRetries: 0,
        }),
      { enableWrites: services.config.mcpEnableWrites },
    );
    return handler;
  };
  app.addHook('onClose', async () => {
    await handler?.close();
  });

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerOf(request);
    let principal: Principal | undefined;
    if (token) {
      try {
        principal = await authenticate(
          services.database.db,
          { authorization: `Bearer ${token}` },
          services.clock.now(),
        );
      } catch {
        principal = undefined;
      }
    }
    if (!token || !principal) {
      return reply
        .status(401)
        .header('www-authenticate', mcpChallenge(services, token ? 'invalid_token' : undefined))
        .send({
          error: 'unauthenticated',
          message: token
            ? 'the bearer token is invalid, expired or revoked: refresh it or authorize again'
            : 'the MCP endpoint needs an OAuth access token (see the WWW-Authenticate challenge) or an API key as a bearer token',
        });
    }
    if (principal.mode === 'guest') {
      // A guest key's only scope is `paid_reads` on REST reads (spec 5.5): no tool call would be served, so
      // the endpoint refuses it whole (RFC 6750 3.1) rather than list tools that all fail.
      return reply.status(403).header('www-authenticate', mcpChallenge(services, 'insufficient_scope')).send({
        error: 'forbidden',
        message:
          'a guest key is for paid reads over the REST API only (scope paid_reads): the MCP endpoint needs an OAuth access token (scope mcp:tools) or an API key',
      });
    }
    const url = new URL(request.url, services.publicUrl());
    const headers = new Headers();
    for (const [k, v] of Object.entries(request.headers)) {
      if (v === undefined) continue;
      for (const value of Array.isArray(v) ? v : [v]) headers.append(k, value);
    }
    const hasBody = request.method === 'POST' && request.body !== undefined;
    const webRequest = new Request(url, {
      method: request.method,
      headers,
      ...(hasBody && { body: JSON.stringify(request.body) }),
    });
    const response = await (await handlerFor()).fetch(webRequest, {
      token,
      clientId: principal.mode,
      ...(hasBody && { parsedBody: request.body }),
    });
    reply.status(response.status);
    response.headers.forEach((value, key) => {
      if (key !== 'content-length') reply.header(key, value);
    });
    if (!response.body) return reply.send();
    return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
  };
  app.route({ method: ['GET', 'POST', 'DELETE'], url: '/mcp', handler: serve });
}
