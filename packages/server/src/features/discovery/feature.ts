import { defineFeature } from '../../core/feature.js';
import { discoveryHandlers } from './handlers.js';
import { registerDiscoveryRoutes } from './routes.js';

/** Discovery (spec 4.10): the OpenAPI document, the catalog, `/docs`, `/ask` and the well-known documents. */
export const discoveryFeature = defineFeature({
  name: 'discovery',
  handlers: discoveryHandlers,
  routes: registerDiscoveryRoutes,
});
