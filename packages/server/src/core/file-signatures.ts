/**
 * The leading bytes a file of each type starts with: how the server checks that an uploaded or downloaded
 * file is what it claims to be (support attachments, media sent on to X). A type absent here has no
 * signature to check.
 */
export const FILE_SIGNATURES = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  'application/pdf': (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
  'video/mp4': (b) => b.subarray(4, 8).toString('latin1') === 'ftyp',
  'video/quicktime': (b) => ['ftyp', 'moov', 'mdat', 'wide'].includes(b.subarray(4, 8).toString('latin1')),
} as const satisfies Record<string, (b: Buffer) => boolean>;

/** Whether `bytes` start as a file of `type` does; false for a type without a signature here. */
export function hasSignature(type: string, bytes: Buffer): boolean {
  return Object.hasOwn(FILE_SIGNATURES, type)
    ? FILE_SIGNATURES[type as keyof typeof FILE_SIGNATURES](bytes)
    : false;
}
