/**
 * `@xsvc/server`: the self-hostable Social Data and Automation Service. `createServer(config)` builds it
 * without listening; the `xsvc-server` bin reads the configuration from the environment and listens.
 */
export type { ServerDeps, XsvcServer } from './app.js';
export type { BootstrapResult } from './bootstrap.js';
export { bootstrapOwner } from './bootstrap.js';
export type { Clock } from './clock.js';
export { ManualClock, systemClock } from './clock.js';
export type { Config, ConfigInput } from './config.js';
export { ConfigError, configFromEnv, parseConfig } from './config.js';
export type { Db, DialectName } from './db/database.js';
export { openDatabase } from './db/database.js';
export { migrateToLatest } from './db/migrate.js';
export type { Platform } from './platform/platform.js';
export { createServer, platformFor } from './server.js';
