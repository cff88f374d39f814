import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { ArticleLookupSchema, PAID_LOOKUP_AUTH, READ_ERRORS, TweetRef, X_READ } from '../schemas/reads.js';

export const getArticle = defineOperation({
  ...X_READ,
  id: 'getArticle',
  path: '/api/v1/x/articles/{tweetId}',
  tag: 'Articles',
  summary: 'Get the full content of an article with its cover image and metadata',
  description:
    'Reads the long-form article carried by a tweet. Costs 1 credit per call, or a machine payment of USD 0.00075. A tweet without an article is 404 article_not_found.',
  sdk: ['articles', 'get'],
  auth: PAID_LOOKUP_AUTH,
  params: z.object({
    tweetId: TweetRef.describe('The tweet carrying the article: numeric id or URL (URL-encoded).'),
  }),
  query: null,
  response: ArticleLookupSchema,
  errors: [...READ_ERRORS, 'invalid_tweet_id', 'article_not_found'],
  pagination: null,
  cost: { kind: 'per_call', credits: 1, mppMicroUsd: 750 },
  example: 'articles get 1790000000000000001',
});

/** The Articles operations. */
export const articlesOperations = [getArticle] as const;
