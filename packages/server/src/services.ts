import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { JobsEngine } from './core/jobs/index.js';
import type { Db } from './db/database.js';
import type { Credits } from './features/billing/credits.js';
import type { RateLimiter } from './features/rate-limit/rate-limiter.js';
import type { Platform } from './platform/platform.js';

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
  /**
   * Active monitors of an account, for `GET /account`. The monitors feature provides it; a server without
   * that feature mounted has none.
   */
  readonly monitorsUsed: (accountId: string) => Promise<number>;
  /** The origin used in links (`statusUrl`, `Link` headers): the public URL or the listen address. */
  readonly publicUrl: () => string;
}
