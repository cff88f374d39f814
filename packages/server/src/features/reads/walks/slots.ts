import { HttpError } from '../../../core/http/errors.js';
import type { Services } from '../../../core/services.js';

/** Seconds a caller turned away by a full house is told to wait before trying again. */
export const COVERAGE_BUSY_RETRY_S = 1;

/**
 * Counts the coverage answers this process is building at once. A coverage answer may read up to
 * `COVERAGE_MAX_PAGES` platform pages for up to `COVERAGE_DEADLINE_MS`, so the number running together is
 * bounded (`XSVC_MAX_COVERAGE_WALKS`); one account may hold at most half of them (at least one), so a single
 * caller cannot keep everyone else out.
 */
export class CoverageSlots {
  private running = 0;
  private readonly perAccount = new Map<string, number>();

  constructor(readonly max: number) {}

  /** The most one account may hold at once. */
  get accountMax(): number {
    return Math.max(1, Math.floor(this.max / 2));
  }

  /**
   * Takes a slot for `accountId`, or throws 503 `service_unavailable` (reference `MaximumCoverageBusy`) with
   * `Retry-After` when the process or the account is at its bound. Nothing has been read or charged then.
   * Returns the release function; call it exactly once when the answer is done.
   */
  acquire(accountId: string): () => void {
    const mine = this.perAccount.get(accountId) ?? 0;
    if (this.running >= this.max || mine >= this.accountMax) {
      const who =
        mine >= this.accountMax
          ? `this account already has ${mine} coverage reads running (at most ${this.accountMax})`
          : `the service is running its maximum of ${this.max} coverage reads`;
      throw new HttpError(
        'service_unavailable',
        `maximum coverage is busy: ${who}; retry in ${COVERAGE_BUSY_RETRY_S} s (nothing was charged)`,
        { retryAfter: COVERAGE_BUSY_RETRY_S },
        503,
        { 'retry-after': String(COVERAGE_BUSY_RETRY_S) },
      );
    }
    this.running++;
    this.perAccount.set(accountId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const left = (this.perAccount.get(accountId) ?? 1) - 1;
      if (left > 0) this.perAccount.set(accountId, left);
      else this.perAccount.delete(accountId);
    };
  }
}

const slotsOf = new WeakMap<Services, CoverageSlots>();

/** The coverage slots of one server (one per `Services`, sized by its configuration). */
export function coverageSlots(services: Services): CoverageSlots {
  let slots = slotsOf.get(services);
  if (!slots) {
    slots = new CoverageSlots(services.config.maxCoverageWalks);
    slotsOf.set(services, slots);
  }
  return slots;
}
