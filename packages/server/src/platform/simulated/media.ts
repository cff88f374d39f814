import type { schemas } from '@xsvc/sdk/contract';
import type { Prng } from './prng.js';

/** The kinds of media a tweet carries (spec 2.10). */
export type MediaType = 'photo' | 'video' | 'animated_gif';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random token of `length` letters and digits, like the platform's media keys and short links. */
export function token(prng: Prng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(prng.next() * ALPHABET.length)];
  return out;
}

/** A short link (`https://t.co/…`), as the platform puts in tweet texts and media items. */
export function shortLink(prng: Prng): string {
  return `https://t.co/${token(prng, 10)}`;
}

const SIZES = [
  [1200, 675],
  [1080, 1080],
  [1080, 1350],
  [1920, 1080],
  [750, 1000],
] as const;

/**
 * A media item in the API's shape: photos with their size; videos with an HLS playlist and three MP4
 * renditions (bitrate, content type, URL); animated GIFs with their one MP4 rendition.
 * `sourceUrl` (from a control call) replaces the generated media URL.
 */
export function buildMedia(
  prng: Prng,
  type: MediaType,
  mediaId: string,
  sourceUrl?: string,
): schemas.TweetMedia {
  const key = token(prng, 15);
  const [width, height] = prng.pick(SIZES);
  const url = shortLink(prng);
  if (type === 'photo') {
    return { type, mediaUrl: sourceUrl ?? `https://pbs.twimg.com/media/${key}.jpg`, url, width, height };
  }
  if (type === 'animated_gif') {
    return {
      type,
      mediaUrl: sourceUrl ?? `https://pbs.twimg.com/tweet_video_thumb/${key}.jpg`,
      url,
      width,
      height,
      variants: [
        { bitrate: 0, contentType: 'video/mp4', url: `https://video.twimg.com/tweet_video/${key}.mp4` },
      ],
    };
  }
  const base = `https://video.twimg.com/ext_tw_video/${mediaId}/pu`;
  return {
    type,
    mediaUrl: sourceUrl ?? `https://pbs.twimg.com/ext_tw_video_thumb/${mediaId}/pu/img/${key}.jpg`,
    url,
    width,
    height,
    variants: [
      { contentType: 'application/x-mpegURL', url: `${base}/pl/${key}.m3u8` },
      { bitrate: 256_000, contentType: 'video/mp4', url: `${base}/vid/480x270/${key}.mp4` },
      { bitrate: 832_000, contentType: 'video/mp4', url: `${base}/vid/640x360/${key}.mp4` },
      { bitrate: 2_176_000, contentType: 'video/mp4', url: `${base}/vid/1280x720/${key}.mp4` },
    ],
  };
}
