/** The limits of spec part 8, as constants shared by the server, the SDK and the CLI. */
export const limits = {
  rateLimits: {
    /** Newer figures (default). */
    newer: {
      read: { limit: 300, windowMs: 1_000, retryAfterSeconds: 1 },
      write: { limit: 120, windowMs: 60_000, retryAfterSeconds: 60 },
      delete: { limit: 60, windowMs: 60_000, retryAfterSeconds: 60 },
    },
    /** Older figures, selectable by configuration. */
    older: {
      read: { limit: 60, windowMs: 1_000, retryAfterSeconds: 1 },
      write: { limit: 30, windowMs: 60_000, retryAfterSeconds: 60 },
      delete: { limit: 15, windowMs: 60_000, retryAfterSeconds: 60 },
    },
  },
  follow: { perMinute: 20, perDay: 400 },
  connectAccount: { limit: 10, windowMs: 15 * 60_000, retryAfterSeconds: 900 },
  activeApiKeys: 100,
  unpaginatedListMax: 200,
  supportTicketsMax: 200,
  batchTweetIds: 100,
  batchUserIds: 100,
  viralScoreItems: 100,
  draws: { defaultLimit: 50, maxLimit: 100 },
  extractionResults: { defaultLimit: 100, maxLimit: 1000 },
  events: { defaultLimit: 50, maxLimit: 100 },
  trends: { defaultCount: 30, maxCount: 50 },
  listMemberships: { defaultPageSize: 20, minPageSize: 1, maxPageSize: 100 },
  noteTweetChars: 25_000,
  styleUsername: { min: 1, max: 15 },
  tweetMediaUrls: { min: 1, max: 4 },
  emailCode: { min: 4, max: 64 },
  ask: { queryMin: 1, queryMax: 500, bodyMaxBytes: 8 * 1024 },
  clientIdMetadataMaxBytes: 5 * 1024,
  oauthCodeLifetimeMs: 60_000,
  webhookToleranceMs: 5 * 60_000,
  webhookAttempts: 10,
  /** Delay before attempt n+1, in seconds (spec 6.5): 1, 2, 4, 8, 16, 32, then 60. */
  webhookBackoffSeconds: [1, 2, 4, 8, 16, 32, 60, 60, 60] as const,
  webhookTimeoutMs: 10_000,
  styleFreshMs: 7 * 24 * 3_600_000,
  idempotencyKey: { min: 1, max: 255, pattern: /^[!-~]{1,255}$/ },
  /** Supported trend regions (spec 8.3). */
  trendWoeids: [
    1, 23424977, 23424775, 23424900, 23424768, 23424975, 23424969, 23424950, 23424829, 23424819, 23424856,
    23424848,
  ] as const,
  /** Credits of an active monitor per hour (spec 8.2: about 21 per hour, about 500 per day). */
  monitorCreditsPerHour: 21,
  transientRetryAttempts: 3,
} as const;

/** The 7 export formats (spec part 7, `invalid_format`). */
export const EXPORT_FORMATS = ['csv', 'json', 'md', 'md-document', 'pdf', 'txt', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The header that selects the opt-in response contract, and its value. */
export const CONTRACT_HEADER = 'svc-api-contract';
export const OPT_IN_CONTRACT = '2026-04-29';
