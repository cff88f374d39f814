import type { Kysely } from 'kysely';
import { num } from '../db/database.js';
import type { Database } from '../db/schema.js';

/** The rate limit an upstream API reported for one endpoint. */
export interface UpstreamLimit {
  /** The endpoint (`GET /2/tweets/search/recent`). */
  endpoint: string;
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** When the current window ends (epoch ms). */
  resetAt: number;
  /** When an answer reported these figures (epoch ms). */
  seenAt: number;
}

/**
 * The upstream rate limits shared by every instance on one database (`upstream_rate_limits`, one row per
 * endpoint): an instance saves what the X API's headers said, and every instance reads the latest figures,
 * so all of them pace their monitor checks by one budget (the limits are the app's, not an instance's).
 */
export class UpstreamLimits {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Saves the figures of each endpoint, unless the row holds newer ones (a later `seen_at`): the last answer
   * wins, whichever instance got it.
   */
  async save(limits: readonly UpstreamLimit[]): Promise<void> {
    for (const l of limits) {
      const row = {
        endpoint: l.endpoint,
        max_requests: l.limit,
        remaining: l.remaining,
        reset_at: l.resetAt,
        seen_at: l.seenAt,
      };
      await this.db
        .insertInto('upstream_rate_limits')
        .values(row)
        .onConflict((oc) =>
          oc
            .column('endpoint')
            .doUpdateSet({
              max_requests: row.max_requests,
              remaining: row.remaining,
              reset_at: row.reset_at,
              seen_at: row.seen_at,
            })
            .where('upstream_rate_limits.seen_at', '<=', row.seen_at),
        )
        .execute();
    }
  }

  /** Every endpoint's latest figures. */
  async load(): Promise<UpstreamLimit[]> {
    const rows = await this.db.selectFrom('upstream_rate_limits').selectAll().execute();
    return rows.map((r) => ({
      endpoint: r.endpoint,
      limit: num(r.max_requests),
      remaining: num(r.remaining),
      resetAt: num(r.reset_at),
      seenAt: num(r.seen_at),
    }));
  }
}
