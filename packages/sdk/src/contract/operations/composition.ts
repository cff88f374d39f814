import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { pageA, pageAQuery } from '../schemas/common.js';
import {
  AnalyzeStyleRequestSchema,
  ComposeRequestSchema,
  ComposeResultSchema,
  DraftRequestSchema,
  DraftSchema,
  RADAR_CATEGORIES,
  RADAR_SOURCES,
  RadarItemSchema,
  SaveStyleRequestSchema,
  StyleComparisonSchema,
  StylePerformanceSchema,
  StyleSchema,
  StyleSummarySchema,
} from '../schemas/composition.js';

const keyOrToken = ['apiKey', 'oauth', 'session'] as const;

const draftId = z.object({ id: z.string().min(1).describe('Identifier of the draft.') });
const styleId = z.object({ id: z.string().min(1).describe('Style id, or the username of the style.') });
const compareUsername = z
  .string()
  .regex(/^@?[A-Za-z0-9_]{1,15}$/, 'must be a username of 1-15 letters, digits or underscores');

export const compose = defineOperation({
  id: 'compose',
  method: 'POST',
  path: '/api/v1/compose',
  tag: 'Composition',
  summary: 'Prepare, refine or score a post, one step at a time',
  description:
    'Three steps chosen by `step`: `compose` (needs `topic`) answers writing rules, ranking weights and ' +
    'follow-up questions; `refine` (needs `topic`, `goal`, `tone`) answers guidance and patterns; `score` ' +
    '(needs `draft`) checks the draft and answers a checklist, with a composer link once every check passes. ' +
    'Free. Malformed JSON answers `invalid_json`, other violations `invalid_input`.',
  sdk: ['compose', 'run'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: ComposeRequestSchema,
  success: [200],
  response: ComposeResultSchema,
  errors: ['invalid_input', 'invalid_json'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example: 'compose run --step compose --topic "shipping small releases" --goal engagement',
});

export const listDrafts = defineOperation({
  id: 'listDrafts',
  method: 'GET',
  path: '/api/v1/drafts',
  tag: 'Composition',
  summary: 'List saved drafts, page by page',
  sdk: ['drafts', 'list'],
  auth: keyOrToken,
  params: null,
  query: z.object({
    ...pageAQuery(50, 100),
    afterCursor: z.string().optional().describe('Alias of `after` (the reference’s name for drafts).'),
  }),
  body: null,
  success: [200],
  response: pageA('drafts', DraftSchema),
  errors: ['invalid_input'],
  pagination: 'A',
  items: 'drafts',
  cost: { kind: 'free' },
  idempotent: true,
  example: 'drafts list --limit 20',
});

export const createDraft = defineOperation({
  id: 'createDraft',
  method: 'POST',
  path: '/api/v1/drafts',
  tag: 'Composition',
  summary: 'Save a post draft',
  sdk: ['drafts', 'create'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: DraftRequestSchema,
  success: [201],
  response: DraftSchema,
  errors: ['invalid_input'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example: 'drafts create --text "Small releases beat big launches." --goal engagement',
});

export const getDraft = defineOperation({
  id: 'getDraft',
  method: 'GET',
  path: '/api/v1/drafts/{id}',
  tag: 'Composition',
  summary: 'Get a saved draft',
  sdk: ['drafts', 'get'],
  auth: keyOrToken,
  params: draftId,
  query: null,
  body: null,
  success: [200],
  response: DraftSchema,
  errors: ['invalid_input', 'draft_not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'drafts get 1900000000000000400',
});

export const deleteDraft = defineOperation({
  id: 'deleteDraft',
  method: 'DELETE',
  path: '/api/v1/drafts/{id}',
  tag: 'Composition',
  summary: 'Delete a saved draft',
  description: 'Answers 204 without a body.',
  sdk: ['drafts', 'delete'],
  auth: keyOrToken,
  params: draftId,
  query: null,
  body: null,
  success: [204],
  response: z.void(),
  responseKind: 'empty',
  errors: ['invalid_input', 'draft_not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'drafts delete 1900000000000000400',
});

export const listStyles = defineOperation({
  id: 'listStyles',
  method: 'GET',
  path: '/api/v1/styles',
  tag: 'Composition',
  summary: 'List the cached writing styles',
  sdk: ['styles', 'list'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: z.object({ styles: z.array(StyleSummarySchema).describe('The cached styles, without tweets.') }),
  errors: [],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'styles list',
});

export const analyzeStyle = defineOperation({
  id: 'analyzeStyle',
  method: 'POST',
  path: '/api/v1/styles',
  tag: 'Composition',
  summary: 'Cache the writing style of an account from its recent tweets',
  description:
    'Answers 200 with the cached style while it is fresh (under 7 days), or fetches recent tweets, replaces ' +
    'the cache and answers 201. A cached style is free; with a lapsed subscription a cached style still ' +
    'answers 200, and a missing one answers 402 `no_cached_style`.',
  sdk: ['styles', 'analyze'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: AnalyzeStyleRequestSchema,
  success: [200, 201],
  response: StyleSchema,
  errors: [
    'invalid_input',
    'no_subscription',
    'no_cached_style',
    'subscription_inactive',
    'insufficient_credits',
  ],
  pagination: null,
  cost: {
    kind: 'metered',
    note: 'free from the cache (fresh under 7 days); a new fetch reads recent tweets',
  },
  idempotent: false,
  example: 'styles analyze --username jack',
});

export const compareStyles = defineOperation({
  id: 'compareStyles',
  method: 'GET',
  path: '/api/v1/styles/compare',
  tag: 'Composition',
  summary: 'Compare two cached writing styles side by side',
  sdk: ['styles', 'compare'],
  auth: keyOrToken,
  params: null,
  query: z.object({
    username1: compareUsername.describe('Username of the first cached style.'),
    username2: compareUsername.describe('Username of the second cached style.'),
  }),
  body: null,
  success: [200],
  response: StyleComparisonSchema,
  errors: ['invalid_input', 'style_not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'styles compare --username1 jack --username2 biz',
});

export const getStyle = defineOperation({
  id: 'getStyle',
  method: 'GET',
  path: '/api/v1/styles/{id}',
  tag: 'Composition',
  summary: 'Get a cached writing style with its tweets',
  sdk: ['styles', 'get'],
  auth: keyOrToken,
  params: styleId,
  query: null,
  body: null,
  success: [200],
  response: StyleSchema,
  errors: ['style_not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'styles get jack',
});

export const saveStyle = defineOperation({
  id: 'saveStyle',
  method: 'PUT',
  path: '/api/v1/styles/{id}',
  tag: 'Composition',
  summary: 'Save a custom writing style from your own sample tweets',
  sdk: ['styles', 'save'],
  auth: keyOrToken,
  params: styleId,
  query: null,
  body: SaveStyleRequestSchema,
  success: [200],
  response: StyleSchema,
  errors: ['invalid_input'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'styles save my_voice --label "My voice" --tweets \'[{"text":"Ship it."}]\'',
});

export const deleteStyle = defineOperation({
  id: 'deleteStyle',
  method: 'DELETE',
  path: '/api/v1/styles/{id}',
  tag: 'Composition',
  summary: 'Delete a cached writing style',
  description: 'Answers 204 without a body.',
  sdk: ['styles', 'delete'],
  auth: keyOrToken,
  params: styleId,
  query: null,
  body: null,
  success: [204],
  response: z.void(),
  responseKind: 'empty',
  errors: ['style_not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'styles delete jack',
});

export const getStylePerformance = defineOperation({
  id: 'getStylePerformance',
  method: 'GET',
  path: '/api/v1/styles/{id}/performance',
  tag: 'Composition',
  summary: 'Get the engagement of the tweets of a style',
  description: 'Reads the current engagement counts of the style’s tweets.',
  sdk: ['styles', 'performance'],
  auth: keyOrToken,
  params: styleId,
  query: null,
  body: null,
  success: [200],
  response: StylePerformanceSchema,
  errors: [
    'style_not_found',
    'no_subscription',
    'subscription_inactive',
    'no_credits',
    'insufficient_credits',
  ],
  pagination: null,
  cost: { kind: 'per_result', credits: 1 },
  idempotent: true,
  example: 'styles performance jack',
});

export const getRadar = defineOperation({
  id: 'getRadar',
  method: 'GET',
  path: '/api/v1/radar',
  tag: 'Composition',
  summary: 'Get trending topics from curated sources',
  sdk: ['radar', 'get'],
  auth: keyOrToken,
  params: null,
  query: z.object({
    ...pageAQuery(50, 100),
    category: z.enum(RADAR_CATEGORIES).optional().describe('Only this topic category.'),
    hours: z.coerce
      .number()
      .int()
      .min(1)
      .max(72)
      .default(6)
      .describe('Look-back window in hours, 1-72 (default 6).'),
    region: z.string().min(1).default('global').describe('Region to read trends for (default `global`).'),
    source: z.enum(RADAR_SOURCES).optional().describe('Only this source.'),
  }),
  body: null,
  success: [200],
  response: pageA('items', RadarItemSchema),
  errors: ['invalid_input'],
  pagination: 'A',
  items: 'items',
  cost: { kind: 'free' },
  idempotent: true,
  example: 'radar get --source hacker_news --hours 24',
});

/** The Composition operations. */
export const compositionOperations = [
  compose,
  listDrafts,
  createDraft,
  getDraft,
  deleteDraft,
  listStyles,
  analyzeStyle,
  compareStyles,
  getStyle,
  saveStyle,
  deleteStyle,
  getStylePerformance,
  getRadar,
] as const;
