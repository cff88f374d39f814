import { limits } from '@xsvc/sdk/contract';
import { assertExportSize } from '../../core/exports/limits.js';
import { downloadHeaders, exportStream, renderExport } from '../../core/exports/render.js';
import { errors, HttpError } from '../../core/http/errors.js';
import { Answer, defineHandlers } from '../../core/http/handler.js';
import { withPlatformErrors } from '../../core/http/platform-errors.js';
import { timeUuid } from '../../core/ids/index.js';
import { cursorCodec, LIST_POSITION, legacyTagged, pageOf } from '../../core/paging/cursor.js';
import { estimateExtraction } from './estimate.js';
import { exportMatcher, matchingResults, resultsTable, surveyResults } from './export.js';
import { type OutputMode, toApiJob, toApiResult } from './mappers.js';
import type { JobParams } from './progress.js';
import { findJob, insertJob, listJobRows, resultRows } from './repository.js';
import { enqueueExtraction } from './runner.js';
import { extractionRunner } from './runtime.js';
import { normalizeSpec, resolveTargets } from './targets.js';

const notFound = (id: string) => new HttpError('not_found', `no extraction job ${id}`);

/** Cursors of the extraction jobs list: the position of a page's last job. */
const JOBS_CURSOR = cursorCodec('extractions', LIST_POSITION, { legacy: legacyTagged('extractions') });

/** The result position an `after` cursor names (a result id); 400 `invalid_input` otherwise. */
function afterSeq(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  if (!/^\d{1,15}$/.test(cursor)) {
    throw new HttpError(
      'invalid_input',
      'after: must be the id of a result (the previous page’s nextCursor)',
    );
  }
  return Number(cursor);
}

/**
 * How much of each result a read returns. `includeRaw=true` (deprecated) means `outputMode=raw`; asking
 * for anything else at the same time, or for a shape this server does not produce (`outputPreset=flat`,
 * `fieldStyle=snake_case`), is 400 `invalid_output_options`.
 */
function outputMode(q: {
  outputMode?: OutputMode | undefined;
  includeRaw?: boolean | undefined;
  outputPreset?: string | undefined;
  fieldStyle?: string | undefined;
}): OutputMode {
  if (q.includeRaw && q.outputMode !== undefined && q.outputMode !== 'raw') {
    throw new HttpError(
      'invalid_output_options',
      `includeRaw=true asks for outputMode=raw, not ${q.outputMode}`,
    );
  }
  if (q.outputPreset === 'flat') {
    throw new HttpError('invalid_output_options', 'outputPreset=flat is not offered: results come nested');
  }
  if (q.fieldStyle === 'snake_case') {
    throw new HttpError(
      'invalid_output_options',
      'fieldStyle=snake_case is not offered here: use the opt-in contract header for snake_case',
    );
  }
  return q.outputMode ?? (q.includeRaw ? 'raw' : 'full');
}

/**
 * The Extractions operations (spec 2.8, 3.2, 4.8). A run checks its target (404s), answers 202 and leaves
 * the work to the server's job runner (see `ExtractionRunner`); reads show the job and its results in id
 * order, paged with `after`; exports write the results in any of the 7 formats.
 */
export const extractionHandlers = withPlatformErrors(
  defineHandlers({
    listExtractions: async (ctx) => {
      const { accountId } = ctx.requirePrincipal();
      const q = ctx.query;
      const token = q.after ?? q.cursor;
      const limit = q.limit ?? 50;
      const rows = await listJobRows(ctx.services.database.db, {
        accountId,
        toolType: q.toolType,
        status: q.status,
        after: JOBS_CURSOR.decode(token),
        limit,
      });
      const page = pageOf(
        JOBS_CURSOR,
        rows,
        limit,
        (r) => ({ createdAt: Number(r.created_at), id: r.id }),
        toApiJob,
      );
      return {
        extractions: page.items,
        hasMore: page.hasMore,
        ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
      };
    },

    createExtraction: async (ctx) => {
      const { accountId } = ctx.requirePrincipal();
      const { platform, credits, clock, database } = ctx.services;
      const spec = normalizeSpec(ctx.body);
      const resolved = await resolveTargets(platform, spec);
      const target = resolved[0] ?? {};
      const balance = await credits.balance(accountId);
      if (ctx.query.dry_run) return new Answer(200, estimateExtraction(spec, resolved, balance));
      // Account tools on several targets keep each target's user id, for the runner to read by.
      const userIds = resolved.flatMap((r) => (r.user ? [r.user.id] : []));
      const params: JobParams = {
        ...spec,
        ...(resolved.length > 1 && userIds.length > 0 && { targetUserIds: userIds }),
      };
      if (balance < 1n) throw errors.insufficientCredits(1, balance);
      const now = clock.now();
      const id = timeUuid(now);
      await database.db.transaction().execute(async (trx) => {
        await insertJob(trx, {
          id,
          account_id: accountId,
          tool_type: spec.toolType,
          status: 'running',
          params: JSON.stringify(params),
          target_tweet_id: target.tweet?.id ?? spec.targetTweetId ?? null,
          target_username: target.user?.username ?? spec.targetUsername ?? null,
          target_user_id: target.user?.id ?? null,
          target_community_id: spec.targetCommunityId ?? null,
          target_list_id: spec.targetListId ?? null,
          target_space_id: spec.targetSpaceId ?? null,
          search_query: spec.searchQuery ?? null,
          results_limit: spec.resultsLimit ?? null,
          total_results: 0,
          cursor: null,
          stalled_pages: 0,
          error_message: null,
          created_at: now,
          updated_at: now,
          completed_at: null,
        });
        await enqueueExtraction(trx, id, now);
      });
      extractionRunner(database).launch(id);
      return { id, toolType: spec.toolType, status: 'running' };
    },

    estimateExtraction: async (ctx) => {
      const { accountId } = ctx.requirePrincipal();
      const spec = normalizeSpec(ctx.body);
      const resolved = await resolveTargets(ctx.services.platform, spec);
      return estimateExtraction(spec, resolved, await ctx.services.credits.balance(accountId));
    },

    getExtraction: async (ctx) => {
      const { accountId } = ctx.requirePrincipal();
      const q = ctx.query;
      const mode = outputMode(q);
      const db = ctx.services.database.db;
      const job = await findJob(db, accountId, ctx.params.id);
      if (!job) throw notFound(ctx.params.id);
      const limit = q.limit ?? limits.extractionResults.defaultLimit;
      const rows = await resultRows(db, job.id, afterSeq(q.after ?? q.cursor), limit + 1);
      const page = rows.slice(0, limit);
      const results = page.map((r) => toApiResult(r, mode));
      const hasMore = rows.length > limit;
      const last = results[results.length - 1];
      return {
        job: toApiJob(job),
        results,
        hasMore,
        ...(hasMore && last && { nextCursor: last.id }),
      };
    },

    exportExtraction: async (ctx) => {
      const { accountId } = ctx.requirePrincipal();
      const db = ctx.services.database.db;
      const job = await findJob(db, accountId, ctx.params.id);
      if (!job) throw notFound(ctx.params.id);
      const keep = exportMatcher(ctx.query);
      // Two reads of the results: the first counts them (the cap is checked before anything is sent),
      // the second feeds the file as it streams out.
      const survey = await surveyResults(matchingResults(db, job.id, keep));
      assertExportSize(ctx.query.format, survey.count);
      const table = resultsTable(toApiJob(job), survey, matchingResults(db, job.id, keep));
      const file = renderExport(ctx.query.format, table);
      return new Answer(200, exportStream(file), downloadHeaders(file, `extraction-${job.id}`));
    },
  }),
);
