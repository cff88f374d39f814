import type { ExtractionSpec } from './tools.js';

/** The request a job keeps in `params`: the accepted request and, for account tools on several targets, their user ids. */
export type JobParams = ExtractionSpec & {
  /** The user id each target username resolved to when the job was accepted, in target order. */
  targetUserIds?: string[];
};

/** Where a job is: the target it reads (its index in the job's targets) and the platform cursor in it. */
export interface Progress {
  target: number;
  cursor?: string | undefined;
}

/**
 * The progress a job's `cursor` column holds. A single-target job keeps the platform cursor as it is (as
 * jobs always have); a job on several targets keeps `{"target":i,"cursor":c}`, so that a restarted job
 * resumes in the target it was reading.
 */
export function readProgress(cursor: string | null, multi: boolean): Progress {
  if (cursor === null) return { target: 0 };
  if (!multi) return { target: 0, cursor };
  const stored = JSON.parse(cursor) as { target: number; cursor?: string };
  return { target: stored.target, ...(stored.cursor !== undefined && { cursor: stored.cursor }) };
}

/** The `cursor` column for `progress` (see {@link readProgress}). */
export function writeProgress(progress: Progress, multi: boolean): string | null {
  if (!multi) return progress.cursor ?? null;
  return JSON.stringify({
    target: progress.target,
    ...(progress.cursor !== undefined && { cursor: progress.cursor }),
  });
}
