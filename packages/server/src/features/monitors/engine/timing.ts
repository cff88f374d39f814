/** The engine's timing and batch sizes. */
export interface EngineTiming {
  /** Time between checks (spec 6.2: every second). */
  intervalMs: number;
  /** How long a claimed shard stays an instance's without renewal. */
  leaseMs: number;
  /**
   * How far each check re-reads behind its watermark, for tweets committed after a later one (ids are
   * issued before the insert commits) and for clock skew between instances.
   */
  lookbackMs: number;
  /** Tweets read per platform call of a check. */
  pageSize: number;
  /** Platform calls a check makes at most per stream (then it goes on at the next check). */
  maxPages: number;
}

/**
 * The defaults: a check a second, 3 s leases (renewed by every check, so the shards of an instance that
 * died are taken over by the others within about three checks), a 2 s look-back, up to 20 pages of 1,000
 * tweets.
 */
export const DEFAULT_TIMING: EngineTiming = {
  intervalMs: 1_000,
  leaseMs: 3_000,
  lookbackMs: 2_000,
  pageSize: 1_000,
  maxPages: 20,
};
