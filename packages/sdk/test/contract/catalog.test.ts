import { describe, expect, it } from 'vitest';
import { operations } from '../../src/contract/operations/index.js';
import { strictify } from '../../src/contract/zod-helpers.js';
import { exampleFor } from '../../src/testing/examples.js';

/** The 127 operations of the reference (operationId, method, path), copied from operations-reference.md. */
const REFERENCE: readonly [string, string, string][] = [
  ['getAccount', 'GET', '/api/v1/account'],
  ['updateAccount', 'PATCH', '/api/v1/account'],
  ['setXIdentity', 'PUT', '/api/v1/account/x-identity'],
  ['listApiKeys', 'GET', '/api/v1/api-keys'],
  ['createApiKey', 'POST', '/api/v1/api-keys'],
  ['revokeApiKey', 'DELETE', '/api/v1/api-keys/{id}'],
  ['subscribe', 'POST', '/api/v1/subscribe'],
  ['getCredits', 'GET', '/api/v1/credits'],
  ['topUpCredits', 'POST', '/api/v1/credits/topup'],
  ['getCreditTopupStatus', 'GET', '/api/v1/credits/topup/status'],
  ['quickTopUpCredits', 'POST', '/api/v1/credits/quick-topup'],
  ['compose', 'POST', '/api/v1/compose'],
  ['listDrafts', 'GET', '/api/v1/drafts'],
  ['createDraft', 'POST', '/api/v1/drafts'],
  ['getDraft', 'GET', '/api/v1/drafts/{id}'],
  ['deleteDraft', 'DELETE', '/api/v1/drafts/{id}'],
  ['listStyles', 'GET', '/api/v1/styles'],
  ['analyzeStyle', 'POST', '/api/v1/styles'],
  ['compareStyles', 'GET', '/api/v1/styles/compare'],
  ['getStyle', 'GET', '/api/v1/styles/{id}'],
  ['saveStyle', 'PUT', '/api/v1/styles/{id}'],
  ['deleteStyle', 'DELETE', '/api/v1/styles/{id}'],
  ['getStylePerformance', 'GET', '/api/v1/styles/{id}/performance'],
  ['getRadar', 'GET', '/api/v1/radar'],
  ['listMonitors', 'GET', '/api/v1/monitors'],
  ['createMonitor', 'POST', '/api/v1/monitors'],
  ['listKeywordMonitors', 'GET', '/api/v1/monitors/keywords'],
  ['createKeywordMonitor', 'POST', '/api/v1/monitors/keywords'],
  ['getKeywordMonitor', 'GET', '/api/v1/monitors/keywords/{id}'],
  ['updateKeywordMonitor', 'PATCH', '/api/v1/monitors/keywords/{id}'],
  ['deleteKeywordMonitor', 'DELETE', '/api/v1/monitors/keywords/{id}'],
  ['getMonitor', 'GET', '/api/v1/monitors/{id}'],
  ['updateMonitor', 'PATCH', '/api/v1/monitors/{id}'],
  ['deleteMonitor', 'DELETE', '/api/v1/monitors/{id}'],
  ['listEvents', 'GET', '/api/v1/events'],
  ['getEvent', 'GET', '/api/v1/events/{id}'],
  ['listExtractions', 'GET', '/api/v1/extractions'],
  ['createExtraction', 'POST', '/api/v1/extractions'],
  ['estimateExtraction', 'POST', '/api/v1/extractions/estimate'],
  ['getExtraction', 'GET', '/api/v1/extractions/{id}'],
  ['exportExtraction', 'GET', '/api/v1/extractions/{id}/export'],
  ['listDraws', 'GET', '/api/v1/draws'],
  ['createDraw', 'POST', '/api/v1/draws'],
  ['getDraw', 'GET', '/api/v1/draws/{id}'],
  ['exportDraw', 'GET', '/api/v1/draws/{id}/export'],
  ['listWebhooks', 'GET', '/api/v1/webhooks'],
  ['createWebhook', 'POST', '/api/v1/webhooks'],
  ['updateWebhook', 'PATCH', '/api/v1/webhooks/{id}'],
  ['deleteWebhook', 'DELETE', '/api/v1/webhooks/{id}'],
  ['listWebhookDeliveries', 'GET', '/api/v1/webhooks/{id}/deliveries'],
  ['testWebhook', 'POST', '/api/v1/webhooks/{id}/test'],
  ['resumeWebhook', 'POST', '/api/v1/webhooks/{id}/resume'],
  ['getBatchTweets', 'GET', '/api/v1/x/tweets'],
  ['searchTweets', 'GET', '/api/v1/x/tweets/search'],
  ['lookupTweet', 'GET', '/api/v1/x/tweets/{id}'],
  ['getTweetFavoriters', 'GET', '/api/v1/x/tweets/{id}/favoriters'],
  ['getBookmarks', 'GET', '/api/v1/x/bookmarks'],
  ['getBookmarkFolders', 'GET', '/api/v1/x/bookmarks/folders'],
  ['getTimeline', 'GET', '/api/v1/x/timeline'],
  ['getTweetQuotes', 'GET', '/api/v1/x/tweets/{id}/quotes'],
  ['getTweetReplies', 'GET', '/api/v1/x/tweets/{id}/replies'],
  ['getTweetRetweeters', 'GET', '/api/v1/x/tweets/{id}/retweeters'],
  ['getTweetThread', 'GET', '/api/v1/x/tweets/{id}/thread'],
  ['createTweet', 'POST', '/api/v1/x/tweets'],
  ['getWriteActionStatus', 'GET', '/api/v1/x/write-actions/{id}'],
  ['deleteTweet', 'DELETE', '/api/v1/x/tweets/{id}'],
  ['likeTweet', 'POST', '/api/v1/x/tweets/{id}/like'],
  ['unlikeTweet', 'DELETE', '/api/v1/x/tweets/{id}/like'],
  ['retweet', 'POST', '/api/v1/x/tweets/{id}/retweet'],
  ['unretweet', 'DELETE', '/api/v1/x/tweets/{id}/retweet'],
  ['followUser', 'POST', '/api/v1/x/users/{id}/follow'],
  ['unfollowUser', 'DELETE', '/api/v1/x/users/{id}/follow'],
  ['removeFollower', 'POST', '/api/v1/x/users/{id}/remove-follower'],
  ['sendDm', 'POST', '/api/v1/x/dm/{userId}'],
  ['uploadMedia', 'POST', '/api/v1/x/media'],
  ['updateProfile', 'PATCH', '/api/v1/x/profile'],
  ['updateAvatar', 'PATCH', '/api/v1/x/profile/avatar'],
  ['updateBanner', 'PATCH', '/api/v1/x/profile/banner'],
  ['createCommunity', 'POST', '/api/v1/x/communities'],
  ['deleteCommunity', 'DELETE', '/api/v1/x/communities/{id}'],
  ['joinCommunity', 'POST', '/api/v1/x/communities/{id}/join'],
  ['leaveCommunity', 'DELETE', '/api/v1/x/communities/{id}/join'],
  ['getXTrends', 'GET', '/api/v1/x/trends'],
  ['getTrends', 'GET', '/api/v1/trends'],
  ['getArticle', 'GET', '/api/v1/x/articles/{tweetId}'],
  ['getBatchUsers', 'GET', '/api/v1/x/users/batch'],
  ['searchUsers', 'GET', '/api/v1/x/users/search'],
  ['getUser', 'GET', '/api/v1/x/users/{id}'],
  ['checkFollow', 'GET', '/api/v1/x/followers/check'],
  ['getUserTweets', 'GET', '/api/v1/x/users/{id}/tweets'],
  ['getUserReplies', 'GET', '/api/v1/x/users/{id}/replies'],
  ['getUserLikes', 'GET', '/api/v1/x/users/{id}/likes'],
  ['getUserMedia', 'GET', '/api/v1/x/users/{id}/media'],
  ['getFollowersYouKnow', 'GET', '/api/v1/x/users/{id}/followers-you-know'],
  ['getNotifications', 'GET', '/api/v1/x/notifications'],
  ['getDmHistory', 'GET', '/api/v1/x/dm/{userId}/history'],
  ['getUserFollowers', 'GET', '/api/v1/x/users/{id}/followers'],
  ['getUserFollowing', 'GET', '/api/v1/x/users/{id}/following'],
  ['getUserMentions', 'GET', '/api/v1/x/users/{id}/mentions'],
  ['getUserVerifiedFollowers', 'GET', '/api/v1/x/users/{id}/verified-followers'],
  ['downloadMedia', 'POST', '/api/v1/x/media/download'],
  ['listXAccounts', 'GET', '/api/v1/x/accounts'],
  ['connectXAccount', 'POST', '/api/v1/x/accounts'],
  ['getXAccountConnectionAttempt', 'GET', '/api/v1/x/account-connection-attempts/{id}'],
  ['submitXAccountConnectionChallenge', 'POST', '/api/v1/x/account-connection-challenges/{id}/submit'],
  ['getXAccount', 'GET', '/api/v1/x/accounts/{id}'],
  ['disconnectXAccount', 'DELETE', '/api/v1/x/accounts/{id}'],
  ['reauthXAccount', 'POST', '/api/v1/x/accounts/{id}/reauth'],
  ['bulkRetryXAccounts', 'POST', '/api/v1/x/accounts/bulk-retry'],
  ['downloadSupportAttachment', 'GET', '/api/v1/support/attachments/{id}'],
  ['createTicket', 'POST', '/api/v1/support/tickets'],
  ['listTickets', 'GET', '/api/v1/support/tickets'],
  ['getTicket', 'GET', '/api/v1/support/tickets/{id}'],
  ['updateTicketStatus', 'PATCH', '/api/v1/support/tickets/{id}'],
  ['addTicketMessage', 'POST', '/api/v1/support/tickets/{id}/messages'],
  ['createGuestWallet', 'POST', '/api/v1/guest-wallets'],
  ['topUpGuestWallet', 'POST', '/api/v1/guest-wallets/topups'],
  ['getGuestWalletStatus', 'GET', '/api/v1/guest-wallets/status'],
  ['getCommunityInfo', 'GET', '/api/v1/x/communities/{id}/info'],
  ['getCommunityMembers', 'GET', '/api/v1/x/communities/{id}/members'],
  ['getCommunityModerators', 'GET', '/api/v1/x/communities/{id}/moderators'],
  ['getCommunityTweets', 'GET', '/api/v1/x/communities/{id}/tweets'],
  ['searchCommunities', 'GET', '/api/v1/x/communities/search'],
  ['getAllCommunityTweets', 'GET', '/api/v1/x/communities/tweets'],
  ['getListFollowers', 'GET', '/api/v1/x/lists/{id}/followers'],
  ['getListMembers', 'GET', '/api/v1/x/lists/{id}/members'],
  ['getListTweets', 'GET', '/api/v1/x/lists/{id}/tweets'],
];

