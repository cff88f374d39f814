import type { Credits } from './billing/credits.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { SecretKeys } from './crypto/secret-box.js';
import type { Db } from './db/database.js';
import type { JobsEngine } from './jobs/index.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import type { Platform } from './platform/platform.js';
import type { Ports } from './ports.js';

/** What handlers and background work share: configuration, storage, the platform, time, billing, limits. */
export interface Services {
  readonly config: Config;
  readonly database: Db;
  readonly platform: Platform;
  readonly clock: Clock;
  readonly credits: Credits;
  readonly rateLimiter: RateLimiter;
  /** The server's one background-work engine (`core/jobs`): features register their job kinds on it. */
  readonly jobs: JobsEngine;
  /** What features offer each other (features never import each other); see {@link Ports}. */
  readonly ports: Ports;
  /**
   * The server's secret keys (`XSVC_SECRET_KEY` or the key file): the boxes that seal what it keeps at rest
   * and must read back, and the keys derived for other uses.
   */
  readonly secrets: SecretKeys;
  /** The origin used in links (`statusUrl`, `Link` headers): the public URL or the listen address. */
  readonly publicUrl: () => string;
}
