import type { Kysely } from 'kysely';
import type { Database } from '../../../core/db/schema.js';
import type { TimeIds } from '../../../core/ids/index.js';
import type { Platform } from '../../../core/platform/platform.js';
import type { ShardLeases } from './leases.js';
import { RecentKeys } from './recent-keys.js';
import type { EngineTiming } from './timing.js';

/** What each check of the engine works with. */
export interface CheckDeps {
  readonly db: Kysely<Database>;
  readonly platform: Platform;
  /** The ids of the events the check stores. */
  readonly ids: TimeIds;
  /** The shards this engine holds: a check covers their monitors only. */
  readonly leases: ShardLeases;
  readonly timing: EngineTiming;
}

/**
 * The common ground of the account and keyword checks: their dependencies, and the keys (`monitor:tweet`)
 * handled recently, kept long enough to cover the look-back each check reads again.
 */
export abstract class ShardChecks {
  protected readonly db: Kysely<Database>;
  protected readonly platform: Platform;
  protected readonly ids: TimeIds;
  protected readonly leases: ShardLeases;
  protected readonly timing: EngineTiming;
  protected readonly recent: RecentKeys;

  constructor(deps: CheckDeps) {
    ({
      db: this.db,
      platform: this.platform,
      ids: this.ids,
      leases: this.leases,
      timing: this.timing,
    } = deps);
    this.recent = new RecentKeys(4 * (this.timing.lookbackMs + this.timing.intervalMs));
  }
}
