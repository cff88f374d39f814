import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { limits } from '../../src/contract/limits.js';
import type { AnyOperation } from '../../src/contract/operation.js';
import { articlesOperations } from '../../src/contract/operations/articles.js';
import { communitiesOperations } from '../../src/contract/operations/communities.js';
import { listsOperations } from '../../src/contract/operations/lists.js';
import { mediaOperations } from '../../src/contract/operations/media.js';
import { getTrends, getXTrends, trendsOperations } from '../../src/contract/operations/trends.js';
import {
  getBatchTweets,
  getTweetQuotes,
  getTweetReplies,
  getTweetThread,
  searchTweets,
  tweetsOperations,
  viralScore,
} from '../../src/contract/operations/tweets.js';
import {
  getBatchUsers,
  getUserFollowers,
  getUserFollowing,
  getUserLikes,
  getUserListMemberships,
  getUserMedia,
  getUserMentions,
  getUserReplies,
  getUserTweets,
  usersOperations,
} from '../../src/contract/operations/users.js';
import {
  clampTrendCount,
  tweetFilterQuery,
  tweetMatchFilterQuery,
  tweetOperatorFilterQuery,
  userFilterQuery,
} from '../../src/contract/schemas/reads.js';
import type { Tweet } from '../../src/contract/schemas/tweet.js';
import type { UserProfile } from '../../src/contract/schemas/user.js';
import { strictify } from '../../src/contract/zod-helpers.js';

const all: readonly AnyOperation[] = [
  ...tweetsOperations,
  ...usersOperations,
  ...listsOperations,
  ...communitiesOperations,
  ...trendsOperations,
  ...articlesOperations,
  ...mediaOperations,
];

function ok(schema: z.ZodType | null, value: unknown): unknown {
  expect(schema).not.toBeNull();
  const r = schema!.safeParse(value);
  if (!r.success) throw new Error(JSON.stringify(r.error.issues));
  return r.data;
}
function issues(schema: z.ZodType | null, value: unknown): z.core.$ZodIssue[] {
  expect(schema).not.toBeNull();
  const r = schema!.safeParse(value);
  expect(r.success, `expected ${JSON.stringify(value)} to be rejected`).toBe(false);
  return r.success ? [] : r.error.issues;
}
const bad = (schema: z.ZodType | null, value: unknown): void => void issues(schema, value);
/** The first message, as the server reads it for the error code (`too_many_ids: ...`). */
const firstMessage = (schema: z.ZodType | null, value: unknown) => issues(schema, value)[0]?.message ?? '';

// ---------------------------------------------------------------------------------------------------------
// Realistic fixtures
// ---------------------------------------------------------------------------------------------------------

const jack: UserProfile = {
  id: '12',
  username: 'jack',
  name: 'jack',
  description: 'no state is the best state',
  followers: 6_400_000,
  following: 4_100,
  verified: true,
  isBlueVerified: true,
  verifiedType: 'blue',
  profilePicture: 'https://pbs.twimg.com/profile_images/1115644092329758721/AFjOr-K8_normal.jpg',
  coverPicture: 'https://pbs.twimg.com/profile_banners/12/1742427520',
  location: 'California',
  url: 'https://t.co/abc',
  createdAt: '2006-03-21T20:50:14.000Z',
  statusesCount: 29_000,
  mediaCount: 2_100,
  favouritesCount: 35_000,
  protected: false,
  pinnedTweetIds: ['1790000000000000001'],
  possiblySensitive: false,
  withheldInCountries: [],
  profileImageShape: 'Circle',
  affiliatesHighlightedLabel: {
    label: 'Block',
    url: 'https://block.xyz',
    badgeUrl: 'https://pbs.twimg.com/b.png',
  },
  highlightsInfo: { canHighlightTweets: true, highlightedTweets: 2 },
  identityVerification: { isIdentityVerified: false },
  profile_bio: { description: 'no state is the best state', entities: { url: { urls: [] } } },
};

