import { formatIPv4, parseIPv4, parseIPv6 } from './ip-address.js';

/** A refused address range: its first bytes, the prefix length in bits and why it is refused. */
interface Range {
  readonly prefix: Uint8Array;
  readonly bits: number;
  readonly label: string;
}

function range(cidr: string, label: string): Range {
  const [base, bits] = cidr.split('/') as [string, string];
  const prefix = parseIPv4(base) ?? parseIPv6(base);
  if (!prefix) throw new TypeError(`bad range ${cidr}`);
  return { prefix, bits: Number(bits), label };
}

/**
 * IPv4 ranges that are not a public Internet host (IANA special-purpose registry): nothing in them may
 * receive a webhook.
 */
const IPV4_REFUSED: readonly Range[] = [
  range('0.0.0.0/8', '"this network" (0.0.0.0/8)'),
  range('10.0.0.0/8', 'private (10.0.0.0/8)'),
  range('100.64.0.0/10', 'carrier-grade NAT (100.64.0.0/10)'),
  range('127.0.0.0/8', 'loopback (127.0.0.0/8)'),
  range('169.254.0.0/16', 'link-local (169.254.0.0/16)'),
  range('172.16.0.0/12', 'private (172.16.0.0/12)'),
  range('192.0.0.0/24', 'IETF protocol assignments (192.0.0.0/24)'),
  range('192.0.2.0/24', 'documentation (192.0.2.0/24)'),
  range('192.88.99.0/24', '6to4 relay anycast (192.88.99.0/24)'),
  range('192.168.0.0/16', 'private (192.168.0.0/16)'),
  range('198.18.0.0/15', 'benchmarking (198.18.0.0/15)'),
  range('198.51.100.0/24', 'documentation (198.51.100.0/24)'),
  range('203.0.113.0/24', 'documentation (203.0.113.0/24)'),
  range('224.0.0.0/4', 'multicast (224.0.0.0/4)'),
  range('240.0.0.0/4', 'reserved or broadcast (240.0.0.0/4)'),
];

/**
 * Ranges inside IPv6 global unicast (2000::/3) that are still not public hosts. Everything outside 2000::/3
 * (unspecified, loopback, IPv4-compatible, ULA fc00::/7, link-local fe80::/10, site-local, multicast
 * ff00::/8, discard 100::/64, local NAT64 64:ff9b:1::/48) is refused as a whole, except the two forms that
 * embed an IPv4 address and are judged by it: IPv4-mapped ::ffff:0:0/96 and NAT64 64:ff9b::/96.
 */
const IPV6_REFUSED: readonly Range[] = [
  range('2001::/23', 'IETF protocol assignments incl. Teredo (2001::/23)'),
  range('2001:db8::/32', 'documentation (2001:db8::/32)'),
  range('3fff::/20', 'documentation (3fff::/20)'),
  range('5f00::/16', 'segment routing (5f00::/16)'),
];

const MAPPED = range('::ffff:0:0/96', 'IPv4-mapped');
const NAT64 = range('64:ff9b::/96', 'NAT64');
const SIX_TO_FOUR = range('2002::/16', '6to4');
const GLOBAL_UNICAST = range('2000::/3', 'global unicast');

function inRange(bytes: Uint8Array, r: Range): boolean {
  if (bytes.length !== r.prefix.length) return false;
  let bits = r.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (r.prefix[i]! & mask)) return false;
  }
  return true;
}

/** Why an IPv4 address may not receive webhooks, or undefined for a public address. */
export function ipv4Problem(bytes: Uint8Array): string | undefined {
  return IPV4_REFUSED.find((r) => inRange(bytes, r))?.label;
}

/**
 * Why an IPv6 address may not receive webhooks, or undefined for a public address. Addresses that embed
 * an IPv4 address (mapped, NAT64, 6to4) are judged by the embedded one as well.
 */
export function ipv6Problem(bytes: Uint8Array): string | undefined {
  const embedded = (from: number) => bytes.subarray(from, from + 4);
  if (inRange(bytes, MAPPED) || inRange(bytes, NAT64)) {
    const v4 = embedded(12);
    const problem = ipv4Problem(v4);
    const kind = inRange(bytes, MAPPED) ? MAPPED.label : NAT64.label;
    return problem && `${kind} address of ${formatIPv4(v4)}: ${problem}`;
  }
  if (!inRange(bytes, GLOBAL_UNICAST)) return 'not a global unicast IPv6 address';
  const refused = IPV6_REFUSED.find((r) => inRange(bytes, r));
  if (refused) return refused.label;
  if (inRange(bytes, SIX_TO_FOUR)) {
    const v4 = embedded(2);
    const problem = ipv4Problem(v4);
    return problem && `${SIX_TO_FOUR.label} address of ${formatIPv4(v4)}: ${problem}`;
  }
  return undefined;
}

/** Which family an address text is in, with its bytes; undefined when the text is not an IP address. */
export function parseAddress(text: string): { family: 4 | 6; bytes: Uint8Array } | undefined {
  const v4 = parseIPv4(text);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = parseIPv6(text);
  return v6 ? { family: 6, bytes: v6 } : undefined;
}

/**
 * Why an address (text, IPv4 or IPv6) may not receive webhooks, or undefined for a public one. Text that
 * is not an address at all is refused too: the caller expected one.
 */
export function addressProblem(text: string): string | undefined {
  const parsed = parseAddress(text);
  if (!parsed) return `not an IP address: ${text}`;
  return parsed.family === 4 ? ipv4Problem(parsed.bytes) : ipv6Problem(parsed.bytes);
}
