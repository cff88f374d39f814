import { defineOperation } from '../operation.js';
import {
  MediaDownloadRequestSchema,
  MediaDownloadSchema,
  PRIVATE_READ_AUTH,
  READ_ERRORS,
} from '../schemas/reads.js';

export const downloadMedia = defineOperation({
  id: 'downloadMedia',
  method: 'POST',
  path: '/api/v1/x/media/download',
  tag: 'Media',
  summary: 'Gather the photos, videos and GIFs of tweets into a download gallery',
  description:
    'Send exactly one of `tweetInput` (an id or URL), `tweetId`, `tweetUrl` or `tweetIds`. Answers a gallery page for every media file; media already fetched comes from the cache (`cacheHit`). Needs an API key or session (no guest key or machine payment). A tweet without media is 404 no_media; too many tweets in one call is 400 too_many_tweets.',
  sdk: ['media', 'download'],
  auth: PRIVATE_READ_AUTH,
  params: null,
  query: null,
  body: MediaDownloadRequestSchema,
  success: [200],
  response: MediaDownloadSchema,
  errors: [
    ...READ_ERRORS,
    'invalid_tweet_id',
    'invalid_tweet_url',
    'too_many_tweets',
    'tweet_not_found',
    'no_media',
    'media_download_failed',
  ],
  pagination: null,
  cost: { kind: 'per_call', credits: 1 },
  idempotent: false,
  example: 'media download --tweet-url https://x.com/jack/status/20',
});

/** The Media operations. */
export const mediaOperations = [downloadMedia] as const;
