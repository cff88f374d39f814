import { limits, type schemas } from '@xsvc/sdk/contract';
import { num } from '../../../core/db/database.js';
import { type StyleRow, styleTweets } from './repository.js';

/** A style as answered (spec 2.9), with `isOwnAccount` worked out against the account's linked identity. */
export function toStyle(row: StyleRow, linkedUsername: string | null): schemas.Style {
  return { ...toStyleSummary(row, linkedUsername), tweets: styleTweets(row) };
}

/** A style as listed: without its tweets. */
export function toStyleSummary(row: StyleRow, linkedUsername: string | null): schemas.StyleSummary {
  return {
    xUsername: row.username_lower,
    tweetCount: num(row.tweet_count),
    isOwnAccount: linkedUsername !== null && linkedUsername === row.username_lower,
    fetchedAt: new Date(num(row.fetched_at)).toISOString(),
  };
}

/** True while a style is fresh: fetched under 7 days ago (spec 8.3). */
export function isFresh(row: StyleRow, now: number): boolean {
  return now - num(row.fetched_at) < limits.styleFreshMs;
}
