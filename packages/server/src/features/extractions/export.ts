import type { QueryOf } from '@xsvc/sdk/contract';
import type { Kysely } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import type { Cell, ExportColumn, ExportTable, RowSource } from '../../core/exports/table.js';
import { type ApiJob, type ApiResult, toApiResult } from './mappers.js';
import { resultRows } from './repository.js';

/**
 * The export's row filters: the query of `exportExtraction` (derived from the contract, so a filter renamed
 * there is a type error here), without its `format`.
 */
export type ExportFilters = Omit<QueryOf<'exportExtraction'>, 'format'>;

/** A result with the one fact its record does not carry: whether its tweet has media. */
export interface ExportableResult {
  result: ApiResult;
  hasMedia: boolean;
}

const atLeast = (v: number | undefined, min: number | undefined) => min === undefined || (v ?? 0) >= min;
const atMost = (v: number | undefined, max: number | undefined) => max === undefined || (v ?? 0) <= max;
const has = (v: string | undefined, want: boolean | undefined) => want === undefined || Boolean(v) === want;

/** Whether a result passes every filter of the export (a missing count reads as 0, a missing date fails). */
export function exportMatcher(f: ExportFilters): (r: ExportableResult) => boolean {
  const since = f.sinceDate === undefined ? undefined : Date.parse(`${f.sinceDate}T00:00:00Z`);
  const until = f.untilDate === undefined ? undefined : Date.parse(`${f.untilDate}T00:00:00Z`);
  const needle = f.search?.toLowerCase();
  return ({ result: r, hasMedia }) => {
    const e = r.enrichmentData ?? {};
    const at = r.tweetCreatedAt === undefined ? Number.NaN : Date.parse(r.tweetCreatedAt);
    return (
      atLeast(r.xFollowersCount, f.minFollowers) &&
      atMost(r.xFollowersCount, f.maxFollowers) &&
      atLeast(e.followingCount, f.minFollowing) &&
      atMost(e.followingCount, f.maxFollowing) &&
      atLeast(e.statusesCount, f.minPosts) &&
      atMost(e.statusesCount, f.maxPosts) &&
      atLeast(e.likeCount, f.minLikes) &&
      atLeast(e.replyCount, f.minReplies) &&
      atLeast(e.repostCount, f.minRetweets) &&
      atLeast(e.viewCount, f.minViews) &&
      has(e.description, f.hasDescription) &&
      has(e.location, f.hasLocation) &&
      (f.hasMedia === undefined || hasMedia === f.hasMedia) &&
      (f.verified === undefined || (r.xVerified ?? false) === f.verified) &&
      (f.lang === undefined || e.lang?.toLowerCase() === f.lang.toLowerCase()) &&
      (needle === undefined ||
        [r.xUsername, r.xDisplayName, r.tweetText, e.description, e.title].some((t) =>
          t?.toLowerCase().includes(needle),
        )) &&
      (since === undefined || at >= since) &&
      (until === undefined || at < until)
    );
  };
}

/** Every column a result can fill, most telling first (a PDF shows the first few). */
const COLUMNS: readonly ExportColumn[] = [
  { key: 'id', label: 'Id' },
  { key: 'target', label: 'Target' },
  { key: 'xUsername', label: 'Username' },
  { key: 'xDisplayName', label: 'Name' },
  { key: 'xUserId', label: 'User id' },
  { key: 'xFollowersCount', label: 'Followers' },
  { key: 'xVerified', label: 'Verified' },
  { key: 'tweetId', label: 'Tweet id' },
  { key: 'tweetText', label: 'Tweet' },
  { key: 'tweetCreatedAt', label: 'Posted' },
  { key: 'title', label: 'Title' },
  { key: 'description', label: 'Bio' },
  { key: 'location', label: 'Location' },
  { key: 'followingCount', label: 'Following' },
  { key: 'statusesCount', label: 'Posts' },
  { key: 'likeCount', label: 'Likes' },
  { key: 'replyCount', label: 'Replies' },
  { key: 'repostCount', label: 'Reposts' },
  { key: 'quoteCount', label: 'Quotes' },
  { key: 'viewCount', label: 'Views' },
  { key: 'bookmarkCount', label: 'Bookmarks' },
  { key: 'lang', label: 'Language' },
  { key: 'previewText', label: 'Preview' },
  { key: 'bodyText', label: 'Body' },
  { key: 'favouritesCount', label: 'Likes given' },
  { key: 'mediaCount', label: 'Media' },
  { key: 'conversationId', label: 'Conversation' },
  { key: 'source', label: 'Client' },
  { key: 'xProfileImageUrl', label: 'Avatar' },
  { key: 'coverPicture', label: 'Banner' },
  { key: 'createdAt', label: 'Collected' },
];