const tweet: Tweet = {
  id: '1790000000000000001',
  text: 'just setting up my twttr https://t.co/xyz #hello',
  createdAt: '2026-04-29T12:00:00.000Z',
  type: 'tweet',
  url: 'https://x.com/jack/status/1790000000000000001',
  lang: 'en',
  source: 'Twitter Web App',
  isReply: false,
  conversationId: '1790000000000000001',
  displayTextRange: [0, 47],
  entities: {
    urls: [
      { url: 'https://t.co/xyz', expandedUrl: 'https://example.com/post', displayUrl: 'example.com/post' },
    ],
    hashtags: [{ text: 'hello' }],
    mentions: [{ id: '783214', username: 'X' }],
  },
  contentDisclosure: { advertising: { isPaidPromotion: false } },
  likeCount: 120,
  retweetCount: 14,
  replyCount: 9,
  quoteCount: 3,
  viewCount: 15_000,
  bookmarkCount: 6,
  media: [
    {
      type: 'video',
      mediaUrl: 'https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/a.jpg',
      url: 'https://t.co/vid',
      width: 1280,
      height: 720,
      variants: [{ bitrate: 2_176_000, contentType: 'video/mp4', url: 'https://video.twimg.com/a.mp4' }],
    },
  ],
  author: { id: '12', username: 'jack', name: 'jack', followers: 6_400_000, verified: true },
  quoted_tweet: {
    id: '1780000000000000000',
    text: 'the original',
    createdAt: '2026-04-20T09:00:00.000Z',
    author: { id: '783214', username: 'X', name: 'X' },
  },
};

const reply: Tweet = {
  id: '1790000000000000002',
  text: '@jack welcome',
  createdAt: '2026-04-29T12:05:00.000Z',
  isReply: true,
  inReplyToId: '1790000000000000001',
  inReplyToUserId: '12',
  inReplyToUsername: 'jack',
  conversationId: '1790000000000000001',
  author: { id: '783214', username: 'X', name: 'X' },
};

const tweetsPage = { tweets: [tweet, reply], has_next_page: true, next_cursor: 'DAABCgABGQ' };
const usersPage = { users: [jack], has_next_page: false, next_cursor: '' };
const coverage = {
  mode: 'automatic',
  complete: false,
  stopReason: 'page_limit',
  platformPages: 5,
  duplicatesRemoved: 2,
  cursorExpiresAt: '2026-04-29T13:00:00.000Z',
};

const viralRow = {
  tweet: { id: 'text:1', text: 'We shipped dark mode today. Try it and tell us what breaks.', type: 'text' },
  analysis: {
    status: 'completed',
    answers: [
      { questionId: 'hook', type: 'score', value: 2, confidence: 0.8 },
      { questionId: 'reaction', type: 'choice', value: 'share', confidence: 0.7 },
    ],
    questions: [
      { id: 'hook', type: 'score', version: '1' },
      { id: 'reaction', type: 'choice', version: '1' },
    ],
    contextBytes: 412,
    contextAvailability: { postText: 'full' },
  },
  answers: {
    hook: 2,
    clarity: 2,
    informative: 1,
    funny: 0,
    ragebait: 0.02,
    ai_written: 0.1,
    spam: 0.01,
    reaction: 'share',
  },
  viralScore: 74,
  viralVerdict: 'send_it',
  viral: { stops: [], weights: 'viral_lite:1', algorithmBasis: null },
  viralAlgorithmScore: null,
  viralActualEngagementRate: null,
  sourceDomains: [],
  cashtags: [],
  monitor: { status: 'changed', changes: [{ questionId: 'hook', previous: 1, current: 2 }] },
};

