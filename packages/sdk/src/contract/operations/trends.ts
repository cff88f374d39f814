import { z } from 'zod';
import { limits } from '../limits.js';
import { defineOperation } from '../operation.js';
import { PAID_LOOKUP_AUTH, TrendsSchema, trendsQuery, X_READ, XTrendsSchema } from '../schemas/reads.js';

const TRENDS_NOTE = `\`woeid\` picks the region (default 1, worldwide; one of ${limits.trendWoeids.join(', ')}, else 400 invalid_input). \`count\` (default ${limits.trends.defaultCount}) is clamped to 1-${limits.trends.maxCount}; a non-number means ${limits.trends.defaultCount}. \`total\` is the number available before the cut. Costs 3 credits per call, or a machine payment of USD 0.00045; an anonymous call is offered payment options, never an automatic checkout.`;

const trends = {
  ...X_READ,
  tag: 'Trends',
  auth: PAID_LOOKUP_AUTH,
  params: null,
  query: z.object(trendsQuery),
  errors: ['invalid_input', 'no_credits', 'insufficient_credits', 'x_api_unavailable'],
  pagination: null,
  cost: { kind: 'per_call', credits: 3, mppMicroUsd: 450 },
} as const;

export const getXTrends = defineOperation({
  ...trends,
  id: 'getXTrends',
  path: '/api/v1/x/trends',
  summary: 'Get the trending hashtags and topics of a region',
  description: `${TRENDS_NOTE} Also answers \`count\`, the number of trends returned.`,
  sdk: ['trends', 'x'],
  response: XTrendsSchema,
  example: 'trends x --woeid 23424977 --count 10',
});

export const getTrends = defineOperation({
  ...trends,
  id: 'getTrends',
  path: '/api/v1/trends',
  summary: 'Get the trending hashtags and topics of a region (alias path)',
  description: TRENDS_NOTE,
  sdk: ['trends', 'list'],
  response: TrendsSchema,
  example: 'trends list --woeid 1 --count 20',
});

/** The Trends operations. */
export const trendsOperations = [getXTrends, getTrends] as const;
