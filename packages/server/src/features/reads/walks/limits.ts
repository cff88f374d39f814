/** The bounds of coverage walks (documented in the README, checked by its test). */

/** A coverage cursor stays resumable this long after the answer that issued it (each answer renews it). */
export const COVERAGE_TTL_MS = 60 * 60_000;
/** How long one request holds a walk; a concurrent request on it meanwhile answers 409. */
export const COVERAGE_LEASE_MS = 30_000;
/** An answer reads no further platform page after this much time (stop reason `deadline`). */
export const COVERAGE_DEADLINE_MS = 10_000;
/** Platform pages one coverage answer may read (stop reason `page_limit`). */
export const COVERAGE_MAX_PAGES = 50;
/** Platform pages a standard answer reads before the service switches to automatic coverage. */
export const STANDARD_MAX_PAGES = 25;
