import { randomInt } from 'node:crypto';
import { drawPicks } from '@xsvc/sdk/draws';
import type {
  PageRequest,
  Platform,
  PlatformPage,
  Tweet,
  UserProfile,
} from '../../core/platform/platform.js';
import { requireTweet, requireUser, tweetIdOf } from '../../core/reads/lookups.js';
import { DrawBudget } from './budget.js';
import {
  type DrawEntry,
  type DrawSettings,
  markDuplicateAuthors,
  needsProfiles,
  profileExclusion,
  textExclusion,
} from './eligibility.js';

/** A random integer in [0, n): `crypto.randomInt`, which is unbiased (rejection sampling). */
export type RandomIndex = (n: number) => number;

/** Most replies (and reposters) one draw reads. */
export const MAX_DRAW_ENTRIES = 10_000;
/** Platform page size of the draw's reads. */
const PAGE = 100;
/** Pages in a row that bring nothing while promising more: the read is given up (a stalled listing). */
const STALL_PAGES = 3;

/** A winner or backup of a draw. */
export interface DrawPick {
  entry: DrawEntry;
  /** From 1: the winners first, then the backups. */
  position: number;
  isBackup: boolean;
}

/** What a draw found and picked, and the credits its reads cost. */
export interface DrawOutcome {
  tweet: Tweet;
  entries: DrawEntry[];
  picks: DrawPick[];
  creditsSpent: number;
}

/**
 * Reads a listing page by page, each item paid from `budget` (1 credit), until `cap` items, its end, the
 * budget's end or a stall. `complete` is false when the read stopped before the listing's end.
 */
async function paidRead<T>(
  read: (page: PageRequest) => Promise<PlatformPage<T>>,
  cap: number,
  budget: DrawBudget,
): Promise<{ items: T[]; complete: boolean }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let stalls = 0;
  while (items.length < cap) {
    const granted = budget.take(Math.min(PAGE, cap - items.length));
    if (granted === 0) return { items, complete: false };
    const page = await read({ pageSize: granted, ...(cursor !== undefined && { cursor }) });
    const got = page.items.slice(0, granted);
    budget.refund(granted - got.length);
    items.push(...got);
    if (!page.nextCursor || page.nextCursor === cursor) return { items, complete: true };
    stalls = got.length === 0 ? stalls + 1 : 0;
    if (stalls >= STALL_PAGES) return { items, complete: false };
    cursor = page.nextCursor;
  }
  return { items, complete: false };
}

/** Profiles of `ids`, by id (free: part of inspecting the entries). */
async function profilesOf(platform: Platform, ids: readonly string[]): Promise<Map<string, UserProfile>> {
  const out = new Map<string, UserProfile>();
  for (let i = 0; i < ids.length; i += 100) {
    for (const u of await platform.getUsers(ids.slice(i, i + 100))) out.set(u.id, u);
  }
  return out;
}

/** The distinct authors of the entries still eligible. */
function eligibleAuthors(entries: readonly DrawEntry[]): string[] {
  return [...new Set(entries.filter((e) => !e.reason).map((e) => e.authorId))];
}

/** `items` in a random order (Fisher-Yates with an unbiased random index). */
function shuffled<T>(items: readonly T[], random: RandomIndex): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Runs a giveaway draw (spec 2.7, 4.7) without storing anything:
 * 1. the source lookup (1 credit; a missing tweet is 404 `tweet_not_found`, free);
 * 2. the direct replies, 1 credit each, as far as `available` credits reach (with `mustFollowUsername`, half
 *    of them, keeping the other half for the follow checks), at most {@link MAX_DRAW_ENTRIES};
 * 3. the filters: the giveaway author's own replies, language, keywords, hashtags, mentions, then the
 *    profile filters (followers, account age), then reposts (`mustRetweet`: the reposters are read, 1 credit
 *    each) and follows (`mustFollowUsername`: one check per remaining author, 1 credit each, in random order
 *    so a budget that runs out favours nobody); an author who could not be checked is not eligible;
 * 4. `uniqueAuthorsOnly` keeps each author's earliest eligible reply;
 * 5. winners and backups are drawn from `seed` by the verifiable procedure `xsvc-draw-v1` (`drawPicks` of
 *    `@xsvc/sdk/draws`): uniformly among the eligible entries in read order, never twice the same author.
 *    The caller fixes the seed, and publishes its hash, before this reads anything.
 * Platform failures are thrown as they are; the caller charges `creditsSpent` and stores the draw.
 * `random` orders the follow checks only (it has no part in who wins).
 */
export async function conductDraw(
  platform: Platform,
  now: number,
  settings: DrawSettings,
  available: number,
  seed: string,
  random: RandomIndex = randomInt,
): Promise<DrawOutcome> {
  const budget = new DrawBudget(available);
  const tweet = await requireTweet(platform, tweetIdOf(settings.tweetUrl));
  budget.take(1);
  const followTarget = settings.mustFollowUsername
    ? await requireUser(platform, settings.mustFollowUsername.replace(/^@/, ''))
    : undefined;

  const entryCap = Math.min(MAX_DRAW_ENTRIES, followTarget ? Math.floor(budget.left / 2) : budget.left);
  const replies = await paidRead((p) => platform.replies(tweet.id, {}, p), entryCap, budget);
  const entries: DrawEntry[] = replies.items
    .filter((t): t is Tweet & { author: NonNullable<Tweet['author']> } => t.author !== undefined)
    .map((t, i) => {
      const reason = textExclusion(t, settings, tweet.author?.id);
      return {
        position: i + 1,
        tweetId: t.id,
        authorId: t.author.id,
        authorUsername: t.author.username,
        text: t.text,
        createdAt: t.createdAt,
        ...(reason && { reason }),
      };
    });

  if (needsProfiles(settings)) {
    const profiles = await profilesOf(platform, eligibleAuthors(entries));
    for (const e of entries) {
      if (!e.reason) {
        const reason = profileExclusion(profiles.get(e.authorId), settings, now);
        if (reason) e.reason = reason;
      }
    }
  }

  if (settings.mustRetweet && eligibleAuthors(entries).length > 0) {
    const read = await paidRead((p) => platform.retweeters(tweet.id, {}, p), MAX_DRAW_ENTRIES, budget);
    const reposted = new Set(read.items.map((u) => u.id));
    for (const e of entries) {
      if (!e.reason && !reposted.has(e.authorId))
        e.reason = read.complete ? 'not_retweeted' : 'retweet_unverified';
    }
  }

  if (followTarget) {
    const verdict = new Map<string, 'following' | 'not_following' | 'follow_unverified'>();
    for (const authorId of shuffled(eligibleAuthors(entries), random)) {
      if (authorId === followTarget.id) verdict.set(authorId, 'following');
      else if (budget.take(1) === 0) verdict.set(authorId, 'follow_unverified');
      else {
        const { isFollowing } = await platform.checkFollow(authorId, followTarget.id);
        verdict.set(authorId, isFollowing ? 'following' : 'not_following');
      }
    }
    for (const e of entries) {
      const v = verdict.get(e.authorId);
      if (!e.reason && v && v !== 'following') e.reason = v;
    }
  }

  if (settings.uniqueAuthorsOnly) markDuplicateAuthors(entries);
  const valid = entries.filter((e) => !e.reason);
  const drawn = await drawPicks(seed, valid, settings.winnerCount + (settings.backupCount ?? 0));
  const picks = drawn.map((entry, i) => ({ entry, position: i + 1, isBackup: i >= settings.winnerCount }));
  return { tweet, entries, picks, creditsSpent: budget.spent };
}
