import type { schemas } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import { DEFAULT_MAX_RESULTS } from './runner.js';
import type { ResolvedTarget } from './targets.js';
import type { ExtractionSpec } from './tools.js';

type Estimate = z.input<typeof schemas.ExtractionEstimateSchema>;
type Source = Estimate['source'];

/** What the target's own counts say a tool would collect, when they say anything. */
function knownCount(spec: ExtractionSpec, t: ResolvedTarget): { count: number; source: Source } | undefined {
  const of = (count: number | undefined, source: Source) =>
    count === undefined ? undefined : { count, source };
  switch (spec.toolType) {
    case 'follower_explorer':
    case 'verified_follower_explorer':
      return of(t.user?.followers, 'followers');
    case 'following_explorer':
      return of(t.user?.following, 'following');
    case 'post_extractor':
      return of(t.user?.statusesCount, 'posts');
    case 'user_likes':
      return of(t.user?.favouritesCount, 'collection');
    case 'user_media':
      return of(t.user?.mediaCount, 'collection');
    case 'reply_extractor':
      return of(t.tweet?.replyCount, 'replyCount');
    case 'quote_extractor':
      return of(t.tweet?.quoteCount, 'quoteCount');
    case 'repost_extractor':
      return of(t.tweet?.retweetCount, 'retweetCount');
    case 'favoriters':
      return of(t.tweet?.likeCount, 'collection');
    case 'article_extractor':
      return { count: 1, source: 'collection' };
    case 'community_extractor':
      return of(t.community?.memberCount, 'collection');
    case 'community_moderator_explorer':
      return of(t.community?.moderatorCount, 'collection');
    default:
      return undefined;
  }
}

/** What one target would collect: its own count, else the most a job collects, capped by `resultsLimit`. */
function targetEstimate(spec: ExtractionSpec, target: ResolvedTarget): { count: number; source: Source } {
  let estimate = knownCount(spec, target) ?? {
    count: DEFAULT_MAX_RESULTS,
    source: 'paginationCap' as Source,
  };
  if (spec.resultsLimit !== undefined && spec.resultsLimit < estimate.count) {
    estimate = { count: spec.resultsLimit, source: 'resultsLimit' };
  }
  return estimate;
}

/**
 * The credit estimate of an extraction (1 credit per result, spec 8.2): for each target, its own count
 * where the tool has one (followers, replies, members, ...), else `resultsLimit` or the most results a job
 * collects; summed over the targets (an upper bound when targets share items that are kept once), capped by
 * `resultsLimit` and that most. The source is the targets' one when they agree (`unknown` otherwise).
 * `allowed` when the balance covers it.
 */
export function estimateExtraction(
  spec: ExtractionSpec,
  targets: readonly ResolvedTarget[],
  balance: bigint,
): Estimate {
  const each = targets.map((t) => targetEstimate(spec, t));
  const sources = new Set(each.map((e) => e.source));
  let estimate = {
    count: each.reduce((sum, e) => sum + e.count, 0),
    source: sources.size === 1 ? (each[0]?.source ?? 'unknown') : ('unknown' as Source),
  };
  if (spec.resultsLimit !== undefined && spec.resultsLimit < estimate.count) {
    estimate = { count: spec.resultsLimit, source: 'resultsLimit' };
  }
  if (estimate.count > DEFAULT_MAX_RESULTS)
    estimate = { count: DEFAULT_MAX_RESULTS, source: 'paginationCap' };
  const user = targets[0]?.user;
  return {
    estimatedResults: estimate.count,
    creditsRequired: String(estimate.count),
    creditsAvailable: balance.toString(),
    allowed: balance >= BigInt(estimate.count),
    source: estimate.source,
    ...(user && { resolvedXUserId: user.id }),
  };
}
