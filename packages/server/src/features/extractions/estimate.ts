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

/**
 * The credit estimate of an extraction (1 credit per result, spec 8.2): the target's own count where the
 * tool has one (followers, replies, members, ...), capped by `resultsLimit` and by the most results a job
 * collects; without a count, `resultsLimit` or that cap. `allowed` when the balance covers it.
 */
export function estimateExtraction(spec: ExtractionSpec, target: ResolvedTarget, balance: bigint): Estimate {
  const known = knownCount(spec, target);
  let estimate = known ?? { count: DEFAULT_MAX_RESULTS, source: 'paginationCap' as Source };
  if (spec.resultsLimit !== undefined && spec.resultsLimit < estimate.count) {
    estimate = { count: spec.resultsLimit, source: 'resultsLimit' };
  }
  if (estimate.count > DEFAULT_MAX_RESULTS)
    estimate = { count: DEFAULT_MAX_RESULTS, source: 'paginationCap' };
  return {
    estimatedResults: estimate.count,
    creditsRequired: String(estimate.count),
    creditsAvailable: balance.toString(),
    allowed: balance >= BigInt(estimate.count),
    source: estimate.source,
    ...(target.user && { resolvedXUserId: target.user.id }),
  };
}
