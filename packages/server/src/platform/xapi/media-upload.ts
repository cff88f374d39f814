import type { Client } from '@xdevplatform/xdk';
import type { WriteFile, WriteRejectionCode, WrittenMedia } from '../../core/platform/account-writes.js';
import { X_MEDIA_LIMITS } from './media-download.js';
import { ambiguous } from './user-client.js';

/**
 * The raw bytes of one `append` segment: X's chunked upload takes segments of at most 5 MB, sent here as
 * base64 in a JSON body (xdk's `appendUpload`), so 2 MiB keeps each request near 2.7 MB and a 512 MB video
 * within the 1,000 segments `segment_index` allows (0-999).
 */
export const SEGMENT_BYTES = 2 * 1024 * 1024;

/** The largest GIF sent in one request (X's image limit); a larger one goes through the chunked upload. */
const ONE_REQUEST_MAX_BYTES = 5 * 1024 * 1024;

/** How long an upload's processing is waited for: each wait X asks for is capped, and so is the total. */
export interface MediaProcessingWait {
  /** Longest single wait between status checks (ms); X's `check_after_secs` above it is shortened. */
  maxStepMs: number;
  /** Longest total wait (ms) before the upload is given up as still processing. */
  maxTotalMs: number;
  /** Waits `ms` (a test hands in its own). */
  sleep: (ms: number) => Promise<void>;
}

