import { z } from 'zod';
import { EXPORT_FORMATS, limits } from '../limits.js';
import { defineOperation } from '../operation.js';
import { pageA, pageAQuery } from '../schemas/common.js';
import {
  EXTRACTION_STATUSES,
  EXTRACTION_TOOL_TYPES,
  ExtractionAcceptedSchema,
  ExtractionEstimateSchema,
  ExtractionJobSchema,
  ExtractionRequestSchema,
  ExtractionResultSchema,
} from '../schemas/extractions.js';
import { IsoDate, QueryBoolean, UuidResourceId } from '../zod-helpers.js';

const keyOrToken = ['apiKey', 'oauth', 'session'] as const;
const billingErrors = [
  'no_subscription',
  'subscription_inactive',
  'no_credits',
  'insufficient_credits',
] as const;

const extractionId = z.object({ id: UuidResourceId.describe('Identifier of the extraction job.') });
const queryCount = (what: string) => z.coerce.number().int().min(0).optional().describe(what);

export const listExtractions = defineOperation({
  id: 'listExtractions',
  method: 'GET',
  path: '/api/v1/extractions',
  tag: 'Extractions',
  summary: 'List extraction jobs',
  sdk: ['extractions', 'list'],
  auth: keyOrToken,
  params: null,
  query: z.object({
    ...pageAQuery(50, 100),
    toolType: z.enum(EXTRACTION_TOOL_TYPES).optional().describe('Only jobs of this tool.'),
    status: z.enum(EXTRACTION_STATUSES).optional().describe('Only jobs in this state.'),
  }),
  body: null,
  success: [200],
  response: pageA('extractions', ExtractionJobSchema),
  errors: ['invalid_input'],
  pagination: 'A',
  items: 'extractions',
  cost: { kind: 'free' },
  idempotent: true,
  example: 'extractions list --tool-type follower_explorer --status completed',
});

export const createExtraction = defineOperation({
  id: 'createExtraction',
  method: 'POST',
  path: '/api/v1/extractions',
  tag: 'Extractions',
  summary: 'Start an extraction job',
  description:
    'Runs asynchronously: answers 202 with the job id, then poll the get operation until `status` is ' +
    '`completed` or `failed`. Costs 1 credit per result; set `resultsLimit` to cap it. With `dry_run=true` ' +
    'nothing runs and the answer is 200 with the body of the estimate operation instead.',
  sdk: ['extractions', 'run'],
  auth: keyOrToken,
  params: null,
  query: z.object({
    dry_run: QueryBoolean.optional().describe('Only estimate the cost (answer 200), do not start the job.'),
  }),
  body: ExtractionRequestSchema,
  success: [202, 200],
  // The dry-run answer (200) has the shape of `ExtractionEstimateSchema`; the operation's one response schema
  // is the usual 202 body, which the client's run handle relies on.
  response: ExtractionAcceptedSchema,
  errors: [
    'invalid_input',
    'invalid_tool_type',
    ...billingErrors,
    'not_found',
    'tweet_not_found',
    'user_not_found',
    'x_api_unavailable',
  ],
  pagination: null,
  cost: { kind: 'per_result', credits: 1 },
  idempotent: false,
  example: 'extractions run --tool-type follower_explorer --target-username jack --results-limit 500',
});

