import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../core/http/errors.js';
import { registerFormBodies } from '../../core/http/form-body.js';
import { escapeHtml, page } from '../../core/http/html.js';
import type { Services } from '../../core/services.js';
import { ASK_BODY_LIMIT, askErrorHandler } from './ask-errors.js';
import { guides, renderGuide } from './docs/index.js';
import { checkReadiness } from './readiness.js';
import { registerRoot } from './root.js';

/**
 * What the discovery endpoints need beyond their handlers: `/ask` routes with their own body limit (8 KiB) and
 * failure body, form bodies, and the guides under `/docs` (the deprecation policy that deprecated responses
 * link to is `/docs/deprecations.md`), the readiness probe `/health/ready` (liveness is the `getHealth`
 * operation) and `GET /`. Mounted before the operations, so the `onRoute` hook sees `/ask`.
 */
export function registerDiscoveryRoutes(app: FastifyInstance, services: Services): void {
  registerRoot(app, services);
  registerFormBodies(app, ['POST /ask']);
  app.addHook('onRoute', (route) => {
    if (route.url !== '/ask') return;
    route.bodyLimit = ASK_BODY_LIMIT;
    route.errorHandler = askErrorHandler;
  });

  app.get('/health/ready', async (request, reply) => {
    try {
      const ready = await checkReadiness(services);
      return reply.header('cache-control', 'no-store').send(ready);
    } catch (err) {
      request.log.warn(
        { cause: (err as { cause?: unknown }).cause },
        'not ready: the database is unavailable',
      );
      reply.header('cache-control', 'no-store');
      throw err;
    }
  });

  const bySlug = new Map(guides.map((g) => [`${g.slug}.md`, renderGuide(g)]));

  app.get('/docs', async (_request, reply) => {
    const base = services.publicUrl();
    const items = guides
      .map(
        (g) =>
          `<li><a href="/docs/${escapeHtml(g.slug)}.md">${escapeHtml(g.title)}</a>: ${escapeHtml(g.summary)}</li>`,
      )
      .join('\n');
    const body = `<h1>Guides</h1>
<ul>
${items}
</ul>
<p>The API: <a href="/openapi.json">OpenAPI 3.1 (JSON)</a>, <a href="/openapi.yaml">YAML</a>,
<a href="/.well-known/api-catalog">API catalog</a>. Search: <code>GET ${escapeHtml(base)}/ask?query=…</code>.</p>`;
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(page('Guides', body));
  });

  app.get<{ Params: { file: string } }>('/docs/:file', async (request, reply) => {
    const text = bySlug.get(request.params.file);
    if (!text) throw new HttpError('not_found', `no guide ${request.params.file}; the list is at /docs`);
    return reply
      .header('content-type', 'text/markdown; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(text);
  });
}
