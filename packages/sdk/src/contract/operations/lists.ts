import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { cursorB } from '../schemas/common.js';
import {
  PUBLIC_READ_AUTH,
  pageSizeQuery,
  READ_ERRORS,
  TweetPageSchema,
  timeWindowQuery,
  UserPageSchema,
  userFilterQuery,
  X_READ,
} from '../schemas/reads.js';
import { NumericId, QueryBoolean } from '../zod-helpers.js';

const perResult = { kind: 'per_result', credits: 1 } as const;
const PAGING = 'Style-B pages: pass `next_cursor` back as `cursor` while `has_next_page` is true.';
const listParams = z.object({ id: NumericId.describe('Numeric id of the list.') });

export const getListFollowers = defineOperation({
  ...X_READ,
  id: 'getListFollowers',
  path: '/api/v1/x/lists/{id}/followers',
  tag: 'Lists',
  summary: 'List the followers of a list',
  description: `${PAGING} Costs 1 credit per user returned.`,
  sdk: ['lists', 'followers'],
  auth: PUBLIC_READ_AUTH,
  params: listParams,
  query: z.object({ cursor: cursorB, ...pageSizeQuery(20, 200, 200), ...userFilterQuery }),
  response: UserPageSchema,
  errors: [...READ_ERRORS, 'not_found'],
  pagination: 'B',
  items: 'users',
  cost: perResult,
  example: 'lists followers 1585430245762441216',
});

export const getListMembers = defineOperation({
  ...X_READ,
  id: 'getListMembers',
  path: '/api/v1/x/lists/{id}/members',
  tag: 'Lists',
  summary: 'List the members of a list',
  description: `${PAGING} Costs 1 credit per user returned.`,
  sdk: ['lists', 'members'],
  auth: PUBLIC_READ_AUTH,
  params: listParams,
  query: z.object({ cursor: cursorB, ...pageSizeQuery(20, 200, 20), ...userFilterQuery }),
  response: UserPageSchema,
  errors: [...READ_ERRORS, 'not_found'],
  pagination: 'B',
  items: 'users',
  cost: perResult,
  example: 'lists members 1585430245762441216 --page-size 100',
});

export const getListTweets = defineOperation({
  ...X_READ,
  id: 'getListTweets',
  path: '/api/v1/x/lists/{id}/tweets',
  tag: 'Lists',
  summary: 'List the tweets of the members of a list',
  description: `${PAGING} Costs 1 credit per tweet returned.`,
  sdk: ['lists', 'tweets'],
  auth: PUBLIC_READ_AUTH,
  params: listParams,
  query: z.object({
    cursor: cursorB,
    ...pageSizeQuery(1, 100, 20),
    ...timeWindowQuery,
    includeReplies: QueryBoolean.optional().describe('Also list the replies members posted.'),
  }),
  response: TweetPageSchema,
  errors: [...READ_ERRORS, 'not_found'],
  pagination: 'B',
  items: 'tweets',
  cost: perResult,
  example: 'lists tweets 1585430245762441216 --since-time 2026-04-01T00:00:00Z',
});

/** The Lists operations. */
export const listsOperations = [getListFollowers, getListMembers, getListTweets] as const;
