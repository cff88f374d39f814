import { HttpError } from '../../../core/http/errors.js';
import { randomId } from '../../../core/ids/index.js';

/** Coverage cursors start with this; the platform's own cursors never do. */
const PREFIX = 'cov_';
const TOKEN = /^cov_([0-9a-f]{32})_([1-9]\d{0,8})$/;

/** A coverage cursor: the walk it resumes and the step (answer number) it resumes after. */
export interface CoverageToken {
  walkId: string;
  step: number;
}

/** A new walk id: 128 random bits, so a cursor cannot be guessed. */
export function newWalkId(): string {
  return randomId();
}

/** The cursor that resumes `walkId` after answer `step`. */
export function encodeToken(walkId: string, step: number): string {
  return `${PREFIX}${walkId}_${step}`;
}

/** True for a cursor of a coverage walk (well formed or not), as opposed to a platform cursor. */
export function isCoverageToken(cursor: string | undefined): cursor is string {
  return cursor?.startsWith(PREFIX) === true;
}

/** The walk and step of a coverage cursor; 400 `invalid_coverage_cursor` when it is not one this server issues. */
export function decodeToken(cursor: string): CoverageToken {
  const m = TOKEN.exec(cursor);
  if (!m?.[1] || !m[2]) {
    throw new HttpError(
      'invalid_coverage_cursor',
      'cursor: not a coverage cursor of this service; pass back `next_cursor` as given',
    );
  }
  return { walkId: m[1], step: Number(m[2]) };
}