/** A realistic answer of every operation. */
const responses: Record<string, unknown> = {
  getBatchTweets: { tweets: [tweet], has_next_page: false, next_cursor: '' },
  searchTweets: { ...tweetsPage, diagnostic: { ...coverage, newestId: reply.id, oldestId: tweet.id } },
  lookupTweet: { tweet, author: tweet.author },
  getTweetFavoriters: usersPage,
  getBookmarks: tweetsPage,
  getBookmarkFolders: {
    folders: [{ id: '1650000000000000000', name: 'Reading list', createdAt: '2026-01-02T03:04:05.000Z' }],
    has_next_page: false,
    next_cursor: '',
  },
  getTimeline: tweetsPage,
  getTweetQuotes: tweetsPage,
  getTweetReplies: {
    tweets: [reply],
    nested_replies: [{ ...reply, id: '1790000000000000003', inReplyToId: reply.id }],
    has_next_page: false,
    next_cursor: '',
    diagnostic: {
      ...coverage,
      complete: true,
      stopReason: 'exhausted',
      expectedReplies: 9,
      directReplyCount: 8,
      nestedReplyCount: 1,
    },
  },
  getTweetRetweeters: usersPage,
  getTweetThread: tweetsPage,
  viralScore: {
    results: [viralRow],
    unanalyzed: [{ id: 'text:2', status: 'skipped', reason: 'empty text' }],
    analysisSummary: {
      schemaVersion: 1,
      rows: { analyzed: 1, failed: 0, skipped: 1 },
      engagement: { likes: 0, replies: 0, reposts: 0, quotes: 0, views: 0 },
      questions: { hook: { average: 2, weightedAverage: 2 } },
      targets: { texts: 2 },
      viral: {
        averageScore: 74,
        calibration: { send_it: 1, edit_first: 0, sleep_on_it: 0, scored: 1, unscored: 0 },
        leaderboard: {
          byViralScore: [{ username: 'jack', rank: 1, posts: 3, average: 71.5 }],
          byActualEngagementRate: [{ username: 'jack', rank: 1, posts: 3, average: 0.72 }],
        },
      },
      monitor: { changed: 1 },
    },
    has_next_page: false,
    next_cursor: '',
  },
  getBatchUsers: {
    users: [jack],
    has_next_page: false,
    next_cursor: '',
    requested_count: 3,
    processed_count: 2,
    returned_count: 1,
    unavailable_ids: ['44196397'],
    unprocessed_ids: ['783214'],
  },
  searchUsers: usersPage,
  getUser: jack,
  checkFollow: { isFollowing: true, isFollowedBy: false, sourceUsername: 'jack', targetUsername: 'biz' },
  getUserTweets: tweetsPage,
  getUserReplies: tweetsPage,
  getUserLikes: tweetsPage,
  getUserMedia: tweetsPage,
  getFollowersYouKnow: usersPage,
  getNotifications: {
    notifications: [
      {
        id: 'n-1',
        type: 'like',
        createdAt: '2026-04-29T12:10:00.000Z',
        text: 'jack liked your post',
        users: [jack],
        tweet,
      },
    ],
    has_next_page: true,
    next_cursor: 'NOTIF_2',
  },
  getDmHistory: {
    messages: [
      {
        id: '1790000000000000100',
        senderId: '12',
        receiverId: '783214',
        text: 'see you at the meetup',
        createdAt: '2026-04-29T12:20:00.000Z',
      },
    ],
    has_next_page: false,
    next_cursor: '',
  },
  getUserFollowers: { ...usersPage, diagnostic: { ...coverage, expectedUsers: 6_400_000 } },
  getUserFollowing: usersPage,
  getUserMentions: tweetsPage,
  getUserVerifiedFollowers: usersPage,
  getUserListMemberships: {
    lists: [
      {
        id: '1585430245762441216',
        name: 'Founders',
        description: '',
        memberCount: 240,
        subscriberCount: 1_300,
        owner: { ...jack, id: '783214', username: 'X', name: 'X' },
        url: 'https://x.com/i/lists/1585430245762441216',
        createdAt: '2022-10-27T00:00:00.000Z',
        memberAvatarUrls: ['https://pbs.twimg.com/profile_images/1/a_normal.jpg'],
        memberCountText: '240 members',
      },
    ],
    has_next_page: false,
    next_cursor: '',
  },
  getJob: {
    job: {
      id: '1790000000000000900',
      url: 'https://x.com/jobs/1790000000000000900',
      title: 'Senior Backend Engineer',
      applyUrl: 'https://example.com/careers/42',
      location: 'Austin, TX',
      locationType: 'hybrid',
      employmentType: 'full_time',
      seniorityLevel: 'senior',
      postedAt: '2026-04-01T00:00:00.000Z',
      formattedSalary: '$180K - $220K',
      salaryMin: 180_000,
      salaryMax: 220_000,
      salaryCurrencyCode: 'USD',
      salaryInterval: 'annually',
      featured: false,
      description: 'Build the read path.\nOwn the cache.',
      account: { id: '783214', username: 'X', name: 'X', verified: true, verifiedType: 'business' },
    },
  },
  getListFollowers: usersPage,
  getListMembers: usersPage,
  getListTweets: tweetsPage,
  getCommunityInfo: {
    community: {
      id: '1493446837214187523',
      name: 'Build in Public',
      description: 'Ship and share.',
      memberCount: 153_000,
      moderatorCount: 12,
      createdAt: '2022-02-15T00:00:00.000Z',
      joinPolicy: 'Open',
      isNsfw: false,
      rules: [{ name: 'Be kind', description: 'No harassment.' }],
      admin: jack,
    },
  },
  getCommunityMembers: usersPage,
  getCommunityModerators: usersPage,
  getCommunityTweets: tweetsPage,
  searchCommunities: tweetsPage,
  getAllCommunityTweets: tweetsPage,
  getXTrends: {
    trends: [{ name: '#AI', description: 'Technology · 120K posts', rank: 1, query: '%23AI' }],
    total: 30,
    woeid: 1,
    count: 1,
  },
  getTrends: {
    trends: [{ name: 'Champions League', rank: 1 }, { name: '#MondayMotivation' }],
    total: 50,
    woeid: 23424977,
  },
  getArticle: {
    article: {
      id: '1790000000000000700',
      tweetId: '1790000000000000001',
      title: 'Why small releases win',
      previewText: 'Every big launch I shipped was late.',
      bodyText: 'Every big launch I shipped was late.\nSmall releases were not.',
      bodyMarkdown: '# Why small releases win\n\nEvery big launch I shipped was late.',
      coverImageUrl: 'https://pbs.twimg.com/media/cover.jpg',
      createdAt: '2026-04-28T08:00:00.000Z',
      likeCount: 800,
      viewCount: 90_000,
    },
    author: { id: '12', username: 'jack', name: 'jack', followers: 6_400_000, verified: true },
  },
  downloadMedia: {
    tweetId: '1790000000000000001',
    galleryUrl: 'https://media.example.com/g/1790000000000000001',
    cacheHit: false,
    totalTweets: 1,
    totalMedia: 2,
  },
};

