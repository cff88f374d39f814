import type { schemas } from '@xsvc/sdk/contract';
import { Answer, defineHandlers, type HandlerContext } from '../../core/http/handler.js';
import { API_CATALOG_TYPE, apiCatalog } from './api-catalog.js';
import { type AskAnswer, type AskRequest, answer, eventStream, fromBody, fromFlat } from './ask/answer.js';
import { checkSite, countAsk } from './ask/limits.js';
import { authorizationServerMetadata, protectedResourceMetadata } from './metadata.js';
import { openApiDocument, openApiYaml } from './openapi-document.js';
import { serverVersion } from './version.js';

const CACHE = { 'cache-control': 'public, max-age=300' };

async function ask(ctx: HandlerContext, request: AskRequest): Promise<Answer | AskAnswer> {
  await countAsk(ctx);
  const base = ctx.services.publicUrl();
  checkSite(request.site, base);
  const body = answer(request, base);
  if (!request.streaming) return body;
  return new Answer(200, eventStream(body), {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
  });
}

/**
 * The public discovery endpoints (spec 1.2, 4.2, 5.3.1): the OpenAPI description generated from the
 * contract (JSON and YAML), the RFC 9727 API catalog, the health check, the OAuth metadata documents and the
 * documentation search. `{base_url}` is the server's public URL.
 */
export const discoveryHandlers = defineHandlers({
  getOpenApiJson: async (ctx) => {
    ctx.reply.headers(CACHE);
    return openApiDocument(ctx.services.publicUrl()) as schemas.OpenApiDocument;
  },

  getOpenApiYaml: async (ctx) =>
    new Answer(200, openApiYaml(ctx.services.publicUrl()), {
      'content-type': 'application/yaml; charset=utf-8',
      ...CACHE,
    }),

  getApiCatalog: async (ctx) => {
    const base = ctx.services.publicUrl();
    return new Answer(200, apiCatalog(base), {
      'content-type': API_CATALOG_TYPE,
      link: `<${base}/.well-known/api-catalog>; rel="api-catalog"`,
      ...CACHE,
    });
  },

  // Liveness: the process answers. It does not ask the database, which may be away for a while without
  // the process being broken (it recovers by itself); readiness, which does, is `GET /health/ready`.
  getHealth: async (ctx) => {
    ctx.reply.header('cache-control', 'no-store');
    return { status: 'ok', version: serverVersion() };
  },

  getAuthorizationServerMetadata: async (ctx) => {
    ctx.reply.headers(CACHE);
    return authorizationServerMetadata(ctx.services.publicUrl());
  },

  getProtectedResourceMetadata: async (ctx) => {
    ctx.reply.headers(CACHE);
    return protectedResourceMetadata(ctx.services.publicUrl());
  },

  askQuery: async (ctx) => ask(ctx, fromFlat(ctx.query)),

  askPost: async (ctx) => ask(ctx, fromBody(ctx.body)),
});
