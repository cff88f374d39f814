/**
 * `@xsvc/server`: the self-hostable Social Data and Automation Service. `createServer(config)` builds it
 * without listening; the `xsvc-server` bin reads the configuration from the environment and listens.
 */
export type { ServerDeps, XsvcServer } from './app/app.js';
export type { BootstrapResult } from './app/bootstrap.js';
export { bootstrapOwner } from './app/bootstrap.js';
export type { Database } from './app/database.js';
export type { CreateServerDeps, FeatureOptions } from './app/server.js';
export { createServer, platformFor, serverFeatures } from './app/server.js';
export type { Clock } from './core/clock.js';
export { ManualClock, systemClock } from './core/clock.js';
export type { Config, ConfigInput } from './core/config.js';
export { ConfigError, configFromEnv, parseConfig } from './core/config.js';
export type { Db, DialectName } from './core/db/database.js';
export { openDatabase } from './core/db/database.js';
export { migrateToLatest } from './core/db/migrate.js';
export { type NewEvent, storeEvents } from './core/events/store.js';
export type { Feature } from './core/feature.js';
export type { Platform } from './core/platform/platform.js';
export type { AccountCheckReport } from './features/monitors/engine/account-checks.js';
export type { CheckReport, MonitorEngine, MonitorEngineOptions } from './features/monitors/engine/engine.js';
export type { EngineTiming } from './features/monitors/engine/timing.js';
export { monitorEngineOf } from './features/monitors/feature.js';
export { type AccountMonitorSeed, accountMonitorRow } from './features/monitors/monitor-rows.js';
export type { DeliveryEngine, EngineStats, RunSummary } from './features/webhooks/engine.js';
export type { WebhookOptions } from './features/webhooks/options.js';
export { deliveryEngineFor, wakeWebhookDeliveries } from './features/webhooks/runtime.js';
export type {
  BlankSimUser,
  SeedProgress,
  SeedProgressListener,
  SeedSize,
} from './platform/simulated/index.js';
export { blankSimUserRow, FIXED_ACCOUNTS, seedNetwork } from './platform/simulated/index.js';
