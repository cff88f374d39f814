import type { PageReader } from '../../../core/paging/gather.js';
import type { StopReason } from './walk.js';

/** Running totals a read reports in its diagnostic (newest and oldest id, reply counts, ...). */
export type Totals = Record<string, number | string>;

/** One answer of a read that supports coverage. */
export interface CoverageRequest<T> {
  /** The `mode` asked for: `standard`, `coverage`, or none (the service may switch to coverage). */
  mode: 'standard' | 'coverage' | undefined;
  cursor: string | undefined;
  /** Results wanted in this answer (page size or `limit`). */
  want: number;
  read: PageReader<T>;
  keep?: (item: T) => boolean;
  idOf: (item: T) => string;
  /** Platform pages a coverage answer may read (default `COVERAGE_MAX_PAGES`). */
  maxPages?: number;
  /** The walk's running totals after this answer's items, from the totals before it. */
  totals?: (before: Totals, items: readonly T[]) => Totals;
}

/** The common fields of a coverage diagnostic. */
export interface CoverageDiagnostic {
  mode: 'coverage' | 'automatic';
  complete: boolean;
  stopReason: StopReason;
  platformPages: number;
  duplicatesRemoved: number;
  cursorExpiresAt?: string;
}

/** An answer: its results, the cursor of the next one, and (for coverage) the diagnostic and totals. */
export interface CoverageAnswer<T> {
  items: T[];
  nextCursor: string | undefined;
  diagnostic?: CoverageDiagnostic;
  totals: Totals;
}