/** X's processing is waited for up to 10 s a check and 2 minutes in all. */
export const DEFAULT_PROCESSING_WAIT: MediaProcessingWait = {
  maxStepMs: 10_000,
  maxTotalMs: 120_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** What an upload needs: the account's client, the wait for X's processing, the clock and the segment size. */
export interface MediaUploadContext {
  client: Client;
  now: () => number;
  wait?: MediaProcessingWait | undefined;
  segmentBytes?: number | undefined;
}

/** An upload X accepted (`media`), or X's refusal of it (`code`, nothing posted). */
export type MediaUploadOutcome =
  | { ok: true; media: WrittenMedia }
  | { ok: false; code: WriteRejectionCode; message: string };

/** X's `processing_info` of a chunked upload. */
interface ProcessingInfo {
  state?: string;
  checkAfterSecs?: number;
  progressPercent?: number;
}

/** The answer of X's finalize and status requests (xdk's camelCase). */
interface UploadState {
  id?: string;
  size?: number;
  expiresAfterSecs?: number;
  processingInfo?: ProcessingInfo;
}

/**
 * Uploads one file to X as the account. Still images (JPEG, PNG, WebP, at most 5 MB) and GIFs up to 5 MB go
 * in one request (`POST /2/media/upload`); videos (MP4, MOV, at most 512 MB, `tweet_video`) and larger GIFs
 * (at most 15 MB, `tweet_gif`) through X's chunked upload: `POST /2/media/upload/initialize`, one
 * `POST /2/media/upload/{id}/append` per segment ({@link SEGMENT_BYTES}), `POST /2/media/upload/{id}/finalize`,
 * then `GET /2/media/upload?command=STATUS` after each `check_after_secs` X names, within the bounds of
 * `wait`, until X's processing `succeeded` (done) or `failed` (`x_rejected` with X's reason). Processing
 * still unfinished after the bound is `x_rejected` too: the media cannot be attached yet.
 *
 * X errors are thrown as xdk threw them, for the write's caller to classify (a lost answer is ambiguous);
 * an answer without the media id is thrown as ambiguous.
 */
export async function uploadToX(ctx: MediaUploadContext, file: WriteFile): Promise<MediaUploadOutcome> {
  const accepted = X_MEDIA_LIMITS[file.mimeType];
  if (!accepted) {
    return {
      ok: false,
      code: 'x_rejected',
      message: `X takes JPEG, PNG, WebP and GIF images and MP4 and MOV videos; ${file.mimeType} is not one of them`,
    };
  }
  const size = file.bytes.byteLength;
  if (size > accepted.maxBytes) {
    return {
      ok: false,
      code: 'x_rejected',
      message: `X takes ${accepted.kind === 'video' ? 'videos' : accepted.kind === 'gif' ? 'GIFs' : 'images'} of at most ${accepted.maxBytes / 1024 / 1024} MB; this one is ${(size / 1024 / 1024).toFixed(1)} MB`,
    };
  }
  const category =
    accepted.kind === 'video' ? 'tweet_video' : accepted.kind === 'gif' ? 'tweet_gif' : 'tweet_image';
  const chunked = accepted.kind === 'video' || (accepted.kind === 'gif' && size > ONE_REQUEST_MAX_BYTES);
  const state = chunked
    ? await chunkedUpload(ctx, file, category)
    : ((
        await ctx.client.media.upload({
          media: Buffer.from(file.bytes).toString('base64'),
          mediaCategory: category,
        })
      ).data as UploadState | undefined);
  const id = state?.id;
  if (!id) throw ambiguous('the upload_media write', 'X answered without the media id');
  const processed = await awaitProcessing(ctx, id, state);
  if (processed.kind === 'failed')
    return {
      ok: false,
      code: 'x_rejected',
      message: `X could not process the ${accepted.kind}: ${processed.why}`,
    };
  if (processed.kind === 'pending') {
    return {
      ok: false,
      code: 'x_rejected',
      message: `X was still processing the ${accepted.kind} (media ${id}) after ${Math.round((ctx.wait ?? DEFAULT_PROCESSING_WAIT).maxTotalMs / 1000)} s; it cannot be attached yet`,
    };
  }
  const last = processed.state;
  const expires = last.expiresAfterSecs ?? state?.expiresAfterSecs;
  return {
    ok: true,
    media: {
      id,
      type: accepted.kind,
      mimeType: file.mimeType,
      sizeBytes: last.size ?? state?.size ?? size,
      ...(expires && { expiresAt: new Date(ctx.now() + expires * 1000).toISOString() }),
    },
  };
}

/** X's chunked upload of one file: initialize, the segments in order, finalize (its answer). */
async function chunkedUpload(
  ctx: MediaUploadContext,
  file: WriteFile,
  category: 'tweet_video' | 'tweet_gif' | 'tweet_image',
): Promise<UploadState | undefined> {
  const { client } = ctx;
  const init = await client.media.initializeUpload({
    mediaCategory: category,
    mediaType: file.mimeType as 'video/mp4',
    totalBytes: file.bytes.byteLength,
  });
  const id = init.data?.id;
  if (!id) throw ambiguous('the upload_media write', 'X answered the upload’s initialization without its id');
  const step = ctx.segmentBytes ?? SEGMENT_BYTES;
  for (let offset = 0, index = 0; offset < file.bytes.byteLength; offset += step, index++) {
    await client.media.appendUpload(id, {
      media: Buffer.from(file.bytes.subarray(offset, offset + step)).toString('base64'),
      segmentIndex: index,
    });
  }
  const fin = await client.media.finalizeUpload(id);
  return { ...(fin.data as UploadState | undefined), id: fin.data?.id ?? id };
}

/** Waits for X's processing of an upload (see {@link uploadToX}): done, failed, or still pending at the bound. */
async function awaitProcessing(
  ctx: MediaUploadContext,
  id: string,
  first: UploadState | undefined,
): Promise<{ kind: 'done'; state: UploadState } | { kind: 'failed'; why: string } | { kind: 'pending' }> {
  const wait = ctx.wait ?? DEFAULT_PROCESSING_WAIT;
  let state: UploadState = first ?? {};
  let waited = 0;
  for (;;) {
    const info = state.processingInfo;
    // No processing_info: X had nothing to process (an image), or it is done.
    if (!info?.state || info.state === 'succeeded') return { kind: 'done', state };
    if (info.state === 'failed') {
      const error = (info as { error?: { message?: unknown; name?: unknown } }).error;
      const why = [error?.name, error?.message].filter((v) => typeof v === 'string').join(': ');
      return { kind: 'failed', why: why || 'its processing failed' };
    }
    const step = Math.min(Math.max(0, (info.checkAfterSecs ?? 1) * 1000), wait.maxStepMs);
    if (waited + step > wait.maxTotalMs) return { kind: 'pending' };
    await wait.sleep(step);
    waited += step;
    const res = await ctx.client.media.getUploadStatus(id, { command: 'STATUS' });
    state = { ...state, ...(res.data as UploadState | undefined) };
  }
}
