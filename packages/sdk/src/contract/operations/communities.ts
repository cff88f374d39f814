import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { cursorB } from '../schemas/common.js';
import {
  CommunityInfoSchema,
  PAID_LOOKUP_AUTH,
  PUBLIC_READ_AUTH,
  pageSizeQuery,
  QUERY_TYPES,
  READ_ERRORS,
  SearchText,
  TweetPageSchema,
  UserPageSchema,
  userFilterQuery,
  X_READ,
} from '../schemas/reads.js';
import { NumericId } from '../zod-helpers.js';

const perResult = { kind: 'per_result', credits: 1 } as const;
const PAGING = 'Style-B pages: pass `next_cursor` back as `cursor` while `has_next_page` is true.';
const communityParams = z.object({ id: NumericId.describe('Numeric id of the community.') });

/** The query of the two in-community tweet searches. */
const communitySearchQuery = z.object({
  communityId: NumericId.describe('Numeric id of the community to search in.'),
  q: SearchText.describe('Words to find in the community tweets.'),
  queryType: z
    .enum(QUERY_TYPES)
    .optional()
    .describe('`Latest` (newest first) or `Top` (most engaging first).'),
  cursor: cursorB,
  ...pageSizeQuery(1, 100, 20),
});

export const getCommunityInfo = defineOperation({
  ...X_READ,
  id: 'getCommunityInfo',
  path: '/api/v1/x/communities/{id}/info',
  tag: 'Communities',
  summary: 'Get the name, description, rules and member count of a community',
  description: 'Costs 1 credit per call, or a machine payment of USD 0.00015.',
  sdk: ['communities', 'get'],
  auth: PAID_LOOKUP_AUTH,
  params: communityParams,
  query: null,
  response: CommunityInfoSchema,
  errors: [...READ_ERRORS, 'not_found'],
  pagination: null,
  cost: { kind: 'per_call', credits: 1, mppMicroUsd: 150 },
  example: 'communities get 1493446837214187523',
});

export const getCommunityMembers = defineOperation({
  ...X_READ,
  id: 'getCommunityMembers',
  path: '/api/v1/x/communities/{id}/members',
  tag: 'Communities',
  summary: 'List the members of a community',
  description: `${PAGING} Costs 1 credit per user returned.`,
  sdk: ['communities', 'members'],
  auth: PUBLIC_READ_AUTH,
  params: communityParams,
  query: z.object({ cursor: cursorB, ...pageSizeQuery(20, 200, 20), ...userFilterQuery }),
  response: UserPageSchema,
  errors: [...READ_ERRORS, 'not_found'],
  pagination: 'B',
  items: 'users',
  cost: perResult,
  example: 'communities members 1493446837214187523 --page-size 100',
});

export const getCommunityModerators = defineOperation({
  ...X_READ,
  id: 'getCommunityModerators',
  path: '/api/v1/x/communities/{id}/moderators',
  tag: 'Communities',
  summary: 'List the moderators of a community',
  description: `${PAGING} Costs 1 credit per user returned.`,
  sdk: ['communities', 'moderators'],
  auth: PUBLIC_READ_AUTH,
  params: communityParams,
  query: z.object({ cursor: cursorB, ...userFilterQuery }),
  response: UserPageSchema,
  errors: [...READ_ERRORS, 'not_found'],
  pagination: 'B',
  items: 'users',
  cost: perResult,
  example: 'communities moderators 1493446837214187523',
});

export const getCommunityTweets = defineOperation({
  ...X_READ,
  id: 'getCommunityTweets',
  path: '/api/v1/x/communities/{id}/tweets',
  tag: 'Communities',
  summary: 'List the tweets posted in a community',
  description: `${PAGING} Costs 1 credit per tweet returned.`,
  sdk: ['communities', 'tweets'],
  auth: PUBLIC_READ_AUTH,
  params: communityParams,
  query: z.object({ cursor: cursorB, ...pageSizeQuery(1, 100, 20) }),
  response: TweetPageSchema,
  errors: [...READ_ERRORS, 'not_found'],
  pagination: 'B',
  items: 'tweets',
  cost: perResult,
  example: 'communities tweets 1493446837214187523',
});

export const searchCommunities = defineOperation({
  ...X_READ,
  id: 'searchCommunities',
  path: '/api/v1/x/communities/search',
  tag: 'Communities',
  summary: 'Search the tweets of a community by keyword',
  description: `${PAGING} Costs 1 credit per tweet returned.`,
  sdk: ['communities', 'search'],
  auth: PUBLIC_READ_AUTH,
  params: null,
  query: communitySearchQuery,
  response: TweetPageSchema,
  errors: [...READ_ERRORS, 'missing_query'],
  pagination: 'B',
  items: 'tweets',
  cost: perResult,
  example: 'communities search --community-id 1493446837214187523 --q "launch"',
});

export const getAllCommunityTweets = defineOperation({
  ...X_READ,
  id: 'getAllCommunityTweets',
  path: '/api/v1/x/communities/tweets',
  tag: 'Communities',
  summary: 'Search the tweets of a community (reference alias of the keyword search)',
  description: `Same parameters and answer as the community search. ${PAGING} Costs 1 credit per tweet returned.`,
  sdk: ['communities', 'searchTweets'],
  auth: PUBLIC_READ_AUTH,
  params: null,
  query: communitySearchQuery,
  response: TweetPageSchema,
  errors: [...READ_ERRORS, 'missing_query'],
  pagination: 'B',
  items: 'tweets',
  cost: perResult,
  example: 'communities search-tweets --community-id 1493446837214187523 --q "launch" --query-type Top',
});

/** The Communities operations. */
export const communitiesOperations = [
  getCommunityInfo,
  getCommunityMembers,
  getCommunityModerators,
  getCommunityTweets,
  searchCommunities,
  getAllCommunityTweets,
] as const;
