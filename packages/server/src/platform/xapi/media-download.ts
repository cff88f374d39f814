import http from 'node:http';
import https from 'node:https';
import { hasSignature } from '../../core/file-signatures.js';
import type { WriteFile, WriteRejectionCode } from '../../core/platform/account-writes.js';
import { pinnedConnection } from '../../core/ssrf/pinned-lookup.js';
import {
  type Resolver,
  resolveTarget,
  systemResolver,
  UnsafeWebhookUrlError,
  vetWebhookUrl,
} from '../../core/ssrf/target.js';

/** What X takes as post media, and the largest of each (X's media best practices: 5 MB, 15 MB, 512 MB). */
export const X_MEDIA_LIMITS: Readonly<Record<string, { kind: 'image' | 'gif' | 'video'; maxBytes: number }>> =
  {
    'image/jpeg': { kind: 'image', maxBytes: 5 * 1024 * 1024 },
    'image/png': { kind: 'image', maxBytes: 5 * 1024 * 1024 },
    'image/webp': { kind: 'image', maxBytes: 5 * 1024 * 1024 },
    'image/gif': { kind: 'gif', maxBytes: 15 * 1024 * 1024 },
    'video/mp4': { kind: 'video', maxBytes: 512 * 1024 * 1024 },
    'video/quicktime': { kind: 'video', maxBytes: 512 * 1024 * 1024 },
  };

/** How media URLs are fetched: the webhooks' SSRF guard, and the test-only loopback allowance. */
export interface MediaDownloadOptions {
  /**
   * `XSVC_ALLOW_LOOPBACK_WEBHOOKS`: also `http://127.0.0.1:<port>` and `http://localhost:<port>` (tests and
   * local development); off by default, when only public https hosts are fetched.
   */
  allowLoopback?: boolean | undefined;
  /** Host name resolution (every address is checked); the system resolver by default. */
  resolver?: Resolver | undefined;
  /** One deadline for connecting and reading the whole file; 60 s by default. */
  timeoutMs?: number | undefined;
}

/** A downloaded file, or why there is none (nothing was sent to X). */
export type MediaDownload =
  | { ok: true; file: WriteFile }
  | { ok: false; code: Extract<WriteRejectionCode, MediaRefusalCode>; message: string };

/** The refusals of a download: unreachable or refused, not media X takes, larger than X takes. */
type MediaRefusalCode = 'media_download_failed' | 'unsupported_media_type' | 'body_too_large';

/** The type of downloaded bytes: the declared one when the content matches it, else what the content shows. */
export function mediaTypeOf(declared: string | undefined, bytes: Buffer): string | undefined {
  const type = declared?.split(';')[0]?.trim().toLowerCase();
  if (type && X_MEDIA_LIMITS[type] && hasSignature(type, bytes)) return type;
  return Object.keys(X_MEDIA_LIMITS).find((t) => hasSignature(t, bytes));
}

/**
 * Downloads one media file for an X upload, through the same guard as webhook deliveries
 * (`core/ssrf`): https only (plain http only to the allowed loopback targets), every address of the host
 * checked and the connection pinned to the vetted one, redirects never followed. The answer is read up to
 * the largest file X takes (the declared type's limit once known): beyond it `body_too_large`; content that
 * is not an image, GIF or video X takes is `unsupported_media_type`; anything else that fails
 * (unreachable, refused by the guard, non-2xx, timeout) is `media_download_failed`. Never throws.
 */
export async function downloadMedia(url: string, opts: MediaDownloadOptions = {}): Promise<MediaDownload> {
  let target: Awaited<ReturnType<typeof resolveTarget>>;
  try {
    target = await resolveTarget(
      vetWebhookUrl(url, { allowLoopback: opts.allowLoopback ?? false }),
      opts.resolver ?? systemResolver,
    );
  } catch (err) {
    if (err instanceof UnsafeWebhookUrlError)
      return refuse('media_download_failed', `the media URL ${shown(url)} is refused: ${err.message}`);
    return refuse('media_download_failed', `the media URL ${shown(url)} could not be checked`);
  }
  const largest = Math.max(...Object.values(X_MEDIA_LIMITS).map((l) => l.maxBytes));
  const timeoutMs = opts.timeoutMs ?? 60_000;
  return new Promise((resolve) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: MediaDownload) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      resolve(outcome);
    };
    const isHttps = target.url.protocol === 'https:';
    try {
      request = (isHttps ? https : http).request({
        method: 'GET',
        ...pinnedConnection(target),
        agent: false,
        headers: { host: target.url.host, accept: 'image/*, video/*' },
      });
    } catch (err) {
      finish(
        refuse('media_download_failed', `${shown(url)} could not be fetched (${(err as Error).message})`),
      );
      return;
    }
    timer = setTimeout(
      () => finish(refuse('media_download_failed', `${shown(url)} did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    request.on('error', (err: NodeJS.ErrnoException) =>
      finish(
        refuse('media_download_failed', `${shown(url)} could not be fetched (${err.code ?? err.message})`),
      ),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        const why = status >= 300 && status < 400 ? 'a redirect, not followed' : `HTTP ${status}`;
        finish(refuse('media_download_failed', `${shown(url)} answered ${why}`));
        return;
      }
      const declared = response.headers['content-type'];
      const limit = X_MEDIA_LIMITS[declared?.split(';')[0]?.trim().toLowerCase() ?? '']?.maxBytes ?? largest;
      const length = Number(response.headers['content-length']);
      if (Number.isFinite(length) && length > limit) {
        finish(tooLarge(url, limit));
        return;
      }
      const chunks: Buffer[] = [];
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > limit) finish(tooLarge(url, limit));
        else chunks.push(chunk);
      });
      response.on('error', () =>
        finish(refuse('media_download_failed', `the download of ${shown(url)} broke off`)),
      );
      response.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const type = mediaTypeOf(declared, bytes);
        const accepted = type ? X_MEDIA_LIMITS[type] : undefined;
        if (!type || !accepted) {
          finish(
            refuse(
              'unsupported_media_type',
              `${shown(url)} is not an image, GIF or video X takes (JPEG, PNG, WebP, GIF, MP4, MOV)`,
            ),
          );
        } else if (bytes.byteLength > accepted.maxBytes) finish(tooLarge(url, accepted.maxBytes));
        else finish({ ok: true, file: { bytes: new Uint8Array(bytes), mimeType: type } });
      });
    });
    request.end();
  });
}

function tooLarge(url: string, limit: number): MediaDownload {
  return refuse('body_too_large', `${shown(url)} is larger than the ${limit / 1024 / 1024} MB X takes`);
}

function refuse(code: MediaRefusalCode, message: string): MediaDownload {
  return { ok: false, code, message };
}

/** A URL as it may appear in a message: without its query (which may carry a token), at most 200 characters. */
function shown(url: string): string {
  return url.split('?')[0]?.slice(0, 200) ?? '';
}
