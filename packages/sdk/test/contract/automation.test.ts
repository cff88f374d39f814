import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { AnyOperation } from '../../src/contract/operation.js';
import { drawsOperations } from '../../src/contract/operations/draws.js';
import { eventsOperations } from '../../src/contract/operations/events.js';
import { extractionsOperations } from '../../src/contract/operations/extractions.js';
import { monitorsOperations } from '../../src/contract/operations/monitors.js';
import { webhooksOperations } from '../../src/contract/operations/webhooks.js';
import { TWEET_STATUS_URL } from '../../src/contract/schemas/draws.js';
import {
  EXTRACTION_TARGETS,
  EXTRACTION_TOOL_TYPES,
  ExtractionEstimateSchema,
  ExtractionRequestSchema,
} from '../../src/contract/schemas/extractions.js';
import { strictify } from '../../src/contract/zod-helpers.js';

const all: readonly AnyOperation[] = [
  ...monitorsOperations,
  ...eventsOperations,
  ...webhooksOperations,
  ...extractionsOperations,
  ...drawsOperations,
];
const byId = Object.fromEntries(all.map((o) => [o.id, o])) as Record<string, AnyOperation>;

interface Req {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/** Parses what the server would validate; an absent part is parsed as `{}` (params, query) or skipped (body). */
function parseRequest(op: AnyOperation, req: Req): { success: boolean; error?: z.ZodError } {
  const parts: [z.ZodType | null, unknown][] = [
    [op.params, req.params ?? {}],
    [op.query, req.query ?? {}],
    [op.body, req.body],
  ];
  for (const [schema, value] of parts) {
    if (!schema) continue;
    const r = schema.safeParse(value);
    if (!r.success) return { success: false, error: r.error };
  }
  return { success: true };
}

const TS = '2026-03-01T12:00:00.000Z';
const UUID = '3f1c1a4e-8d6b-4c57-9f0e-2b7d5a9c6e10';

const monitor = {
  id: '1900000000000000001',
  username: 'jack',
  xUserId: '12',
  eventTypes: ['tweet.new', 'tweet.reply', 'profile.bio.changed'],
  isActive: true,
  createdAt: TS,
  nextBillingAt: '2026-03-01T13:00:00.000Z',
};
const pausedMonitor = {
  ...monitor,
  isActive: false,
  pausedReason: 'x_user_not_found',
  pausedAt: '2026-03-02T08:00:00.000Z',
};
const keywordMonitor = {
  id: '1900000000000000002',
  query: 'xsvc OR #xsvc',
  eventTypes: ['tweet.new', 'tweet.quote'],
  isActive: true,
  createdAt: TS,
  nextBillingAt: '2026-03-01T13:00:00.000Z',
};
const storedEvent = {
  id: '1900000000000000100',
  type: 'tweet.reply',
  monitorId: '1900000000000000001',
  monitorType: 'account',
  username: 'jack',
  occurredAt: TS,
  data: {
    id: '1897000000000000000',
    text: '@someone agreed',
    author: { id: '12', userName: 'jack', name: 'jack' },
    isRetweet: false,
    isReply: true,
    isQuote: false,
    createdAt: TS,
    inReplyToId: '1896999999999999999',
  },
  xEventId: '1897000000000000000',
};
const keywordEvent = {
  id: '1900000000000000101',
  type: 'tweet.new',
  monitorId: '1900000000000000002',
  monitorType: 'keyword',
  keywordMonitorId: '1900000000000000002',
  query: 'xsvc OR #xsvc',
  occurredAt: TS,
  data: { id: '1897000000000000001', text: 'trying #xsvc' },
};
const webhook = {
  id: '1900000000000000200',
  url: 'https://example.com/hooks/xsvc',
  eventTypes: ['tweet.new'],
  isActive: true,
  deliveryStatus: 'active',
  consecutiveFailures: 0,
  failureHardCap: 50,
  createdAt: TS,
};
const job = {
  id: UUID,
  toolType: 'follower_explorer',
  status: 'completed',
  totalResults: 2,
  targetUsername: 'jack',
  targetUserId: '12',
  createdAt: TS,
  completedAt: '2026-03-01T12:03:00.000Z',
};
const winners = [
  { position: 1, authorUsername: 'alice', tweetId: '1897000000000000010', isBackup: false },
  { position: 2, authorUsername: 'bob', tweetId: '1897000000000000011', isBackup: true },
];

interface Case {
  valid: Req;
  /** A request the server must refuse; absent for operations that take no input. */
  invalid?: Req;
  response: unknown;
}

const cases: Record<string, Case> = {
  listMonitors: {
    valid: {},
    response: { monitors: [monitor, pausedMonitor], total: 2 },
  },
  createMonitor: {
    valid: { body: { username: '@jack', eventTypes: ['tweet.new', 'profile.avatar.changed'] } },
    invalid: { body: { username: 'jack', eventTypes: [] } },
    response: monitor,
  },
  getMonitor: {
    valid: { params: { id: '1900000000000000001' } },
    invalid: { params: {} },
    response: pausedMonitor,
  },
  updateMonitor: {
    valid: { params: { id: '1' }, body: { isActive: false } },
    invalid: { params: { id: '1' }, body: {} },
    response: { ...monitor, eventTypes: ['tweet.new'] },
  },
  deleteMonitor: {
    valid: { params: { id: '1' } },
    invalid: { params: { id: '' } },
    response: { success: true },
  },
  listKeywordMonitors: { valid: {}, response: { monitors: [keywordMonitor], total: 1 } },
  createKeywordMonitor: {
    valid: { body: { query: 'xsvc', eventTypes: ['tweet.new'] } },
    invalid: { body: { query: 'xsvc', eventTypes: ['profile.bio.changed'] } },
    response: keywordMonitor,
  },
  getKeywordMonitor: {
    valid: { params: { id: '2' } },
    invalid: { params: { id: 2 } },
    response: keywordMonitor,
  },
  updateKeywordMonitor: {
    valid: { params: { id: '2' }, body: { eventTypes: ['tweet.new', 'tweet.media'] } },
    invalid: { params: { id: '2' }, body: { eventTypes: ['tweet.new', 'tweet.new'] } },
    response: { ...keywordMonitor, isActive: false },
  },
  deleteKeywordMonitor: {
    valid: { params: { id: '2' } },
    invalid: { params: {} },
    response: { success: true },
  },
  listEvents: {
    valid: { query: { monitorId: '1', limit: '100', after: 'abc', eventType: 'tweet.reply' } },
    invalid: { query: { limit: '101' } },
    response: { events: [storedEvent, keywordEvent], hasMore: true, nextCursor: 'eyJpZCI6MTAxfQ' },
  },
  getEvent: { valid: { params: { id: '100' } }, invalid: { params: {} }, response: storedEvent },
  listWebhooks: {
    valid: {},
    response: {
      webhooks: [
        webhook,
        { ...webhook, id: '201', deliveryStatus: 'needs_attention', consecutiveFailures: 50 },
      ],
    },
  },
  createWebhook: {
    valid: { body: { url: 'https://example.com/hooks/xsvc', eventTypes: ['tweet.new', 'tweet.reply'] } },
    invalid: { body: { url: 'http://example.com/hooks/xsvc', eventTypes: ['tweet.new'] } },
    response: {
      id: '1900000000000000200',
      url: 'https://example.com/hooks/xsvc',
      eventTypes: ['tweet.new', 'tweet.reply'],
      secret: 'a3f9c2d17b5e4f60a3f9c2d17b5e4f60a3f9c2d17b5e4f60a3f9c2d17b5e4f60',
      createdAt: TS,
    },
  },
  updateWebhook: {
    valid: { params: { id: '200' }, body: { url: 'https://hooks.example.org/in' } },
    invalid: { params: { id: '200' }, body: {} },
    response: { ...webhook, url: 'https://hooks.example.org/in' },
  },
  deleteWebhook: { valid: { params: { id: '200' } }, invalid: { params: {} }, response: { success: true } },
  listWebhookDeliveries: {
    valid: { params: { id: '200' } },
    invalid: { params: { id: '' } },
    response: {
      deliveries: [
        {
          id: '1900000000000000300',
          status: 'delivered',
          attempts: 1,
          lastStatusCode: 200,
          createdAt: TS,
          deliveredAt: '2026-03-01T12:00:00.250Z',
          streamEventId: '1900000000000000100',
          deliveryId: '1900000000000000300',
          eventType: 'tweet.reply',
        },
        {
          id: '1900000000000000301',
          status: 'failed',
          attempts: 3,
          lastStatusCode: null,
          lastError: 'connect ETIMEDOUT',
          createdAt: TS,
          streamEventId: '1900000000000000101',
          deliveryId: '1900000000000000301',
          eventType: 'tweet.new',
          nextAttemptAt: '2026-03-01T12:00:08.000Z',
        },
      ],
    },
  },
  testWebhook: {
    valid: { params: { id: '200' } },
    invalid: { params: {} },
    response: { success: false, statusCode: 500, error: 'endpoint answered 500' },
  },
  resumeWebhook: {
    valid: { params: { id: '201' } },
    invalid: { params: {} },
    response: { success: true, statusCode: 200, webhook },
  },
  listExtractions: {
    valid: { query: { toolType: 'reply_extractor', status: 'running', cursor: 'abc' } },
    invalid: { query: { status: 'done' } },
    response: {
      extractions: [
        job,
        {
          id: UUID,
          toolType: 'reply_extractor',
          status: 'running',
          totalResults: 40,
          targetTweetId: '20',
          createdAt: TS,
        },
        {
          id: UUID,
          toolType: 'tweet_search_extractor',
          status: 'failed',
          totalResults: 0,
          searchQuery: 'from:jack',
          errorMessage: 'search unavailable',
          createdAt: TS,
        },
      ],
      hasMore: false,
    },
  },
  createExtraction: {
    valid: {
      query: { dry_run: 'false' },
      body: {
        toolType: 'tweet_search_extractor',
        searchQuery: 'xsvc',
        sinceDate: '2026-01-01',
        replies: 'exclude',
      },
    },
    invalid: { body: { toolType: 'reply_extractor', targetUsername: 'jack' } },
    response: { id: UUID, toolType: 'follower_explorer', status: 'running' },
  },
  estimateExtraction: {
    valid: { body: { toolType: 'follower_explorer', targetUsername: 'jack', resultsLimit: 1000 } },
    invalid: { body: { toolType: 'not_a_tool', targetUsername: 'jack' } },
    response: {
      estimatedResults: 1000,
      creditsRequired: '1000',
      creditsAvailable: '25000',
      allowed: true,
      source: 'resultsLimit',
      resolvedXUserId: '12',
    },
  },
  getExtraction: {
    valid: { params: { id: UUID }, query: { limit: '1000', outputMode: 'raw', includeRaw: 'true' } },
    invalid: { params: { id: UUID }, query: { limit: '1001' } },
    response: {
      job,
      results: [
        { id: '1', xUserId: '101', xUsername: 'alice', xFollowersCount: 50, xVerified: false, createdAt: TS },
        {
          id: '2',
          xUserId: '102',
          xUsername: 'bob',
          xDisplayName: 'Bob',
          xProfileImageUrl: 'https://pbs.example.com/bob.jpg',
          tweetId: '1897000000000000020',
          tweetText: 'hello',
          tweetCreatedAt: TS,
          enrichmentData: {
            description: 'builder',
            followingCount: 10,
            likeCount: 3,
            lang: 'en',
            title: 'Notes',
          },
        },
      ],
      hasMore: true,
      nextCursor: '2',
    },
  },
  exportExtraction: {
    valid: { params: { id: UUID }, query: { format: 'md-document', minFollowers: '100', verified: 'true' } },
    invalid: { params: { id: UUID }, query: { format: 'docx' } },
    response: 'id,xUserId,xUsername\n1,101,alice\n',
  },
  listDraws: {
    valid: { query: { limit: '50' } },
    invalid: { query: { limit: '0' } },
    response: {
      draws: [
        {
          id: UUID,
          tweetUrl: 'https://x.com/jack/status/20',
          status: 'completed',
          totalEntries: 120,
          validEntries: 87,
          createdAt: TS,
          drawnAt: '2026-03-01T12:00:05.000Z',
        },
      ],
      hasMore: false,
    },
  },
  createDraw: {
    valid: {
      body: {
        tweetUrl: 'https://twitter.com/jack/status/20',
        winnerCount: 2,
        backupCount: 1,
        mustFollowUsername: '@jack',
        requiredHashtags: ['#giveaway'],
        requiredMentions: ['@friend'],
        requiredKeywords: ['win'],
      },
    },
    invalid: { body: { tweetUrl: 'https://x.com/jack/status/20', requiredHashtags: ['giveaway'] } },
    response: { id: UUID, tweetId: '20', totalEntries: 120, validEntries: 87, winners },
  },
  createDrawCommitment: {
    valid: { body: { entropyHash: 'a'.repeat(64) } },
    invalid: { body: { entropyHash: 'A'.repeat(64) } },
    response: {
      id: UUID,
      seedHash: 'b'.repeat(64),
      entropyHash: 'a'.repeat(64),
      committedAt: '2026-04-29T12:00:00.000Z',
    },
  },
  getDraw: {
    valid: { params: { id: UUID } },
    invalid: { params: {} },
    response: {
      draw: {
        id: UUID,
        tweetId: '20',
        tweetUrl: 'https://x.com/jack/status/20',
        status: 'completed',
        totalEntries: 120,
        validEntries: 87,
        createdAt: TS,
        drawnAt: '2026-03-01T12:00:05.000Z',
        tweetText: 'Giveaway! Reply to enter',
        tweetAuthorUsername: 'jack',
        tweetLikeCount: 310,
        tweetRetweetCount: 42,
        tweetReplyCount: 120,
        tweetQuoteCount: 3,
      },
      winners,
    },
  },
  exportDraw: {
    valid: { params: { id: UUID }, query: { format: 'xlsx', type: 'entries' } },
    invalid: { params: { id: UUID }, query: { format: 'csv', type: 'losers' } },
    response: 'position,authorUsername,tweetId,isBackup\n1,alice,1897000000000000010,false\n',
  },
};

describe('automation operations', () => {
  it('has a case for every operation and nothing else', () => {
    expect(Object.keys(cases).sort()).toEqual(all.map((o) => o.id).sort());
  });

  it('uses unique sdk paths', () => {
    const paths = all.map((o) => o.sdk.join('.'));
    expect(new Set(paths).size).toBe(paths.length);
  });

  for (const [id, c] of Object.entries(cases)) {
    describe(id, () => {
      const op = byId[id]!;

      it('accepts a valid request', () => {
        const r = parseRequest(op, c.valid);
        expect(r.error?.issues ?? []).toEqual([]);
      });

      const invalid = c.invalid;
      if (invalid) {
        it('refuses an invalid request', () => {
          expect(parseRequest(op, invalid).success).toBe(false);
        });
      } else {
        it('takes no input', () => {
          expect([op.params, op.query, op.body]).toEqual([null, null, null]);
        });
      }

      it('emits a response that passes the strict schema', () => {
        const r = strictify(op.response).safeParse(c.response);
        expect(r.error?.issues ?? []).toEqual([]);
      });
    });
  }

  it('refuses unknown response fields under strictify', () => {
    const r = strictify(byId.getMonitor!.response).safeParse({ ...monitor, surprise: 1 });
    expect(r.success).toBe(false);
  });

  it('parses the dry-run answer as an estimate', () => {
    const r = strictify(ExtractionEstimateSchema).safeParse(cases.estimateExtraction!.response);
    expect(r.success).toBe(true);
  });
});

describe('extraction target rule', () => {
  it('maps every tool to a target field', () => {
    expect(Object.keys(EXTRACTION_TARGETS).sort()).toEqual([...EXTRACTION_TOOL_TYPES].sort());
    expect(EXTRACTION_TOOL_TYPES).toHaveLength(23);
  });

  const table: [string, string, string][] = [
    ['reply_extractor', 'targetTweetId', '1897000000000000000'],
    ['favoriters', 'targetTweetId', '1897000000000000000'],
    ['follower_explorer', 'targetUsername', '@jack'],
    ['user_media', 'targetUsername', 'jack'],
    ['community_post_extractor', 'targetCommunityId', '1500000000000000000'],
    ['people_search', 'searchQuery', 'rust developers'],
    ['list_member_extractor', 'targetListId', '1400000000000000000'],
    ['space_explorer', 'targetSpaceId', '1YqKDqWqdPLsV'],
  ];

  for (const [toolType, field, value] of table) {
    it(`${toolType} needs ${field}`, () => {
      expect(ExtractionRequestSchema.safeParse({ toolType, [field]: value }).success).toBe(true);

      const missing = ExtractionRequestSchema.safeParse({ toolType, resultsLimit: 10 });
      expect(missing.success).toBe(false);
      const issue = missing.error!.issues[0]!;
      expect(issue.path).toEqual([field]);
      expect(issue.message).toContain(field);
      expect(issue.message).toContain(toolType);
    });
  }

  it('does not accept another tool’s target in place of the right one', () => {
    const r = ExtractionRequestSchema.safeParse({ toolType: 'thread_extractor', searchQuery: 'x' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toContain('targetTweetId');
  });
});

describe('draw tweet URL', () => {
  const body = (tweetUrl: string) => ({ tweetUrl });
  const createDraw = byId.createDraw!;

  it.each([
    'https://x.com/jack/status/20',
    'https://twitter.com/jack/status/20',
    'https://www.twitter.com/jack/status/20?s=20',
    'https://mobile.x.com/some_user/status/1897000000000000000/',
    'https://x.com/i/web/status/1897000000000000000',
  ])('accepts %s', (url) => {
    expect(TWEET_STATUS_URL.test(url)).toBe(true);
    expect(createDraw.body!.safeParse(body(url)).success).toBe(true);
  });

  it.each([
    'https://example.com/jack/status/20',
    'https://x.com.evil.example/jack/status/20',
    'https://notx.com/jack/status/20',
    'https://x.com/jack',
    'https://x.com/jack/status/abc',
    'ftp://x.com/jack/status/20',
    'x.com/jack/status/20',
  ])('refuses %s', (url) => {
    const r = createDraw.body!.safeParse(body(url));
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toMatch(/x\.com or twitter\.com/);
  });

  it('defaults winnerCount to 1', () => {
    const r = createDraw.body!.parse(body('https://x.com/jack/status/20')) as { winnerCount: number };
    expect(r.winnerCount).toBe(1);
  });
});
