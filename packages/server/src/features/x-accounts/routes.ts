import type { RouteRegistrar } from '../../core/feature.js';
import { registerMultipartBodies } from '../../core/http/multipart.js';
import { registerXOAuthCallback } from './oauth-callback.js';
import { registerXAccountSimRoutes } from './sim-routes.js';

/**
 * The plain routes of connected accounts and writes: the simulated platform's credentials, inbox and media
 * endpoints, `multipart/form-data` bodies (uploads, avatars and banners are sent as files), and on the
 * xapi platform the callback of X's OAuth 2.0 consent.
 */
export const registerXAccountRoutes: RouteRegistrar = (app, services) => {
  registerMultipartBodies(app);
  registerXAccountSimRoutes(app, services);
  if (services.config.platform === 'xapi') registerXOAuthCallback(app, services);
};
