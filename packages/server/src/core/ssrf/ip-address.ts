/**
 * Strict parsers for IP address text as it reaches the SSRF guard: a WHATWG-normalized URL host (which has
 * already turned decimal, octal, hex and short IPv4 spellings into dotted decimal) or an address returned
 * by the resolver. Anything else is not an address, and the guard treats it as a host name.
 */

/** An IPv4 address in dotted decimal (`a.b.c.d`, each 0-255, no leading zeros beyond a single `0`). */
export function parseIPv4(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i]!;
    if (!/^(0|[1-9]\d{0,2})$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out[i] = n;
  }
  return out;
}

/**
 * An IPv6 address (with or without surrounding brackets) as 16 bytes: `::` compression and a dotted IPv4
 * tail are understood; a zone id (`%eth0`) is refused, because it names an interface of this machine.
 */
export function parseIPv6(input: string): Uint8Array | undefined {
  const text = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  if (text.length === 0 || text.length > 45 || !/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const total = head.length + tail.length;
  if (halves.length === 1 ? total !== 8 : total > 7) return undefined;
  const words = [...head, ...new Array<number>(8 - total).fill(0), ...tail];
  const out = new Uint8Array(16);
  words.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

/** The 16-bit groups of one side of `::`; a dotted IPv4 may end the address and counts as two groups. */
function groups(side: string): number[] | undefined {
  if (side === '') return [];
  const parts = side.split(':');
  const words: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (i === parts.length - 1 && p.includes('.')) {
      const v4 = parseIPv4(p);
      if (!v4) return undefined;
      words.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      continue;
    }
    if (!/^[0-9a-fA-F]{1,4}$/.test(p)) return undefined;
    words.push(Number.parseInt(p, 16));
  }
  return words;
}

/** Dotted decimal text of 4 bytes. */
export function formatIPv4(bytes: Uint8Array): string {
  return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
}
