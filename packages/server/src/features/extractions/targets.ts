import { schemas } from '@xsvc/sdk/contract';
import { HttpError } from '../../core/http/errors.js';
import { notFound } from '../../core/http/platform-errors.js';
import type { Platform, PlatformCommunity, Tweet, UserProfile } from '../../core/platform/platform.js';
import { requireReadableUser, requireTweet, tweetIdOf } from '../../core/reads/lookups.js';
import type { ExtractionSpec } from './tools.js';

const stripAt = (v: string | undefined) => (v === undefined ? undefined : v.replace(/^@/, ''));

/** A target value as a job keeps it: a username without its @, a tweet URL as its id, others trimmed. */
function normalizeTarget(field: schemas.ExtractionTargetField, given: string): string {
  if (field === 'targetUsername') return given.replace(/^@/, '');
  if (field === 'targetTweetId') return tweetIdOf(given);
  return given.trim();
}

/**
 * The request as a job keeps it: usernames without their @, a tweet URL as its id, and only the target
 * field the tool uses (spec 4.8: the others, and the tweet-search filters of other tools, are ignored).
 * The targets come from that field or the reference's multi-target fields; with several, the field holds
 * the first, `targets` all of them in order (plain values), with the dedupe settings.
 */
export function normalizeSpec(body: ExtractionSpec): ExtractionSpec {
  const field = schemas.EXTRACTION_TARGETS[body.toolType];
  const spec: ExtractionSpec = { toolType: body.toolType };
  const given = schemas.extractionTargetValues(body, field).map((v) => normalizeTarget(field, v));
  const list = [...new Set(given)];
  if (list[0] !== undefined) spec[field] = list[0];
  if (list.length > 1) {
    spec.targets = list;
    if (body.dedupeAcrossTargets !== undefined) spec.dedupeAcrossTargets = body.dedupeAcrossTargets;
    if (body.dedupeMode !== undefined) spec.dedupeMode = body.dedupeMode;
  }
  if (body.resultsLimit !== undefined) spec.resultsLimit = body.resultsLimit;
  if (body.toolType === 'post_extractor' && body.includeReplies !== undefined)
    spec.includeReplies = body.includeReplies;
  if (body.toolType === 'community_search' || body.toolType === 'tweet_search_extractor') {
    const queryType = body.queryType ?? (body.toolType === 'community_search' ? 'Top' : 'Latest');
    spec.queryType = queryType;
  }
  if (body.toolType === 'tweet_search_extractor') {
    const { fromUser, toUser, mentioning } = body;
    Object.assign(
      spec,
      Object.fromEntries(
        Object.entries({
          fromUser: stripAt(fromUser),
          toUser: stripAt(toUser),
          mentioning: stripAt(mentioning),
          language: body.language,
          sinceDate: body.sinceDate,
          untilDate: body.untilDate,
          mediaType: body.mediaType,
          minFaves: body.minFaves,
          minRetweets: body.minRetweets,
          minReplies: body.minReplies,
          verifiedOnly: body.verifiedOnly,
          replies: body.replies,
          retweets: body.retweets,
          exactPhrase: body.exactPhrase,
          excludeWords: body.excludeWords,
          advancedQuery: body.advancedQuery,
        }).filter(([, v]) => v !== undefined),
      ),
    );
  }
  if (spec.searchQuery !== undefined && spec.searchQuery === '') {
    throw new HttpError('invalid_input', 'searchQuery: must not be blank');
  }
  return spec;
}

/** The targets of a job's request, in the order they are read (one for a single-target job). */
export function specTargets(spec: ExtractionSpec): string[] {
  const targets = spec.targets?.filter((t): t is string => typeof t === 'string');
  if (targets && targets.length > 0) return targets;
  const single = spec[schemas.EXTRACTION_TARGETS[spec.toolType]];
  return single === undefined ? [] : [single];
}

/** The request of a job narrowed to one of its targets (what a single-target job of it would be). */
export function specFor(spec: ExtractionSpec, target: string): ExtractionSpec {
  const { targets: _all, dedupeAcrossTargets: _across, dedupeMode: _mode, ...rest } = spec;
  return { ...rest, [schemas.EXTRACTION_TARGETS[spec.toolType]]: target };
}

/** How a job on several targets keeps an item more than one target found (`first` unless told). */
export function dedupeModeOf(spec: ExtractionSpec): 'none' | 'first' | 'merge' {
  return spec.dedupeMode ?? (spec.dedupeAcrossTargets === false ? 'none' : 'first');
}

/** Checks every target of a job before it starts (see {@link resolveTarget}), in order. */
export async function resolveTargets(platform: Platform, spec: ExtractionSpec): Promise<ResolvedTarget[]> {
  const resolved: ResolvedTarget[] = [];
  for (const target of specTargets(spec)) resolved.push(await resolveTarget(platform, specFor(spec, target)));
  if (resolved.length === 0) return [await resolveTarget(platform, spec)];
  return resolved;
}

/** What checking a job's target found: the target itself, for the estimate and the job's columns. */
export interface ResolvedTarget {
  tweet?: Tweet;
  user?: UserProfile;
  community?: PlatformCommunity;
}

/**
 * Checks that the target of a job exists before it starts (spec 4.8): 404 `tweet_not_found` (with its
 * `reason`), 404 `user_not_found` (403 `x_account_protected` for a protected account, whose lists cannot
 * be read), 404 `article_not_found`, or 404 `not_found` for a list, community or space. Searches need
 * nothing.
 */
export async function resolveTarget(platform: Platform, spec: ExtractionSpec): Promise<ResolvedTarget> {
  const field = schemas.EXTRACTION_TARGETS[spec.toolType];
  const value = spec[field];
  if (value === undefined) throw new HttpError('invalid_input', `${field}: required for ${spec.toolType}`);
  switch (field) {
    case 'targetTweetId': {
      const tweet = await requireTweet(platform, value);
      if (spec.toolType === 'article_extractor' && !(await platform.article(tweet.id))) {
        throw new HttpError('article_not_found', `tweet ${tweet.id} carries no article`);
      }
      return { tweet };
    }
    case 'targetUsername':
      return { user: await requireReadableUser(platform, value) };
    case 'targetCommunityId': {
      const community = await platform.community(value);
      if (!community) throw notFound('community', value);
      return { community };
    }
    case 'targetListId':
      if (!(await platform.listMembers(value, { pageSize: 1 }))) throw notFound('list', value);
      return {};
    case 'targetSpaceId':
      if (!(await platform.spaceParticipants(value, { pageSize: 1 }))) throw notFound('space', value);
      return {};
    case 'searchQuery':
      return {};
  }
}
