import { z } from 'zod';
import { EXPORT_FORMATS, limits } from '../limits.js';
import { defineOperation } from '../operation.js';
import { pageA, pageAQuery } from '../schemas/common.js';
import {
  DRAW_EXPORT_TYPES,
  DrawCommitmentRequestSchema,
  DrawCommitmentSchema,
  DrawCreatedSchema,
  DrawListItemSchema,
  DrawRequestSchema,
  DrawWithWinnersSchema,
} from '../schemas/draws.js';
import { UuidResourceId } from '../zod-helpers.js';

const keyOrToken = ['apiKey', 'oauth', 'session'] as const;

const drawId = z.object({ id: UuidResourceId.describe('Identifier of the draw.') });

export const listDraws = defineOperation({
  id: 'listDraws',
  method: 'GET',
  path: '/api/v1/draws',
  tag: 'Draws',
  summary: 'List giveaway draws, newest first',
  sdk: ['draws', 'list'],
  auth: keyOrToken,
  params: null,
  query: z.object({ ...pageAQuery(limits.draws.defaultLimit, limits.draws.maxLimit) }),
  body: null,
  success: [200],
  response: pageA('draws', DrawListItemSchema),
  errors: ['invalid_input'],
  pagination: 'A',
  items: 'draws',
  cost: { kind: 'free' },
  idempotent: true,
  example: 'draws list --limit 20',
});

export const createDraw = defineOperation({
  id: 'createDraw',
  method: 'POST',
  path: '/api/v1/draws',
  tag: 'Draws',
  summary: 'Pick random winners from the replies of a tweet',
  description:
    'Reads the replies of the giveaway tweet, keeps the entries that pass every filter and draws the winners ' +
    'and backups. Metered: the source lookup, the replies, and the repost and follow checks the filters need. ' +
    '`totalEntries` counts the entries inspected, which the remaining credits may cap. When the final ' +
    'deduction fails the answer is 402 `insufficient_credits` and no draw is stored.',
  sdk: ['draws', 'run'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: DrawRequestSchema,
  success: [201],
  response: DrawCreatedSchema,
  errors: [
    'invalid_input',
    'invalid_tweet_url',
    'no_subscription',
    'subscription_inactive',
    'no_credits',
    'insufficient_credits',
    'tweet_not_found',
    'x_api_unavailable',
  ],
  pagination: null,
  cost: { kind: 'metered', note: 'source lookup, replies, and optional repost and follow checks' },
  idempotent: false,
  example: 'draws run https://x.com/jack/status/20 --winner-count 3 --must-retweet',
});

export const createDrawCommitment = defineOperation({
  id: 'createDrawCommitment',
  method: 'POST',
  path: '/api/v1/draws/commitments',
  tag: 'Draws',
  summary: 'Fix a draw seed in advance, to publish with the giveaway',
  description:
    'Makes a random server seed and answers its SHA-256 (`seedHash`), to publish with the giveaway before ' +
    'any entry comes in; `entropyHash` commits to the entropy you will give as well. Run the draw with ' +
    '`commitmentId` and `organiserEntropy`: its winners follow from the seed and your entropy together ' +
    '(`xsvc-draw-v2`), so neither this service nor you alone can choose them. One draw per commitment. Free.',
  sdk: ['draws', 'commit'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: DrawCommitmentRequestSchema,
  success: [201],
  response: DrawCommitmentSchema,
  errors: ['invalid_input'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example: 'draws commit --entropy-hash 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
});

export const getDraw = defineOperation({
  id: 'getDraw',
  method: 'GET',
  path: '/api/v1/draws/{id}',
  tag: 'Draws',
  summary: 'Get a draw and its winners',
  sdk: ['draws', 'get'],
  auth: keyOrToken,
  params: drawId,
  query: null,
  body: null,
  success: [200],
  response: DrawWithWinnersSchema,
  errors: ['invalid_id', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'draws get 6b0e2c9a-1f4d-4a8e-b3c7-5d9f0a1e2b3c',
});

export const exportDraw = defineOperation({
  id: 'exportDraw',
  method: 'GET',
  path: '/api/v1/draws/{id}/export',
  tag: 'Draws',
  summary: 'Download the winners or the entries of a draw as a file',
  sdk: ['draws', 'export'],
  auth: keyOrToken,
  params: drawId,
  query: z.object({
    format: z.enum(EXPORT_FORMATS).describe('File format: csv, json, md, md-document, pdf, txt or xlsx.'),
    type: z.enum(DRAW_EXPORT_TYPES).optional().describe('What to export: the `winners` or all `entries`.'),
  }),
  body: null,
  success: [200],
  response: z.string(),
  responseKind: 'binary',
  errors: ['invalid_id', 'invalid_input', 'invalid_format', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'draws export 6b0e2c9a-1f4d-4a8e-b3c7-5d9f0a1e2b3c --format csv --type entries',
});

/** The Draws operations. */
export const drawsOperations = [listDraws, createDraw, createDrawCommitment, getDraw, exportDraw] as const;