/** One valid and one invalid request per operation (path params, query and body as the server gets them). */
interface Case {
  params?: unknown;
  badParams?: unknown;
  query?: unknown;
  badQuery?: unknown;
  body?: unknown;
  badBody?: unknown;
}
const T = '1790000000000000001';
const requests: Record<string, Case> = {
  getBatchTweets: { query: { ids: `${T},1790000000000000002` }, badQuery: { ids: 'abc' } },
  searchTweets: {
    query: { q: 'from:jack', queryType: 'Latest', limit: '50', minFaves: '10', sinceDate: '2026-04-01' },
    badQuery: { q: 'x', queryType: 'Newest' },
  },
  lookupTweet: {
    params: { id: 'https://x.com/jack/status/20' },
    badParams: { id: 'https://example.com/jack/status/20' },
  },
  getTweetFavoriters: { params: { id: T }, query: { pageSize: '50' }, badQuery: { pageSize: '10' } },
  getBookmarks: { query: { account: '@me', folderId: '1650000000000000000' }, badQuery: { account: 'a b' } },
  getBookmarkFolders: { query: {}, badQuery: { account: '' } },
  getTimeline: { query: { seenTweetIds: `${T},1790000000000000002` }, badQuery: { seenTweetIds: 'a,b' } },
  getTweetQuotes: { params: { id: T }, query: { mode: 'standard' }, badQuery: { mode: 'coverage' } },
  getTweetReplies: {
    params: { id: T },
    query: { mode: 'complete', limit: '5000', scope: 'all', sort: 'likes', hasMediaOnly: 'true' },
    badQuery: { limit: '25001' },
  },
  getTweetRetweeters: {
    params: { id: T },
    query: { verifiedOnly: 'true' },
    badQuery: { verifiedOnly: 'yes' },
  },
  getTweetThread: { params: { id: T }, query: { pageSize: '100' }, badQuery: { pageSize: '101' } },
  viralScore: { body: { texts: ['We shipped dark mode today.'] }, badBody: { texts: [] } },
  getBatchUsers: { query: { ids: '12,783214' }, badQuery: {} },
  searchUsers: { query: { q: 'open source', minFollowers: '1000' }, badQuery: { q: '' } },
  getUser: { params: { id: '@jack' }, badParams: { id: 'not a user!' } },
  checkFollow: { query: { source: 'jack', target: 'https://x.com/biz' }, badQuery: { source: 'jack' } },
  getUserTweets: {
    params: { id: 'jack' },
    query: { includeReplies: 'true', replies: 'exclude' },
    badQuery: { replies: 'never' },
  },
  getUserReplies: { params: { id: '12' }, query: {}, badQuery: { pageSize: '301' } },
  getUserLikes: { params: { id: 'jack' }, query: { mediaType: 'images' }, badQuery: { mediaType: 'audio' } },
  getUserMedia: {
    params: { id: 'jack' },
    query: { untilDate: '2026-04-30' },
    badQuery: { untilDate: '30/04/2026' },
  },
  getFollowersYouKnow: { params: { id: 'jack' }, query: { pageSize: '200' }, badQuery: { pageSize: '0' } },
  getNotifications: { query: { type: 'Mentions' }, badQuery: { type: 'mentions' } },
  getDmHistory: {
    params: { userId: '783214' },
    badParams: { userId: 'jack' },
    query: { account: 'me', maxId: '1790000000000000100' },
    badQuery: {},
  },
  getUserFollowers: {
    params: { id: 'jack' },
    query: { after: 'c1', cursor: 'c1' },
    badQuery: { mode: 'deep' },
  },
  getUserFollowing: {
    params: { id: 'jack' },
    query: { mode: 'coverage', limit: '10000' },
    badQuery: { limit: '10001' },
  },
  getUserMentions: {
    params: { id: 'jack' },
    query: { sinceTime: '1767225600', untilTime: '2026-04-30T00:00:00Z' },
    badQuery: { sinceTime: 'yesterday' },
  },
  getUserVerifiedFollowers: {
    params: { id: 'jack' },
    query: { minFollowers: '5' },
    badQuery: { minFollowers: '-1' },
  },
  getUserListMemberships: {
    params: { id: 'jack' },
    query: { per_page: '100' },
    badQuery: { max_results: '101' },
  },
  getJob: { params: { id: 'https://x.com/jobs/1790000000000000900' }, badParams: { id: 'job-42' } },
  getListFollowers: {
    params: { id: '1585430245762441216' },
    badParams: { id: 'founders' },
    query: {},
    badQuery: { pageSize: '201' },
  },
  getListMembers: {
    params: { id: '1585430245762441216' },
    query: { usernameContains: 'dev' },
    badQuery: { usernameContains: '' },
  },
  getListTweets: {
    params: { id: '1585430245762441216' },
    query: { includeReplies: '1' },
    badQuery: { includeReplies: 'maybe' },
  },
  getCommunityInfo: { params: { id: '1493446837214187523' }, badParams: { id: 'build-in-public' } },
  getCommunityMembers: {
    params: { id: '1493446837214187523' },
    query: { pageSize: '20' },
    badQuery: { pageSize: '19' },
  },
  getCommunityModerators: {
    params: { id: '1493446837214187523' },
    query: {},
    badQuery: { hasWebsite: 'perhaps' },
  },
  getCommunityTweets: {
    params: { id: '1493446837214187523' },
    query: { cursor: 'c2' },
    badQuery: { pageSize: '1000' },
  },
  searchCommunities: {
    query: { communityId: '1493446837214187523', q: 'launch', queryType: 'Top' },
    badQuery: { communityId: 'bip', q: 'launch' },
  },
  getAllCommunityTweets: {
    query: { communityId: '1493446837214187523', q: 'launch' },
    badQuery: { q: 'launch' },
  },
  getXTrends: { query: { woeid: '23424977', count: '10' }, badQuery: { woeid: '2' } },
  getTrends: { query: {}, badQuery: { woeid: 'abc' } },
  getArticle: { params: { tweetId: T }, badParams: { tweetId: 'article-1' } },
  downloadMedia: {
    body: { tweetUrl: 'https://x.com/jack/status/20' },
    badBody: { tweetId: T, tweetUrl: 'https://x.com/jack/status/20' },
  },
};

