import type {
  WriteCommand,
  WriteFile,
  WriteOutcome,
  WrittenMedia,
} from '../../core/platform/account-writes.js';
import type { MediaType } from './media.js';
import type { UserRow } from './stored.js';
import { done, isPremium, reject, type SimWriteContext } from './write-context.js';
import { mediaTypeOfUrl } from './write-tweets.js';

/** The platform's profile field lengths. */
const PROFILE_CHARS = { name: 50, description: 160, location: 30, url: 100 } as const;
/** The largest image and animated GIF the simulated platform takes (video: the upload body limit). */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_GIF_BYTES = 15 * 1024 * 1024;
/** How long an upload waits to be used. */
const UPLOAD_TTL_MS = 24 * 3_600_000;

/** The upload types (the contract's list) and the kind of media each makes. */
const MIME_TYPES: Record<string, MediaType> = {
  'image/avif': 'photo',
  'image/jpeg': 'photo',
  'image/png': 'photo',
  'image/webp': 'photo',
  'image/gif': 'animated_gif',
  'video/mp4': 'video',
};
const API_TYPES: Record<MediaType, NonNullable<WrittenMedia['type']>> = {
  photo: 'image',
  animated_gif: 'gif',
  video: 'video',
};
const EXTENSION_MIME: Record<MediaType, string> = {
  photo: 'image/jpeg',
  animated_gif: 'image/gif',
  video: 'video/mp4',
};

/** Changes profile fields; too long is `x_content_too_long`, a website that is not http(s) `x_rejected`. */
export async function updateProfile(
  ctx: SimWriteContext,
  actor: UserRow,
  cmd: Extract<WriteCommand, { action: 'update_profile' }>,
): Promise<WriteOutcome> {
  for (const field of ['name', 'description', 'location', 'url'] as const) {
    const value = cmd[field];
    if (value !== undefined && [...value].length > PROFILE_CHARS[field])
      return reject('x_content_too_long', `${field} is at most ${PROFILE_CHARS[field]} characters`);
  }
  if (cmd.url !== undefined && cmd.url !== '' && !/^https?:\/\/\S+$/.test(cmd.url))
    return reject('x_rejected', 'url must be an http(s) link');
  if (cmd.name !== undefined && !cmd.name.trim()) return reject('x_rejected', 'name cannot be empty');
  await ctx.control.updateUser(actor.id, {
    ...(cmd.name !== undefined && { name: cmd.name }),
    ...(cmd.description !== undefined && { description: cmd.description }),
    ...(cmd.location !== undefined && { location: cmd.location }),
    ...(cmd.url !== undefined && { url: cmd.url }),
  });
  return done({ type: 'state_change', id: actor.id, active: true });
}

/** Replaces the avatar or the banner with an uploaded file or a URL. */
export async function updateImage(
  ctx: SimWriteContext,
  actor: UserRow,
  cmd: Extract<WriteCommand, { action: 'update_avatar' | 'update_banner' }>,
): Promise<WriteOutcome> {
  const stored = await store(ctx, actor, cmd.file, cmd.url, false);
  if ('ok' in stored) return stored;
  if (stored.mediaType === 'video') return reject('x_rejected', 'a profile image cannot be a video');
  const url = stored.media.url ?? '';
  await ctx.control.updateUser(
    actor.id,
    cmd.action === 'update_avatar' ? { profilePicture: url } : { coverPicture: url },
  );
  return done({ type: 'state_change', id: actor.id, active: true, media: stored.media });
}

/** Stores an upload for later tweets and messages. */
export async function uploadMedia(
  ctx: SimWriteContext,
  actor: UserRow,
  cmd: Extract<WriteCommand, { action: 'upload_media' }>,
): Promise<WriteOutcome> {
  const stored = await store(ctx, actor, cmd.file, cmd.url, cmd.longVideo ?? false);
  if ('ok' in stored) return stored;
  return done({
    type: 'media',
    id: stored.media.id,
    ...(stored.media.url && { url: stored.media.url }),
    media: stored.media,
  });
}

/**
 * Keeps a file (its bytes, served at `{origin}/sim/media/{id}`) or a URL (never fetched: its extension must
 * name the type, else `media_download_failed`). Images over 5 MB and GIFs over 15 MB are `x_rejected`; a long
 * video needs a verified account (`x_account_feature_required`).
 */
