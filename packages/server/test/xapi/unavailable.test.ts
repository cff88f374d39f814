import { describe, expect, it } from 'vitest';
import type { Platform } from '../../src/core/platform/platform.js';
import { PlatformUnavailableError } from '../../src/core/platform/platform.js';
import { XApiPlatform } from '../../src/platform/xapi/index.js';
import { pageOf, platform, rejection, StrictTweet, seen, TOKEN, useXServer } from './helpers.js';

// No handler is installed: a request would fail the test (`onUnhandledRequest: 'error'`) with a different error.
useXServer();

const page = pageOf(20);

/** Every read the X API v2 does not serve with an app token. */
const unsupported: [string, (p: Platform) => Promise<unknown>][] = [
  ['verifiedFollowers', (p) => p.verifiedFollowers('1', page)],
  ['followersYouKnow', (p) => p.followersYouKnow('1', '2', page)],
  ['communityMembers', (p) => p.communityMembers('1', 'moderator', page)],
  ['communityTweets', (p) => p.communityTweets('1', page)],
  ['searchCommunityTweets', (p) => p.searchCommunityTweets('q', undefined, page)],
  ['job', (p) => p.job('1')],
  ['notifications', (p) => p.notifications('1', page)],
];

/** The private reads: served with the connected account's own token (see writes.test.ts), never the app's. */
const userOnly: [string, (p: Platform) => Promise<unknown>][] = [
  ['bookmarks', (p) => p.bookmarks('1', undefined, page)],
  ['bookmarkFolders', (p) => p.bookmarkFolders('1')],
  ['homeTimeline', (p) => p.homeTimeline('1', page)],
  ['dmHistory', (p) => p.dmHistory('1', '2', page)],
];

describe('private reads without the account’s own authorization', () => {
  for (const [name, call] of userOnly) {
    it(`${name} rejects with x_api_unauthorized and sends nothing`, async () => {
      const err = await rejection(call(platform()));
      expect(err).toBeInstanceOf(PlatformUnavailableError);
      expect(err.code).toBe('x_api_unauthorized');
      expect(err.message).toMatch(/connected account’s own X authorization/);
      expect(seen).toHaveLength(0);
    });
  }
});

describe('operations the X API v2 cannot serve with an app token', () => {
  for (const [name, call] of unsupported) {
    it(`${name} rejects with x_api_unavailable and a clear message`, async () => {
      const err = await rejection(call(platform()));
      expect(err).toBeInstanceOf(PlatformUnavailableError);
      expect(err.code).toBe('x_api_unavailable');
      expect(err.message).toMatch(/is not available through the X API v2( with an app token)?[:\s]/);
      expect(err.message).not.toContain(TOKEN);
      expect(seen).toHaveLength(0);
    });
  }
});

describe('XApiPlatform', () => {
  it('is the xapi kind of Platform', () => {
    const p: Platform = platform();
    expect(p).toBeInstanceOf(XApiPlatform);
    expect(p.kind).toBe('xapi');
  });

  it('checks responses against a strict schema that refuses unknown keys (a sanity check of the tests)', () => {
    const tweet = { id: '1', text: 'hi', createdAt: '2026-04-29T12:00:00.000Z' };
    expect(() => StrictTweet.parse(tweet)).not.toThrow();
    expect(() => StrictTweet.parse({ ...tweet, possibly_sensitive: false })).toThrow();
  });
});