// ---------------------------------------------------------------------------------------------------------

describe('read operations', () => {
  it('cover every read, each with a request case and an answer', () => {
    expect(all).toHaveLength(42);
    expect(Object.keys(requests).sort()).toEqual(all.map((o) => o.id).sort());
    expect(Object.keys(responses).sort()).toEqual(all.map((o) => o.id).sort());
  });

  it.each(all.map((op) => [op.id, op] as const))(
    '%s accepts a valid request and rejects an invalid one',
    (id, op) => {
      const c = requests[id]!;
      if (op.params) {
        ok(op.params, c.params);
        if (c.badParams !== undefined) bad(op.params, c.badParams);
      }
      if (op.query) ok(op.query, c.query);
      if (op.body) ok(op.body, c.body);
      expect(c.badParams ?? c.badQuery ?? c.badBody, `${id} needs an invalid case`).toBeDefined();
      if (c.badQuery !== undefined) bad(op.query, c.badQuery);
      if (c.badBody !== undefined) bad(op.body, c.badBody);
    },
  );

  it.each(all.map((op) => [op.id, op] as const))(
    '%s: a realistic answer satisfies the strict schema',
    (id, op) => {
      ok(strictify(op.response), responses[id]);
    },
  );

  it.each(all.map((op) => [op.id, op] as const))('%s follows the read conventions', (_id, op) => {
    if (op.method === 'GET') {
      expect(op.idempotent).toBe(true);
      expect(op.body).toBeNull();
    }
    if (op.path.startsWith('/api/v1/x/') && op.method === 'GET' && op.items) {
      expect(op.pagination).toBe('B');
      const shape = (op.response as z.ZodObject).shape;
      expect(Object.keys(shape)).toEqual(expect.arrayContaining([op.items, 'has_next_page', 'next_cursor']));
    }
    if (op.auth.includes('payment')) {
      expect(op.cost.kind).toBe('per_call');
      expect(op.cost.kind === 'per_call' && op.cost.mppMicroUsd).toBeGreaterThan(0);
    }
    for (const [k, v] of Object.entries({ ...op.params?.shape, ...op.query?.shape })) {
      expect((v as z.ZodType).description, `${op.id}.${k} is described`).toBeTruthy();
    }
  });

  it('has exactly the 7 fixed-price reads payable by machine payment, at their prices', () => {
    const mpp = Object.fromEntries(
      all
        .filter((o) => o.auth.includes('payment'))
        .map((o) => [o.id, o.cost.kind === 'per_call' ? o.cost.mppMicroUsd : undefined]),
    );
    expect(mpp).toEqual({
      lookupTweet: 150,
      getUser: 150,
      checkFollow: 750,
      getCommunityInfo: 150,
      getArticle: 750,
      getXTrends: 450,
      getTrends: 450,
    });
  });

  it('keeps private reads and media downloads to account credentials', () => {
    for (const id of [
      'getBookmarks',
      'getBookmarkFolders',
      'getTimeline',
      'getNotifications',
      'getDmHistory',
      'downloadMedia',
    ]) {
      expect(all.find((o) => o.id === id)!.auth).toEqual(['apiKey', 'oauth', 'session']);
    }
  });

  it('marks the followers `after` parameter deprecated and accepts both names', () => {
    expect(getUserFollowers.deprecated).toEqual({ params: { after: 'cursor' }, since: 1767225600 });
    expect(ok(getUserFollowers.query, { after: 'abc' })).toMatchObject({ after: 'abc' });
    expect(ok(getUserFollowers.query, { cursor: 'abc' })).toMatchObject({ cursor: 'abc' });
  });
});

