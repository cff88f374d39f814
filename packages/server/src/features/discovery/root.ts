import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../core/services.js';
import { serverVersion } from './version.js';

/** Where a browser that opens the server's origin is sent: the dashboard (it asks to sign in when needed). */
export const DASHBOARD_PATH = '/dashboard';

/** What `GET /` answers an API client: the service's name, version and the surfaces it serves. */
export interface RootIndex {
  name: 'xsvc';
  version: string;
  links: {
    /** The base of the REST API's operations (`/api/v1/account`, `/api/v1/x/...`). */
    api: string;
    openapi: string;
    docs: string;
    dashboard: string;
    mcp: string;
    health: string;
  };
}

/** The index of the surfaces, as absolute links on `base`. */
export function rootIndex(base: string): RootIndex {
  return {
    name: 'xsvc',
    version: serverVersion(),
    links: {
      api: `${base}/api/v1`,
      openapi: `${base}/openapi.json`,
      docs: `${base}/docs`,
      dashboard: `${base}${DASHBOARD_PATH}`,
      mcp: `${base}/mcp`,
      health: `${base}/health`,
    },
  };
}

/** True when the client asks for a page (a browser's `Accept` names `text/html`), not for JSON. */
export function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (type !== 'text/html' && type !== 'application/xhtml+xml') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * `GET /` (outside the contract, like `/docs`): a browser is sent to the dashboard with 303; an API client
 * (curl, an SDK, anything not asking for HTML) gets a small JSON index of the surfaces. The answer depends on
 * `Accept`, which `Vary` says to caches.
 */
export function registerRoot(app: FastifyInstance, services: Services): void {
  app.get('/', async (request, reply) => {
    reply.header('vary', 'accept').header('cache-control', 'no-store');
    if (wantsHtml(request)) return reply.redirect(DASHBOARD_PATH, 303);
    return reply.send(rootIndex(services.publicUrl()));
  });
}
