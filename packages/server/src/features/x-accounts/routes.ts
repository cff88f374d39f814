import type { RouteRegistrar } from '../../core/feature.js';
import { registerMultipartBodies } from '../../core/http/multipart.js';
import { registerXAccountSimRoutes } from './sim-routes.js';

/**
 * The plain routes of connected accounts and writes: the simulated platform's credentials, inbox and media
 * endpoints, and `multipart/form-data` bodies (uploads, avatars and banners are sent as files).
 */
export const registerXAccountRoutes: RouteRegistrar = (app, services) => {
  registerMultipartBodies(app);
  registerXAccountSimRoutes(app, services);
};
