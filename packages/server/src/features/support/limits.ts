import { FILE_SIGNATURES } from '../../core/file-signatures.js';
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
  'image/png': { ext: 'png', magic: FILE_SIGNATURES['image/png'] },
  'image/jpeg': { ext: 'jpg', magic: FILE_SIGNATURES['image/jpeg'] },
  'image/gif': { ext: 'gif', magic: FILE_SIGNATURES['image/gif'] },
  'image/webp': { ext: 'webp', magic: FILE_SIGNATURES['image/webp'] },
  'application/pdf': { ext: 'pdf', magic: FILE_SIGNATURES['application/pdf'] },
  'video/mp4': { ext: 'mp4', magic: FILE_SIGNATURES['video/mp4'] },
  'text/plain': { ext: 'txt' },
  'text/csv': { ext: 'csv' },
  'application/json': { ext: 'json' },
};