/** Operations the interface spec adds beyond the reference's 127. */
const SPEC_EXTRAS = ['getUserListMemberships', 'getJob', 'viralScore'];

describe('the contract', () => {
  it('holds all 127 operations of the reference, at their method and path', () => {
    expect(REFERENCE).toHaveLength(127);
    for (const [id, method, path] of REFERENCE) {
      const op = operations.find((o) => o.id === id);
      expect(op, id).toBeDefined();
      expect(`${op!.method} ${op!.path}`, id).toBe(`${method} ${path}`);
    }
  });

  it('holds the operations the spec adds, and the public endpoints', () => {
    for (const id of SPEC_EXTRAS)
      expect(
        operations.some((o) => o.id === id),
        id,
      ).toBe(true);
    for (const path of ['/ask', '/openapi.json', '/.well-known/api-catalog', '/api/oauth/token']) {
      expect(
        operations.some((o) => o.path === path),
        path,
      ).toBe(true);
    }
  });

  it('has unique ids, unique method+path, and unique SDK paths', () => {
    const uniq = (xs: string[]) => expect(new Set(xs).size).toBe(xs.length);
    uniq(operations.map((o) => o.id));
    uniq(operations.map((o) => `${o.method} ${o.path}`));
    uniq(operations.map((o) => o.sdk.join('.')));
  });

  it.each(operations.map((o) => [o.id, o] as const))('%s is well-formed', (_id, op) => {
    const placeholders = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    expect(Object.keys(op.params?.shape ?? {}).sort()).toEqual([...placeholders].sort());
    expect(op.summary.length).toBeGreaterThan(5);
    expect(op.success.length).toBeGreaterThan(0);
    if (op.pagination) {
      expect(op.items, 'paginated operations name their items').toBeTruthy();
      expect(op.method).toBe('GET');
    }
    if (op.writeAction) {
      expect(op.success).toEqual(expect.arrayContaining([200, 202]));
    }
    if (op.method === 'GET') expect(op.body).toBeNull();
  });

  it.each(operations.map((o) => [o.id, o] as const))(
    '%s: the generated mock answer satisfies the strict schema',
    (_id, op) => {
      const example = exampleFor(op.response);
      const r = strictify(op.response).safeParse(example);
      expect(r.success ? [] : r.error.issues).toEqual([]);
      if (op.pagination && op.items)
        expect(Array.isArray((example as Record<string, unknown>)[op.items])).toBe(true);
    },
  );
});
