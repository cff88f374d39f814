import { createHash } from 'node:crypto';
import { HttpError } from '../../core/http/errors.js';
import { ATTACHMENT_TYPES, SUPPORT_LIMITS } from './limits.js';

/** An attached file, read and checked, ready to store. */
export interface CheckedFile {
  filename: string;
  contentType: string;
  bytes: Buffer;
  sha256: string;
}

/** A file name safe to store and to send back in `Content-Disposition`: no paths, no control characters. */
export function safeFilename(name: string, ext: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  const base = [...last]
    .filter((c) => c !== '"' && (c.codePointAt(0) ?? 0) >= 0x20 && c !== '\u007f')
    .join('')
    .trim()
    .slice(0, 200);
  return base && base !== '.' && base !== '..' ? base : `attachment.${ext}`;
}

/** True for UTF-8 text without NUL bytes. */
function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The type of a file: the declared one (parameters dropped), or the one its leading bytes show. */
function typeOf(declared: string, bytes: Buffer): string | undefined {
  const type = declared.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type && type !== 'application/octet-stream') return type;
  for (const [t, info] of Object.entries(ATTACHMENT_TYPES)) if (info.magic?.(bytes)) return t;
  return isText(bytes) ? 'text/plain' : undefined;
}

/**
 * Reads and checks the files of a message: at most {@link SUPPORT_LIMITS.attachmentsPerMessage} (400
 * `invalid_input`), each non-empty and at most {@link SUPPORT_LIMITS.attachmentBytes} (413 `body_too_large`),
 * of an accepted type whose content matches it (415 `unsupported_media_type`). Nothing is stored before
 * every file passes.
 */
export async function checkFiles(files: readonly File[]): Promise<CheckedFile[]> {
  if (files.length > SUPPORT_LIMITS.attachmentsPerMessage)
    throw new HttpError(
      'invalid_input',
      `attachments: at most ${SUPPORT_LIMITS.attachmentsPerMessage} files per message`,
    );
  const out: CheckedFile[] = [];
  for (const file of files) {
    const name = file.name || 'attachment';
    if (file.size > SUPPORT_LIMITS.attachmentBytes)
      throw new HttpError(
        'body_too_large',
        `${name}: files are limited to ${SUPPORT_LIMITS.attachmentBytes} bytes`,
        {
          maxBytes: SUPPORT_LIMITS.attachmentBytes,
        },
      );
    if (file.size === 0) throw new HttpError('invalid_input', `${name}: the file is empty`);
    const bytes = Buffer.from(await file.arrayBuffer());
    const type = typeOf(file.type, bytes);
    const info = type ? ATTACHMENT_TYPES[type] : undefined;
    if (!type || !info)
      throw new HttpError('unsupported_media_type', `${name}: ${type ?? 'this file type'} is not accepted`, {
        accepted: Object.keys(ATTACHMENT_TYPES),
      });
    if (info.magic ? !info.magic(bytes) : !isText(bytes))
      throw new HttpError('unsupported_media_type', `${name}: the content is not ${type}`, {
        accepted: Object.keys(ATTACHMENT_TYPES),
      });
    out.push({
      filename: safeFilename(name, info.ext),
      contentType: type,
      bytes,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  }
  return out;
}
