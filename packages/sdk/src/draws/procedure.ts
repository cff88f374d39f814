/**
 * The verifiable draw procedure `xsvc-draw-v1`: how a draw's winners follow from its seed and its entries,
 * written once here and used by the server that draws and by anyone who checks (`verifyDraw`). Web Crypto
 * only, so it runs in Node, Deno, Bun, Workers and browsers. Every step is spelled out in
 * docs/guides/draws.md so that it can be re-implemented in any language.
 */

/** The name of this procedure, as a draw record states it. */
export const DRAW_PROCEDURE = 'xsvc-draw-v1';

/**
 * The procedure of a draw the organiser committed to (`xsvc-draw-v2`): `xsvc-draw-v1` run on
 * {@link committedSeed}, which mixes the server's seed, hashed and shown to the organiser before the draw,
 * with the organiser's entropy, given only when the draw runs.
 */
export const COMMITTED_DRAW_PROCEDURE = 'xsvc-draw-v2';

/** What the procedure reads of one entry: its place in the list, its ids, and whether it was eligible. */
export interface DrawEntryFacts {
  /** Order in which the entry was read, from 1. */
  readonly position: number;
  readonly tweetId: string;
  readonly authorId: string;
  /** Why the entry is not eligible; absent or empty when it is. */
  readonly reason?: string | undefined;
}

const encoder = new TextEncoder();

function toHex(bytes: ArrayBuffer | Uint8Array): string {
  let out = '';
  for (const b of new Uint8Array(bytes)) out += b.toString(16).padStart(2, '0');
  return out;
}

/** The bytes of a hex string (even length, 0-9 a-f), or a TypeError. */
export function fromHex(hex: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new TypeError('expected an even number of hex digits');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** SHA-256 of `data` (text as UTF-8), lowercase hex. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  return toHex(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

/** The seed's commitment: SHA-256 of the seed's 32 bytes (not of its hex text), lowercase hex. */
export function seedHash(seedHex: string): Promise<string> {
  return sha256Hex(fromHex(seedHex));
}

/** The commitment to the organiser's entropy: SHA-256 of its UTF-8 text, lowercase hex. */
export function entropyHash(entropy: string): Promise<string> {
  return sha256Hex(entropy);
}

/**
 * The seed a committed draw (`xsvc-draw-v2`) picks its winners with: SHA-256 of the server seed's 32 bytes
 * followed by the organiser's entropy as UTF-8, as 64 lowercase hex digits. Neither party can steer it:
 * the server's seed was fixed (its hash shown) before the organiser chose the entropy, and the entropy is
 * unknown to the server until the draw runs.
 */
export async function committedSeed(seedHex: string, entropy: string): Promise<string> {
  const seed = fromHex(seedHex);
  const text = encoder.encode(entropy);
  const bytes = new Uint8Array(seed.length + text.length);
  bytes.set(seed, 0);
  bytes.set(text, seed.length);
  return sha256Hex(bytes);
}

/** A new seed: 32 bytes from the platform's cryptographic random source, as 64 lowercase hex digits. */
export function newSeed(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * The entry list as the procedure hashes it: one line per entry, in position order, of four fields
 * separated by tabs and ended by a line feed: position (decimal), reply id, author id, and `valid` or the
 * reason the entry was excluded.
 */
export function entryListText(entries: readonly DrawEntryFacts[]): string {
  let text = '';
  for (const e of [...entries].sort((a, b) => a.position - b.position)) {
    text += `${e.position}\t${e.tweetId}\t${e.authorId}\t${e.reason ? e.reason : 'valid'}\n`;
  }
  return text;
}

/** SHA-256 (hex) of {@link entryListText}. */
export function entriesHash(entries: readonly DrawEntryFacts[]): Promise<string> {
  return sha256Hex(entryListText(entries));
}

/** JSON with object keys sorted (by UTF-16 code units, as `Array.prototype.sort`) and no spaces. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 (hex) of the draw request as run (tweet URL, counts and filters), as {@link canonicalJson}. */
export function filtersHash(filters: Readonly<Record<string, unknown>>): Promise<string> {
  return sha256Hex(canonicalJson(filters));
}

/**
 * The random index stream of a seed: the k-th 32-bit number (k = 0, 1, 2, …) is the first 4 bytes, big
 * endian, of HMAC-SHA256(key = the seed's 32 bytes, message = k in decimal ASCII). An index below `n` is
 * drawn by rejection sampling: a number at or above 2^32 - (2^32 mod n) is skipped (it would favour the
 * low indexes), else the index is the number mod n. Every number drawn, kept or skipped, uses up one k.
 */
export class SeededIndexes {
  private counter = 0;

  private constructor(private readonly key: CryptoKey) {}

  static async of(seedHex: string): Promise<SeededIndexes> {
    const key = await crypto.subtle.importKey(
      'raw',
      fromHex(seedHex) as Uint8Array<ArrayBuffer>,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    return new SeededIndexes(key);
  }

  /** An index in [0, n), for 1 <= n <= 2^32. */
  async below(n: number): Promise<number> {
    if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError(`no index below ${n}`);
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const mac = await crypto.subtle.sign('HMAC', this.key, encoder.encode(String(this.counter++)));
      const x = new DataView(mac).getUint32(0, false);
      if (x < limit) return x % n;
    }
  }
}

/**
 * The winners (then backups) of a draw, in order: the candidates are the eligible entries in position
 * order; each pick takes the candidate at the next seeded index below the number of candidates left, then
 * removes every candidate by the winner's author (nobody wins twice), until `count` picks or no candidate.
 */
export async function drawPicks<E extends { readonly authorId: string }>(
  seedHex: string,
  candidates: readonly E[],
  count: number,
): Promise<E[]> {
  const indexes = await SeededIndexes.of(seedHex);
  let remaining = [...candidates];
  const picks: E[] = [];
  while (picks.length < count && remaining.length > 0) {
    const pick = remaining[await indexes.below(remaining.length)] as E;
    picks.push(pick);
    remaining = remaining.filter((e) => e.authorId !== pick.authorId);
  }
  return picks;
}
