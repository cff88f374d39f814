import type { HandlerMap } from '../core/http/handler.js';
import type { Services } from '../core/services.js';
import { accountHandlers } from '../features/account/handlers.js';
import { registerCheckoutRoutes } from '../features/checkout/routes.js';
import { compositionHandlers, registerComposition } from '../features/composition/index.js';
import { creditsHandlers } from '../features/credits/handlers.js';
import { registerDashboard } from '../features/dashboard/routes.js';
import { discoveryHandlers } from '../features/discovery/handlers.js';
import { registerDiscoveryRoutes } from '../features/discovery/routes.js';
import { drawHandlers } from '../features/draws/handlers.js';
import { eventHandlers } from '../features/events/handlers.js';
import { extractionRoutes } from '../features/extractions/feature.js';
import { extractionHandlers } from '../features/extractions/handlers.js';
import type { ExtractionRunnerOptions } from '../features/extractions/runner.js';
import { guestWalletHandlers } from '../features/guest-wallets/handlers.js';
import { registerMcpRoute } from '../features/mcp/route.js';
import type { MonitorEngineOptions } from '../features/monitors/engine/engine.js';
import { createMonitorsFeature } from '../features/monitors/feature.js';
import { monitorHandlers } from '../features/monitors/handlers.js';
import { keywordMonitorHandlers } from '../features/monitors/keyword-handlers.js';
import { oauthHandlers } from '../features/oauth/handlers.js';
import { registerOAuthRoutes } from '../features/oauth/routes.js';
import { registerPaymentNetworkRoutes } from '../features/payments/sim-route.js';
import { registerGalleryRoutes } from '../features/reads/gallery/routes.js';
import { readHandlers } from '../features/reads/index.js';
import { registerSessionRoutes } from '../features/sessions/routes.js';
import { registerSimRoutes } from '../features/sim/routes.js';
import { registerSupport, supportHandlers } from '../features/support/handlers.js';
import { webhookHandlers } from '../features/webhooks/handlers.js';
import { registerWebhookRoutes } from '../features/webhooks/runtime.js';
import { writeHandlers } from '../features/writes/handlers.js';
import { xAccountHandlers } from '../features/x-accounts/handlers.js';
import { registerXAccountRoutes } from '../features/x-accounts/routes.js';
import type { Platform } from '../platform/platform.js';
import { SimulatedPlatform, seedNetwork } from '../platform/simulated/index.js';
import { createXApiPlatform } from '../platform/xapi/index.js';
import { buildServer, type RouteRegistrar, type ServerDeps, type XsvcServer } from './app.js';
import type { Config } from './config.js';

/** Every feature's handlers, mounted by {@link createServer}. */
export const featureHandlers: readonly HandlerMap[] = [
  accountHandlers,
  creditsHandlers,
  discoveryHandlers,
  readHandlers,
  monitorHandlers,
  keywordMonitorHandlers,
  eventHandlers,
  webhookHandlers,
  oauthHandlers,
  guestWalletHandlers,
  compositionHandlers,
  supportHandlers,
  drawHandlers,
  extractionHandlers,
  xAccountHandlers,
  writeHandlers,
];

/** Every feature's plain routes (not contract operations), mounted by {@link createServer}. */
export const featureRoutes: readonly RouteRegistrar[] = [
  registerDiscoveryRoutes,
  registerSessionRoutes,
  registerCheckoutRoutes,
  registerGalleryRoutes,
  registerSimRoutes,
  registerPaymentNetworkRoutes,
  registerWebhookRoutes,
  registerOAuthRoutes,
  registerMcpRoute,
  registerComposition,
  registerSupport,
  registerXAccountRoutes,
  registerDashboard,
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
  return new SimulatedPlatform(services.database.db, services.clock, { mediaBaseUrl: services.publicUrl });
}

/** What {@link createServer} accepts beside the configuration. */
export interface CreateServerDeps extends ServerDeps {
  /** The monitors' check engine: auto-start (default: on the system clock only), timing, a report hook. */
  monitors?: MonitorEngineOptions;
  /** The extraction job runner: background start (default on), page size, lease and poll timing. */
  extractions?: ExtractionRunnerOptions;
}

/**
 * Builds the service for a configuration: storage, the platform, every feature; not listening (the
 * `xsvc-server` bin listens; tests call `server.app.inject()`).
 */
export function createServer(config: Config, deps: CreateServerDeps = {}): Promise<XsvcServer> {
  // The monitors' check engine is per server (its own shard leases and state), so it is mounted here.
  const monitors = createMonitorsFeature(deps.monitors);
  return buildServer(config, {
    ...deps,
    platform: deps.platform ?? ((services) => platformFor(config, services)),
    monitorsUsed: deps.monitorsUsed ?? monitors.monitorsUsed,
    handlers: [...featureHandlers, ...(deps.handlers ?? [])],
    routes: [...featureRoutes, monitors.register, extractionRoutes(deps.extractions), ...(deps.routes ?? [])],
  });
}
