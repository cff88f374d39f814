import { buildServer, type RouteRegistrar, type ServerDeps, type XsvcServer } from './app.js';
import type { Config } from './config.js';
import { accountHandlers } from './features/account/handlers.js';
import { registerCheckoutRoutes } from './features/checkout/routes.js';
import { creditsHandlers } from './features/credits/handlers.js';
import { discoveryHandlers } from './features/discovery/handlers.js';
import { registerDiscoveryRoutes } from './features/discovery/routes.js';
import { readHandlers } from './features/reads/index.js';
import { registerSessionRoutes } from './features/sessions/routes.js';
import { registerSimRoutes } from './features/sim/routes.js';
import type { HandlerMap } from './http/handler.js';
import type { Platform } from './platform/platform.js';
import { SimulatedPlatform, seedNetwork } from './platform/simulated/index.js';
import { createXApiPlatform } from './platform/xapi/index.js';
import type { Services } from './services.js';

/** Every feature's handlers, mounted by {@link createServer}. */
export const featureHandlers: readonly HandlerMap[] = [
  accountHandlers,
  creditsHandlers,
  discoveryHandlers,
  readHandlers,
];

/** Every feature's plain routes (not contract operations), mounted by {@link createServer}. */
export const featureRoutes: readonly RouteRegistrar[] = [
  registerDiscoveryRoutes,
  registerSessionRoutes,
  registerCheckoutRoutes,
  registerSimRoutes,
];

/**
 * The platform a configuration asks for: the simulated network (seeded on first start, kept in the same
 * database) or the X API v2.
 */
export async function platformFor(config: Config, services: Omit<Services, 'platform'>): Promise<Platform> {
  if (config.platform === 'xapi') {
    return createXApiPlatform({ bearerToken: config.xBearerToken ?? '', baseUrl: config.xApiBaseUrl });
  }
  await seedNetwork(services.database.db, {
    size: config.seedSize,
    seed: config.seed,
    now: services.clock.now(),
  });
  return new SimulatedPlatform(services.database.db, services.clock);
}

/**
 * Builds the service for a configuration: storage, the platform, every feature; not listening (the
 * `xsvc-server` bin listens; tests call `server.app.inject()`).
 */
export function createServer(config: Config, deps: ServerDeps = {}): Promise<XsvcServer> {
  return buildServer(config, {
    ...deps,
    platform: deps.platform ?? ((services) => platformFor(config, services)),
    handlers: [...featureHandlers, ...(deps.handlers ?? [])],
    routes: [...featureRoutes, ...(deps.routes ?? [])],
  });
}
