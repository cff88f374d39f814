import { MULTIPART_BODY_BYTES } from '../../core/http/multipart.js';

/**
 * The bounds of support tickets. The reference names the codes (`body_too_large` 413,
 * `unsupported_media_type` 415, `support_request_rate_limit` and `support_media_rate_limit` 429) but not the
 * figures; these are the self-hosted server's, stated in its README.
 */
export const SUPPORT_LIMITS = {
  /** Files attached to one message. */
  attachmentsPerMessage: 5,
  /** Bytes of one attached file. */
  attachmentBytes: 5 * 1024 * 1024,
  /** Bytes of a whole multipart body (the files and the text fields). */
  multipartBodyBytes: MULTIPART_BODY_BYTES,
  /** Tickets opened plus replies posted per account per window. */
  requestsPerWindow: 20,
  /** Files attached per account per window. */
  attachmentsPerWindow: 20,
  /** The fixed window of both rate limits. */
  windowMs: 3_600_000,
} as const;

/**
 * The file types a ticket accepts, with the leading bytes a file of the type must start with (checked, so a
 * file cannot claim a type it is not); text types must be UTF-8 without NUL bytes instead.
 */
export const ATTACHMENT_TYPES: Readonly<Record<string, { ext: string; magic?: (b: Buffer) => boolean }>> = {
  'image/png': {
    ext: 'png',
    magic: (b) => b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])),
  },
  'image/jpeg': { ext: 'jpg', magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  'image/gif': { ext: 'gif', magic: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  'image/webp': {
    ext: 'webp',
    magic: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  'application/pdf': { ext: 'pdf', magic: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
  'video/mp4': { ext: 'mp4', magic: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp' },
  'text/plain': { ext: 'txt' },
  'text/csv': { ext: 'csv' },
  'application/json': { ext: 'json' },
};
