import { randomBytes } from 'node:crypto';

/** Crockford's base-32 alphabet: no I, L, O or U, so a public id read aloud is not mistaken. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A new public ticket id (`TCK-` and 8 random base-32 characters, 40 bits). */
export function newPublicId(): string {
  const bytes = randomBytes(8);
  let out = '';
  for (const b of bytes) out += ALPHABET[b & 31];
  return `TCK-${out}`;
}

/** A new attachment id (`att_` and a big integer). */
export function newAttachmentId(id: string): string {
  return `att_${id}`;
}
