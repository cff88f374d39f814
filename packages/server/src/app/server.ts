import type { Config } from '../core/config.js';
import type { Feature } from '../core/feature.js';
import { UpstreamLimits } from '../core/limits/upstream-limits.js';
import type { Platform } from '../core/platform/platform.js';
import type { Services } from '../core/services.js';
import { accountFeature } from '../features/account/feature.js';
import { checkoutFeature } from '../features/checkout/feature.js';
import { compositionFeature } from '../features/composition/feature.js';
import { creditsFeature } from '../features/credits/feature.js';
import { dashboardFeature } from '../features/dashboard/feature.js';
import { discoveryFeature } from '../features/discovery/feature.js';
import { drawsFeature } from '../features/draws/feature.js';
import { eventsFeature } from '../features/events/feature.js';
import { extractionsFeature } from '../features/extractions/feature.js';
import type { ExtractionRunnerOptions } from '../features/extractions/runner.js';
import { guestWalletsFeature } from '../features/guest-wallets/feature.js';
import { housekeepingFeature } from '../features/housekeeping/feature.js';
import { mcpFeature } from '../features/mcp/feature.js';
import type { MonitorEngineOptions } from '../features/monitors/engine/engine.js';
import { monitorsFeature } from '../features/monitors/feature.js';
import { oauthFeature } from '../features/oauth/feature.js';
import { paymentsFeature } from '../features/payments/feature.js';
import { readsFeature } from '../features/reads/feature.js';
import { sessionsFeature } from '../features/sessions/feature.js';
import { simFeature } from '../features/sim/feature.js';
import { supportFeature } from '../features/support/feature.js';
import { webhooksFeature } from '../features/webhooks/feature.js';
import type { WebhookOptions } from '../features/webhooks/options.js';
import { writesFeature } from '../features/writes/feature.js';
import { xAccountsFeature } from '../features/x-accounts/feature.js';
import { X_OAUTH_CALLBACK_PATH } from '../features/x-accounts/oauth-callback.js';
import { type SeedProgressListener, SimulatedPlatform, seedNetwork } from '../platform/simulated/index.js';
import { createXApiPlatform } from '../platform/xapi/index.js';
import { buildServer, type ServerDeps, type XsvcServer } from './app.js';

/** Settings of the features that run background work (tests give manual timing and stopped engines). */
export interface FeatureOptions {
  /** The monitors' check engine: auto-start (default: on the system clock only), timing, a report hook. */
  monitors?: MonitorEngineOptions;
  /** The extraction job runner: background start (default on), page size, lease and poll timing. */
  extractions?: ExtractionRunnerOptions;
  /** The webhook delivery engine: auto-start, DNS resolver, timeouts, jitter. */
  webhooks?: Partial<WebhookOptions>;
}

/**
 * Every feature of the service, in mounting order (their plain routes mount in this order, before all
 * operations). This list is the one place that knows every feature.
 */
export function serverFeatures(options: FeatureOptions = {}): Feature[] {
  return [
    discoveryFeature,
    sessionsFeature,
    checkoutFeature,
    readsFeature,
    simFeature,
    paymentsFeature,
    webhooksFeature(options.webhooks),
    oauthFeature,
    mcpFeature,
    compositionFeature,
    supportFeature,
    xAccountsFeature,
    dashboardFeature,
    monitorsFeature(options.monitors),
    extractionsFeature(options.extractions),
    accountFeature,
    creditsFeature,
    eventsFeature,
    guestWalletsFeature,
    drawsFeature,
    writesFeature,
    housekeepingFeature,
  ];
}

/**
 * The platform a configuration asks for: the simulated network (seeded on first start, kept in the same
 * database) or the X API v2. `onSeedProgress` hears how far a first seeding is (a start-up progress bar).
 */
export async function platformFor(
  config: Config,
  services: Omit<Services, 'platform'>,
  onSeedProgress?: SeedProgressListener,
): Promise<Platform> {
  if (config.platform === 'xapi') {
    return createXApiPlatform({
      bearerToken: config.xBearerToken ?? '',
      baseUrl: config.xApiBaseUrl,
      fullArchive: config.xApiFullArchive,
      searchQueryMax: config.xApiSearchQueryMax,
      budget: {
        store: new UpstreamLimits(services.database.db),
        defaults: config.xApiRateLimits,
        share: config.xApiMonitorShare,
        maxIntervalMs: config.xApiMonitorMaxInterval * 1000,
      },
      now: () => services.clock.now(),
      stream:
        config.xApiMonitorSource === 'stream'
          ? {
              db: services.database.db,
              owner: config.instanceId,
              limits: { maxRules: config.xApiStreamMaxRules, maxRuleLength: config.xApiStreamMaxRuleLength },
            }
          : undefined,
      oauth: config.xClientId
        ? {
            clientId: config.xClientId,
            clientSecret: config.xClientSecret,
            redirectUri: `${services.publicUrl()}${X_OAUTH_CALLBACK_PATH}`,
          }
        : undefined,
      media: { download: { allowLoopback: config.allowLoopbackWebhooks } },
    });
  }
  await seedNetwork(
    services.database.db,
    { size: config.seedSize, seed: config.seed, now: services.clock.now() },
    onSeedProgress,
  );
  return new SimulatedPlatform(services.database.db, services.clock, { mediaBaseUrl: services.publicUrl });
}

/** What {@link createServer} accepts beside the configuration. */
export interface CreateServerDeps extends Omit<ServerDeps, 'features'>, FeatureOptions {
  /** Hears the progress of the simulated network's first seeding (not called when it is already seeded). */
  onSeedProgress?: SeedProgressListener;
}

/**
 * Builds the service for a configuration: storage, the platform, every feature; not listening (the
 * `xsvc-server` bin listens; tests call `server.app.inject()`).
 */
export function createServer(config: Config, deps: CreateServerDeps = {}): Promise<XsvcServer> {
  return buildServer(config, {
    ...deps,
    platform: deps.platform ?? ((services) => platformFor(config, services, deps.onSeedProgress)),
    features: serverFeatures(deps),
  });
}
