import type { schemas } from '@xsvc/sdk/contract';

/** The media type of the catalog (RFC 9727 section 4.2): a linkset with the api-catalog profile. */
export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/**
 * The API catalog (RFC 9727) of an origin: one linkset entry anchored at the origin, linking the OpenAPI
 * descriptions (JSON and YAML), the guides, the OAuth metadata and the health check.
 */
export function apiCatalog(base: string): schemas.ApiCatalog {
  return {
    linkset: [
      {
        anchor: `${base}/api/v1`,
        'service-desc': [
          {
            href: `${base}/openapi.json`,
            type: 'application/openapi+json',
            title: 'OpenAPI 3.1 description (JSON)',
          },
          {
            href: `${base}/openapi.yaml`,
            type: 'application/openapi+yaml',
            title: 'OpenAPI 3.1 description (YAML)',
          },
        ],
        'service-doc': [
          { href: `${base}/docs`, type: 'text/html', title: 'Guides' },
          { href: `${base}/docs/deprecations.md`, type: 'text/markdown', title: 'Deprecation policy' },
        ],
        'service-meta': [
          {
            href: `${base}/.well-known/oauth-authorization-server`,
            type: 'application/json',
            title: 'OAuth authorization server metadata',
          },
          {
            href: `${base}/.well-known/oauth-protected-resource/mcp`,
            type: 'application/json',
            title: 'OAuth protected resource metadata (MCP)',
          },
        ],
        status: [{ href: `${base}/health`, type: 'application/json', title: 'Health check' }],
      },
    ],
  };
}