export const estimateExtraction = defineOperation({
  id: 'estimateExtraction',
  method: 'POST',
  path: '/api/v1/extractions/estimate',
  tag: 'Extractions',
  summary: 'Estimate the credits an extraction would cost',
  description: 'Takes the same body as a run and starts nothing.',
  sdk: ['extractions', 'estimate'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: ExtractionRequestSchema,
  success: [200],
  response: ExtractionEstimateSchema,
  errors: [
    'invalid_input',
    'invalid_tool_type',
    ...billingErrors,
    'not_found',
    'tweet_not_found',
    'user_not_found',
  ],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'extractions estimate --tool-type reply_extractor --target-tweet-id 1234567890',
});

export const getExtraction = defineOperation({
  id: 'getExtraction',
  method: 'GET',
  path: '/api/v1/extractions/{id}',
  tag: 'Extractions',
  summary: 'Get an extraction job and a page of its results',
  description: 'Results are ordered by id ascending; page with `after` until `hasMore` is false.',
  sdk: ['extractions', 'get'],
  auth: keyOrToken,
  params: extractionId,
  query: z.object({
    ...pageAQuery(limits.extractionResults.defaultLimit, limits.extractionResults.maxLimit),
    outputMode: z
      .enum(['compact', 'full', 'raw'])
      .optional()
      .describe('How much of each result to return: `compact`, `full`, or `raw` (with the source record).'),
    outputPreset: z.enum(['nested', 'flat']).optional().describe('Shape of each result: `nested` or `flat`.'),
    fieldStyle: z
      .enum(['source', 'camelCase', 'snake_case'])
      .optional()
      .describe('Field naming of each result: as the source names them, `camelCase` or `snake_case`.'),
    includeRaw: QueryBoolean.optional().describe('Deprecated: use `outputMode=raw`.'),
  }),
  body: null,
  success: [200],
  response: z.object({
    job: ExtractionJobSchema.describe('The job.'),
    ...pageA('results', ExtractionResultSchema).shape,
  }),
  errors: ['invalid_id', 'invalid_input', 'invalid_output_options', 'not_found'],
  pagination: 'A',
  items: 'results',
  cost: { kind: 'free' },
  idempotent: true,
  deprecated: { params: { includeRaw: 'outputMode=raw' }, since: 1767225600 },
  example: 'extractions get 3f1c1a4e-8d6b-4c57-9f0e-2b7d5a9c6e10 --limit 1000',
});

export const exportExtraction = defineOperation({
  id: 'exportExtraction',
  method: 'GET',
  path: '/api/v1/extractions/{id}/export',
  tag: 'Extractions',
  summary: 'Download the results of an extraction as a file',
  description: 'The filters narrow the exported rows; the file is in the chosen format.',
  sdk: ['extractions', 'export'],
  auth: keyOrToken,
  params: extractionId,
  query: z.object({
    format: z.enum(EXPORT_FORMATS).describe('File format: csv, json, md, md-document, pdf, txt or xlsx.'),
    minFollowers: queryCount('Only users with at least this many followers.'),
    maxFollowers: queryCount('Only users with at most this many followers.'),
    minFollowing: queryCount('Only users following at least this many accounts.'),
    maxFollowing: queryCount('Only users following at most this many accounts.'),
    minPosts: queryCount('Only users with at least this many posts.'),
    maxPosts: queryCount('Only users with at most this many posts.'),
    minLikes: queryCount('Only tweets with at least this many likes.'),
    minReplies: queryCount('Only tweets with at least this many replies.'),
    minRetweets: queryCount('Only tweets with at least this many reposts.'),
    minViews: queryCount('Only tweets with at least this many views.'),
    hasDescription: QueryBoolean.optional().describe('Only users with (true) or without (false) a bio.'),
    hasLocation: QueryBoolean.optional().describe('Only users with (true) or without (false) a location.'),
    hasMedia: QueryBoolean.optional().describe('Only tweets with (true) or without (false) media.'),
    verified: QueryBoolean.optional().describe('Only verified (true) or unverified (false) users.'),
    lang: z.string().min(1).optional().describe('Only tweets in this language code.'),
    search: z.string().min(1).optional().describe('Only rows containing this text.'),
    sinceDate: IsoDate.optional().describe('Only tweets from this day on, inclusive (YYYY-MM-DD).'),
    untilDate: IsoDate.optional().describe('Only tweets before this day, exclusive (YYYY-MM-DD).'),
  }),
  body: null,
  success: [200],
  response: z.string(),
  responseKind: 'binary',
  errors: ['invalid_id', 'invalid_input', 'invalid_format', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'extractions export 3f1c1a4e-8d6b-4c57-9f0e-2b7d5a9c6e10 --format csv --min-followers 1000',
});

/** The Extractions operations. */
export const extractionsOperations = [
  listExtractions,
  createExtraction,
  estimateExtraction,
  getExtraction,
  exportExtraction,
] as const;