describe('batch id lists', () => {
  const ids = (n: number) =>
    Array.from({ length: n }, (_, i) => String(1790000000000000000n + BigInt(i))).join(',');

  it.each([
    ['getBatchTweets', getBatchTweets.query],
    ['getBatchUsers', getBatchUsers.query],
  ] as const)('%s: 100 ids pass, 101 are too_many_ids, none are missing_ids', (_id, query) => {
    expect(limits.batchTweetIds).toBe(100);
    const parsed = ok(query, { ids: ids(100) }) as { ids: string[] };
    expect(parsed.ids).toHaveLength(100);
    expect(firstMessage(query, { ids: ids(101) })).toMatch(/^too_many_ids:/);
    expect(firstMessage(query, { ids: '' })).toMatch(/^missing_ids:/);
    expect(firstMessage(query, { ids: ' , ,' })).toMatch(/^missing_ids:/);
    expect(firstMessage(query, {})).toMatch(/^missing_ids:/);
  });

  it('parses the list to an array and trims it', () => {
    expect(ok(getBatchTweets.query, { ids: ' 1, 2 ,3,' })).toEqual({ ids: ['1', '2', '3'] });
  });
});

describe('identifier forms', () => {
  it('reads a tweet by id or URL and answers invalid_tweet_id otherwise', () => {
    const params = tweetsOperations.find((o) => o.id === 'lookupTweet')!.params;
    for (const id of [T, 'https://twitter.com/jack/status/20?s=20', 'https://x.com/i/web/status/20'])
      ok(params, { id });
    expect(firstMessage(params, { id: 'abc' })).toMatch(/^invalid_tweet_id:/);
  });

  it('reads a user by id, username with or without @, or profile URL', () => {
    const params = usersOperations.find((o) => o.id === 'getUser')!.params;
    for (const id of ['12', 'jack', '@jack', 'https://x.com/jack', 'https://twitter.com/@jack/'])
      ok(params, { id });
    for (const id of ['', 'x'.repeat(16), 'https://example.com/jack']) bad(params, { id });
  });

  it('answers invalid_job_id for a job id that is neither a number nor a job URL', () => {
    const params = usersOperations.find((o) => o.id === 'getJob')!.params;
    expect(firstMessage(params, { id: 'job-42' })).toMatch(/^invalid_job_id:/);
  });

  it('answers missing_query for a search without q', () => {
    expect(firstMessage(searchTweets.query, {})).toMatch(/^missing_query:/);
    expect(firstMessage(searchTweets.query, { q: '  ' })).toMatch(/^missing_query:/);
  });
});

