import type { schemas } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import { num } from '../../core/db/database.js';
import type { JobRow, ResultRow } from './repository.js';
import type { StoredResult } from './results.js';
import { specTargets } from './targets.js';
import type { ExtractionSpec } from './tools.js';

const iso = (ms: bigint | number) => new Date(Number(ms)).toISOString();

/** A job in the API's shape (spec 2.8): target fields only for the tools that use them. */
export type ApiJob = z.input<typeof schemas.ExtractionJobSchema>;
/** A result in the API's shape. */
export type ApiResult = z.input<typeof schemas.ExtractionResultSchema>;

/** The `targets` of a job run on several targets (none for a single-target job). */
function jobTargets(row: JobRow): Pick<ApiJob, 'targets'> {
  const targets = specTargets(JSON.parse(row.params) as ExtractionSpec);
  return targets.length > 1 ? { targets } : {};
}

/** A stored job in the API's shape. */
export function toApiJob(row: JobRow): ApiJob {
  const opt = <K extends string>(key: K, v: string | null) =>
    v === null ? {} : ({ [key]: v } as Record<K, string>);
  return {
    id: row.id,
    toolType: row.tool_type as ApiJob['toolType'],
    status: row.status as ApiJob['status'],
    totalResults: num(row.total_results),
    ...opt('targetTweetId', row.target_tweet_id),
    ...opt('targetUsername', row.target_username),
    ...opt('targetUserId', row.target_user_id),
    ...opt('targetCommunityId', row.target_community_id),
    ...opt('targetListId', row.target_list_id),
    ...opt('targetSpaceId', row.target_space_id),
    ...opt('searchQuery', row.search_query),
    ...jobTargets(row),
    ...(row.status === 'failed' && opt('errorMessage', row.error_message)),
    createdAt: iso(row.created_at),
    ...(row.status === 'completed' && row.completed_at !== null && { completedAt: iso(row.completed_at) }),
    ...(row.status === 'completed' && completeness(row.error_message)),
  };
}

/**
 * Spec 2.8 and 3.2: a completed job carries no `errorMessage`; one that stopped early (the runner notes
 * `pagination_stalled: …` or `insufficient_credits: …`) is marked `complete: false` with the reason, its
 * results kept.
 */
function completeness(note: string | null): Pick<ApiJob, 'complete' | 'incompleteReason'> {
  const code = note?.split(':', 1)[0];
  if (code === 'pagination_stalled' || code === 'insufficient_credits')
    return { complete: false, incompleteReason: code };
  return { complete: true };
}

/** How much of each result a read returns (`outputMode`): `compact` leaves the enrichment out. */
export type OutputMode = 'compact' | 'full' | 'raw';

/** A stored result in the API's shape; its id is its position in the job, from 1. */
export function toApiResult(row: ResultRow, mode: OutputMode = 'full'): ApiResult {
  const data = JSON.parse(row.data) as StoredResult;
  const { enrichmentData, ...core } = data;
  return {
    id: String(num(row.seq)),
    ...core,
    createdAt: iso(row.created_at),
    ...(mode !== 'compact' && enrichmentData !== undefined && { enrichmentData }),
  };
}
