import type { schemas } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import type { PlatformArticle, Tweet, UserProfile } from '../../core/platform/platform.js';

/** A result as stored: the API's result record without its `id` and collection time (spec 2.8). */
export type StoredResult = Omit<z.infer<typeof schemas.ExtractionResultSchema>, 'id' | 'createdAt'>;

/** One thing an extraction collected: its dedupe key (one result per key and job) and its record. */
export interface Collected {
  /** `user:<id>`, `tweet:<id>` or `article:<tweet id>`. */
  key: string;
  result: StoredResult;
  /** The tweet carries media (for the export's `hasMedia` filter). */
  hasMedia: boolean;
}

type Enrichment = z.infer<typeof schemas.ExtractionEnrichmentSchema>;

/** `value` without its undefined and empty-string fields (optional fields are omitted, never null). */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== '')) as T;
}

/** The enrichment when it has any field. */
function enrichment(fields: Enrichment): { enrichmentData?: Enrichment } {
  const data = compact(fields);
  return Object.keys(data).length ? { enrichmentData: data } : {};
}

/** The user fields of a result. */
function userFields(u: {
  id: string;
  username: string;
  name: string;
  followers?: number | undefined;
  verified?: boolean | undefined;
  profilePicture?: string | undefined;
}): StoredResult {
  return {
    ...compact({
      xUsername: u.username,
      xDisplayName: u.name,
      xFollowersCount: u.followers,
      xVerified: u.verified,
      xProfileImageUrl: u.profilePicture,
    }),
    xUserId: u.id,
  };
}

/** A collected user profile. */
export function userResult(u: UserProfile): Collected {
  return {
    key: `user:${u.id}`,
    hasMedia: false,
    result: {
      ...userFields(u),
      ...enrichment({
        description: u.description,
        location: u.location,
        coverPicture: u.coverPicture,
        followingCount: u.following,
        favouritesCount: u.favouritesCount,
        mediaCount: u.mediaCount,
        statusesCount: u.statusesCount,
      }),
    },
  };
}

/** A collected tweet, with its author's fields. */
export function tweetResult(t: Tweet): Collected {
  // A tweet whose author cannot be shown still has a result; its user id is then unknown ('').
  const author = t.author ?? { id: '', username: '', name: '' };
  return {
    key: `tweet:${t.id}`,
    hasMedia: (t.media?.length ?? 0) > 0,
    result: {
      ...userFields(author),
      tweetId: t.id,
      tweetText: t.text,
      tweetCreatedAt: t.createdAt,
      ...enrichment({
        likeCount: t.likeCount,
        replyCount: t.replyCount,
        repostCount: t.retweetCount,
        quoteCount: t.quoteCount,
        viewCount: t.viewCount,
        bookmarkCount: t.bookmarkCount,
        conversationId: t.conversationId,
        lang: t.lang,
        source: t.source,
      }),
    },
  };
}

/** A collected article, with its author's fields. */
export function articleResult(a: PlatformArticle): Collected {
  return {
    key: `article:${a.tweetId}`,
    hasMedia: a.coverImageUrl !== undefined,
    result: {
      ...userFields(a.author),
      tweetId: a.tweetId,
      tweetCreatedAt: a.createdAt,
      ...enrichment({ title: a.title, bodyText: a.bodyText, previewText: a.previewText }),
    },
  };
}