describe('trends', () => {
  it.each([
    ['getXTrends', getXTrends],
    ['getTrends', getTrends],
  ] as const)(
    '%s: woeid defaults to 1 and must be supported; count defaults to 30 and is clamped',
    (_id, op) => {
      expect(ok(op.query, {})).toEqual({ woeid: 1, count: 30 });
      for (const woeid of limits.trendWoeids)
        expect(ok(op.query, { woeid: String(woeid) })).toMatchObject({ woeid });
      for (const woeid of ['2', '0', 'abc', '1.5']) bad(op.query, { woeid });
      const count = (v: string) => (ok(op.query, { count: v }) as { count: number }).count;
      expect(count('10')).toBe(10);
      expect(count('50')).toBe(50);
      expect(count('51')).toBe(50);
      expect(count('1000')).toBe(50);
      expect(count('0')).toBe(1);
      expect(count('-7')).toBe(1);
      expect(count('abc')).toBe(30);
      expect(count('')).toBe(30);
      expect(count('12.9')).toBe(12);
      expect(op.cost).toEqual({ kind: 'per_call', credits: 3, mppMicroUsd: 450 });
    },
  );

  it('clamps with the spec rule', () => {
    expect([
      clampTrendCount(undefined),
      clampTrendCount(['5']),
      clampTrendCount(Number.POSITIVE_INFINITY),
    ]).toEqual([30, 30, 30]);
  });
});

