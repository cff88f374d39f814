/**
 * Hex encoding without `Buffer`, shared by both builds: the Web build cannot use `Buffer`, and decoding the
 * header once into bytes keeps hex strings off the verification hot path.
 */

// Nibble value of each ASCII code (both cases), -1 for anything that is not a hex digit.
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[48 + i] = i;
for (let i = 0; i < 6; i++) {
  NIBBLE[65 + i] = 10 + i;
  NIBBLE[97 + i] = 10 + i;
}

const BYTE_TO_HEX: string[] = [];
for (let i = 0; i < 256; i++) BYTE_TO_HEX.push(i.toString(16).padStart(2, '0'));

/** Decodes `length` bytes of hex starting at `start`; `undefined` when any character is not a hex digit. */
export function decodeHex(text: string, start: number, length: number): Uint8Array<ArrayBuffer> | undefined {
  const out = new Uint8Array(length);
  for (let i = 0, j = start; i < length; i++, j += 2) {
    const hi = NIBBLE[text.charCodeAt(j)] ?? -1;
    const lo = NIBBLE[text.charCodeAt(j + 1)] ?? -1;
    if ((hi | lo) < 0) return undefined;
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** True when `text` is exactly `length` hex digits (either case). */
export function isHex(text: string, length: number): boolean {
  if (text.length !== length) return false;
  for (let i = 0; i < length; i++) {
    if ((NIBBLE[text.charCodeAt(i)] ?? -1) < 0) return false;
  }
  return true;
}

/** Lower-case hex of `bytes`, the form the service sends. */
export function encodeHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += BYTE_TO_HEX[bytes[i]!];
  return out;
}