/** A result as one flat row: its fields and its enrichment side by side. */
function flat(r: ApiResult): Record<string, Cell> {
  const { enrichmentData, targets, ...core } = r;
  // A merged result lists every target that found it in one cell.
  return { ...core, ...(targets && { target: targets.join(', ') }), ...enrichmentData };
}

/** Results read per database page while an export is written. */
const PAGE = 1_000;

/** The results of a job that pass the export's filters, in id order, read a page at a time. */
export async function* matchingResults(
  db: Kysely<Database>,
  jobId: string,
  keep: (r: ExportableResult) => boolean,
): AsyncGenerator<ApiResult> {
  for (let after = 0; ; ) {
    const page = await resultRows(db, jobId, after, PAGE);
    for (const row of page) {
      const result = toApiResult(row);
      if (keep({ result, hasMedia: Number(row.has_media) === 1 })) yield result;
    }
    const last = page[page.length - 1];
    if (page.length < PAGE || !last) return;
    after = num(last.seq);
  }
}

/** What an export needs to know before it writes: how many results it holds and which columns they fill. */
export interface ResultsSurvey {
  readonly count: number;
  readonly usedKeys: ReadonlySet<string>;
}

/** Counts `results` and the columns they fill (a first pass, so that the export itself can stream). */
export async function surveyResults(results: AsyncIterable<ApiResult>): Promise<ResultsSurvey> {
  let count = 0;
  const usedKeys = new Set<string>(['id']);
  for await (const r of results) {
    count++;
    for (const [k, v] of Object.entries(flat(r))) if (v !== undefined) usedKeys.add(k);
  }
  return { count, usedKeys };
}

/**
 * The results of a job as an export table: the columns any of them fills, one row per result, read as
 * the file is written; the JSON format holds the job and the results as the API shows them.
 */
export function resultsTable(
  job: ApiJob,
  survey: ResultsSurvey,
  results: RowSource<ApiResult>,
): ExportTable<ApiResult> {
  const target = job.targets
    ? job.targets.map((t) => (job.targetUsername !== undefined ? `@${t}` : t)).join(', ')
    : job.targetUsername !== undefined
      ? `@${job.targetUsername}`
      : (job.targetTweetId ??
        job.targetCommunityId ??
        job.targetListId ??
        job.targetSpaceId ??
        job.searchQuery);
  return {
    title: `Extraction ${job.id}: ${job.toolType}`,
    meta: [
      ['Job', job.id],
      ['Tool', job.toolType],
      ...(target === undefined ? [] : [['Target', target] as [string, string]]),
      ['Status', job.status],
      ['Started', job.createdAt],
      ...(job.completedAt === undefined ? [] : [['Completed', job.completedAt] as [string, string]]),
      ['Results', String(survey.count)],
    ],
    columns: COLUMNS.filter((c) => survey.usedKeys.has(c.key)),
    rowCount: survey.count,
    rows: results,
    cells: flat,
    json: { head: { job }, key: 'results', item: (r) => r },
  };
}