describe('viral score', () => {
  const body = viralScore.body;
  const msg = (v: unknown) => firstMessage(body, v);

  it('takes exactly one source', () => {
    ok(body, { tweetIds: [T, 'https://x.com/jack/status/20'] });
    ok(body, { texts: ['draft one', 'draft two'] });
    expect(ok(body, { username: '@jack', sinceTime: 1767225600, queryType: 'Top' })).toMatchObject({
      limit: 20,
    });
    ok(body, {
      query: 'dark mode',
      listId: '1585430245762441216',
      untilTime: '2026-04-30T00:00:00Z',
      limit: 100,
    });
    ok(body, { repliesTo: T, baseline: [viralRow] });
    for (const v of [
      {},
      { tweetIds: [T], texts: ['a'] },
      { texts: ['a'], query: 'b' },
      { tweetIds: [T], username: 'jack' },
      { limit: 5 },
    ]) {
      expect(msg(v)).toMatch(/^choose exactly one source/);
    }
  });

  it('reports the problem of the one source given', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));
    ok(body, { tweetIds: many(limits.viralScoreItems) });
    expect(msg({ tweetIds: many(limits.viralScoreItems + 1) })).toMatch(/tweetIds|100/);
    expect(msg({ texts: many(limits.viralScoreItems + 1) })).not.toMatch(/exactly one/);
    expect(msg({ tweetIds: ['not a tweet'] })).toMatch(/invalid_tweet_id/);
    expect(msg({ query: 'x', limit: 101 })).not.toMatch(/exactly one/);
    bad(body, { texts: ['a'], baseline: [{ answers: {} }] });
  });

  it('costs 2 credits per analyzed post', () => {
    expect(viralScore.cost).toEqual({ kind: 'per_result', credits: 2 });
  });
});

describe('media download', () => {
  it('takes exactly one of tweetInput, tweetId, tweetUrl, tweetIds', () => {
    const body = mediaOperations[0].body;
    ok(body, { tweetInput: 'https://x.com/jack/status/20' });
    ok(body, { tweetId: T });
    ok(body, { tweetIds: [T, 'https://x.com/jack/status/21'] });
    expect(firstMessage(body, {})).toMatch(/exactly one/);
    expect(firstMessage(body, { tweetId: T, tweetIds: [T] })).toMatch(/exactly one/);
    expect(firstMessage(body, { tweetUrl: 'https://example.com/a' })).toMatch(/tweet URL/);
  });
});

describe('the shared filter sets', () => {
  const tweetFilterOps = [
    searchTweets,
    getTweetQuotes,
    getTweetReplies,
    getUserTweets,
    getUserReplies,
    getUserLikes,
    getUserMedia,
    getUserMentions,
  ];

  it('spread the very same tweet filter schemas into every filtered tweet read', () => {
    expect(Object.keys(tweetMatchFilterQuery)).toHaveLength(32);
    expect(Object.keys(tweetFilterQuery)).toHaveLength(44);
    for (const op of tweetFilterOps) {
      const shape: Record<string, unknown> = op.query!.shape;
      for (const [k, schema] of Object.entries(tweetFilterQuery))
        expect(shape[k], `${op.id}.${k}`).toBe(schema);
    }
    const thread: Record<string, unknown> = getTweetThread.query!.shape;
    for (const [k, schema] of Object.entries(tweetMatchFilterQuery)) expect(thread[k], k).toBe(schema);
    for (const k of Object.keys(tweetOperatorFilterQuery)) expect(k in thread).toBe(false);
  });

  it('spread the very same user filter schemas into every filtered user read', () => {
    const userFilterOps = all.filter((o) => o.items === 'users' && o.id !== 'getBatchUsers');
    expect(userFilterOps.length).toBeGreaterThanOrEqual(11);
    for (const op of userFilterOps) {
      for (const [k, schema] of Object.entries(userFilterQuery))
        expect(op.query!.shape[k], `${op.id}.${k}`).toBe(schema);
    }
    expect(getUserFollowing.query).toBe(getUserFollowers.query);
  });

  it('give list memberships its page-size aliases', () => {
    for (const alias of ['pageSize', 'limit', 'count', 'max_results', 'maxItems', 'max_items', 'per_page']) {
      ok(getUserListMemberships.query, { [alias]: '1' });
      ok(getUserListMemberships.query, { [alias]: '100' });
      bad(getUserListMemberships.query, { [alias]: '101' });
    }
  });
});
