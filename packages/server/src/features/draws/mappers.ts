import type { schemas } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import { num } from '../../core/db/database.js';
import type { DrawEntryRow, DrawRow } from './repository.js';

const iso = (ms: bigint | number) => new Date(Number(ms)).toISOString();

/** The one draw state (spec 3.7): draws are stored once their winners are picked. */
type DrawStatus = z.input<typeof schemas.DrawListItemSchema>['status'];

/** A stored winner or backup in the API's shape (spec 2.7). */
export function toWinner(row: DrawEntryRow): schemas.Winner {
  return {
    position: num(row.winner_position),
    authorUsername: row.author_username,
    tweetId: row.tweet_id,
    isBackup: num(row.is_backup) === 1,
  };
}

/** A draw as listed (spec 2.7). */
export function toDrawListItem(row: DrawRow): z.input<typeof schemas.DrawListItemSchema> {
  return {
    id: row.id,
    tweetUrl: row.tweet_url,
    status: row.status as DrawStatus,
    totalEntries: num(row.total_entries),
    validEntries: num(row.valid_entries),
    createdAt: iso(row.created_at),
    drawnAt: iso(row.drawn_at),
  };
}

/** A stored count, 0 when not reported (or on a draw made before counts were kept). */
const count = (value: bigint | number | null) => (value === null ? 0 : num(value));

/**
 * A draw with the giveaway tweet's metadata, as the single-draw read shows it: the tweet's engagement as
 * the draw read it (reference shapes 3: `tweet*Count`, 0 when not reported).
 */
export function toDrawDetail(row: DrawRow): z.input<typeof schemas.DrawDetailSchema> {
  return {
    ...toDrawListItem(row),
    tweetId: row.tweet_id,
    ...(row.tweet_text !== null && { tweetText: row.tweet_text }),
    ...(row.tweet_author_username !== null && { tweetAuthorUsername: row.tweet_author_username }),
    ...(row.tweet_created_at !== null && { tweetCreatedAt: row.tweet_created_at }),
    tweetLikeCount: count(row.tweet_like_count),
    tweetRetweetCount: count(row.tweet_retweet_count),
    tweetReplyCount: count(row.tweet_reply_count),
    tweetQuoteCount: count(row.tweet_quote_count),
    ...verificationOf(row),
  };
}

/** The seed commitment and hashes of a verifiable draw (spread in); nothing for a draw made before them. */
function verificationOf(
  row: DrawRow,
): { verification: NonNullable<z.input<typeof schemas.DrawDetailSchema>['verification']> } | undefined {
  if (
    row.procedure === null ||
    row.seed_hash === null ||
    row.seed_committed_at === null ||
    row.entries_hash === null ||
    row.filters_hash === null
  )
    return undefined;
  return {
    verification: {
      procedure: row.procedure,
      seedHash: row.seed_hash,
      seedCommittedAt: iso(row.seed_committed_at),
      ...(row.seed !== null && { seed: row.seed }),
      entriesHash: row.entries_hash,
      filters: JSON.parse(row.settings) as Record<string, unknown>,
      filtersHash: row.filters_hash,
      ...(row.commitment_id !== null && { commitmentId: row.commitment_id }),
      ...(row.organiser_entropy !== null && { organiserEntropy: row.organiser_entropy }),
      ...(row.organiser_entropy_hash !== null && { organiserEntropyHash: row.organiser_entropy_hash }),
    },
  };
}
