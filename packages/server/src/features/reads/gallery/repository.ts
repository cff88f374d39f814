import type { Kysely } from 'kysely';
import { num } from '../../../core/db/database.js';
import type { Database } from '../../../core/db/schema.js';
import type { Tweet } from '../../../core/platform/platform.js';

/** One tweet of a gallery: enough to credit and link it, and its media. */
export interface GalleryItem {
  tweetId: string;
  tweetUrl: string;
  authorUsername?: string;
  authorName?: string;
  text: string;
  createdAt: string;
  media: NonNullable<Tweet['media']>;
}

/** A stored gallery. */
export interface Gallery {
  id: string;
  tweetIds: string[];
  items: GalleryItem[];
  totalMedia: number;
  createdAt: number;
  updatedAt: number;
}

/**
 * Stores the gallery `id` with the media as just read: a new gallery, or a refreshed snapshot of an existing
 * one. `cacheHit` is true when the gallery existed (the same tweets were downloaded before).
 */
export async function saveGallery(
  db: Kysely<Database>,
  g: { id: string; tweetIds: string[]; items: GalleryItem[]; totalMedia: number; now: number },
): Promise<{ cacheHit: boolean }> {
  const values = {
    tweet_ids: JSON.stringify(g.tweetIds),
    items: JSON.stringify(g.items),
    total_media: g.totalMedia,
    updated_at: g.now,
  };
  const inserted = await db
    .insertInto('media_galleries')
    .values({ id: g.id, ...values, created_at: g.now })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { cacheHit: false };
  await db.updateTable('media_galleries').set(values).where('id', '=', g.id).execute();
  return { cacheHit: true };
}

/** Loads a gallery by id. */
export async function findGallery(db: Kysely<Database>, id: string): Promise<Gallery | undefined> {
  const row = await db.selectFrom('media_galleries').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    tweetIds: JSON.parse(row.tweet_ids) as string[],
    items: JSON.parse(row.items) as GalleryItem[],
    totalMedia: num(row.total_media),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
  };
}