async function store(
  ctx: SimWriteContext,
  actor: UserRow,
  file: WriteFile | undefined,
  url: string | undefined,
  longVideo: boolean,
): Promise<{ media: WrittenMedia; mediaType: MediaType } | WriteOutcome> {
  let mediaType: MediaType | undefined;
  let mimeType: string;
  let size = 0;
  if (file) {
    mediaType = MIME_TYPES[file.mimeType];
    if (!mediaType) return reject('x_rejected', `${file.mimeType} files cannot be uploaded`);
    mimeType = file.mimeType;
    size = file.bytes.byteLength;
    if (mediaType === 'photo' && size > MAX_IMAGE_BYTES)
      return reject('x_rejected', 'images are at most 5 MB');
    if (mediaType === 'animated_gif' && size > MAX_GIF_BYTES)
      return reject('x_rejected', 'animated GIFs are at most 15 MB');
  } else {
    mediaType = url ? mediaTypeOfUrl(url) : undefined;
    if (!url || !mediaType)
      return reject(
        'media_download_failed',
        `cannot fetch media from ${url ?? 'nowhere'}: unknown file type`,
      );
    mimeType = EXTENSION_MIME[mediaType];
  }
  if (longVideo && (mediaType !== 'video' || !isPremium(actor)))
    return reject('x_account_feature_required', `@${actor.username} cannot upload long videos`);
  const now = ctx.clock.now();
  const id = ctx.ids.next(now);
  await ctx.db
    .insertInto('simulated_uploads')
    .values({
      id,
      user_id: actor.id,
      media_type: mediaType,
      mime_type: mimeType,
      size_bytes: size,
      source_url: file ? null : (url ?? null),
      data: file ? Buffer.from(file.bytes).toString('base64') : null,
      created_at: now,
    })
    .execute();
  const media: WrittenMedia = {
    id,
    url: file ? `${ctx.mediaBaseUrl()}/sim/media/${id}` : (url as string),
    type: API_TYPES[mediaType],
    mimeType,
    ...(file && { sizeBytes: size }),
    expiresAt: new Date(now + UPLOAD_TTL_MS).toISOString(),
  };
  return { media, mediaType };
}

/** Creates a community owned by the actor (verified accounts only; names are unique, case-insensitively). */
export async function createCommunity(
  ctx: SimWriteContext,
  actor: UserRow,
  name: string,
  description: string | undefined,
): Promise<WriteOutcome> {
  if (!isPremium(actor))
    return reject(
      'x_account_feature_required',
      `@${actor.username} cannot create communities (it is not verified)`,
    );
  if ([...name].length > 30) return reject('x_rejected', 'a community name is at most 30 characters');
  if (description !== undefined && [...description].length > 160)
    return reject('x_rejected', 'a community description is at most 160 characters');
  const rows = await ctx.db.selectFrom('sim_communities').select('name').execute();
  if (rows.some((r) => r.name.toLowerCase() === name.toLowerCase()))
    return reject('x_duplicate_action', `a community named ${name} exists`);
  const now = ctx.clock.now();
  const id = ctx.ids.next(now);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('sim_communities')
      .values({ id, name, description: description ?? '', creator_id: actor.id, created_at: now })
      .execute();
    await trx
      .insertInto('sim_community_members')
      .values({ community_id: id, user_id: actor.id, role: 'admin', joined_at: now })
      .execute();
  });
  return done({ type: 'community', id, url: `https://x.com/i/communities/${id}`, communityName: name });
}

/** Deletes an own community; `name` must repeat its exact name (`x_rejected` otherwise). */
export async function deleteCommunity(
  ctx: SimWriteContext,
  actor: UserRow,
  communityId: string,
  name: string,
): Promise<WriteOutcome> {
  const community = await communityRow(ctx, communityId);
  if (!community) return reject('x_target_not_found', `no community ${communityId}`);
  if (community.creator_id !== actor.id)
    return reject('x_rejected', `community ${communityId} is not owned by @${actor.username}`);
  if (community.name !== name)
    return reject('x_rejected', 'community_name does not match the name of the community');
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sim_community_members').where('community_id', '=', communityId).execute();
    await trx
      .updateTable('sim_tweets')
      .set({ community_id: null })
      .where('community_id', '=', communityId)
      .execute();
    await trx.deleteFrom('sim_communities').where('id', '=', communityId).execute();
  });
  return done({ type: 'community', id: communityId, active: false, communityName: community.name });
}

/** Joins (`join`) or leaves a community; its creator cannot leave it. */
export async function membership(
  ctx: SimWriteContext,
  actor: UserRow,
  communityId: string,
  join: boolean,
): Promise<WriteOutcome> {
  const community = await communityRow(ctx, communityId);
  if (!community) return reject('x_target_not_found', `no community ${communityId}`);
  if (join) {
    await ctx.db
      .insertInto('sim_community_members')
      .values({ community_id: communityId, user_id: actor.id, role: 'member', joined_at: ctx.clock.now() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  } else {
    if (community.creator_id === actor.id)
      return reject('x_rejected', 'the creator cannot leave its community; delete it instead');
    await ctx.db
      .deleteFrom('sim_community_members')
      .where('community_id', '=', communityId)
      .where('user_id', '=', actor.id)
      .execute();
  }
  return done({ type: 'state_change', id: communityId, active: join, communityName: community.name });
}

function communityRow(ctx: SimWriteContext, id: string) {
  return ctx.db.selectFrom('sim_communities').selectAll().where('id', '=', id).executeTakeFirst();
}
