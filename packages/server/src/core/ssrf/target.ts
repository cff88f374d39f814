import { lookup } from 'node:dns/promises';
import { addressProblem, parseAddress } from './ip-ranges.js';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has (the guard checks them all). Injectable for tests. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (getaddrinfo, as a normal connection would use), every address, in its order. */
export const systemResolver: Resolver = async (hostname) => {
  const all = await lookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** What the guard allows besides public https. */
export interface TargetPolicy {
  /**
   * `XSVC_ALLOW_LOOPBACK_WEBHOOKS`: also `http://127.0.0.1:<port>` and `http://localhost:<port>` (tests and
   * local development), and nothing else.
   */
  readonly allowLoopback: boolean;
}

/** A refused webhook URL: the reason is safe to show to the caller. */
export class UnsafeWebhookUrlError extends Error {
  override readonly name = 'UnsafeWebhookUrlError';
}

/** A URL that passed the checks that need no DNS. */
export interface VettedUrl {
  readonly url: URL;
  /** `loopback`: the allowed local-development target; `ip`: an IP literal; `name`: a host name to resolve. */
  readonly kind: 'loopback' | 'ip' | 'name';
  /** The host without brackets. */
  readonly host: string;
  readonly port: number;
}

/** Where one attempt connects: the vetted address, and the name for TLS and the Host header. */
export interface Target extends VettedUrl {
  readonly address: string;
  readonly family: 4 | 6;
}

const MAX_URL_LENGTH = 2048;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);

/**
 * The checks that need no DNS: https only (plain http only to the loopback targets the policy allows), no
 * user info, no local names, and IP literals (in any spelling the URL parser accepts: it normalizes
 * decimal, octal and hex IPv4 and keeps IPv6 in brackets) only when public.
 */
export function vetWebhookUrl(raw: string, policy: TargetPolicy): VettedUrl {
  if (raw.length > MAX_URL_LENGTH) throw refuse(`the URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('the URL is not valid');
  }
  if (url.username !== '' || url.password !== '') throw refuse('the URL must not carry user info');
  if (url.port === '0') throw refuse('port 0 is not a valid port');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (url.protocol === 'http:') {
    if (policy.allowLoopback && LOOPBACK_HOSTS.has(url.hostname))
      return { url, kind: 'loopback', host: url.hostname, port };
    if (LOOPBACK_HOSTS.has(url.hostname))
      throw refuse(
        'the URL must be https; for a receiver on this machine during development, start the server with XSVC_ALLOW_LOOPBACK_WEBHOOKS=1',
      );
    throw refuse('the URL must be https');
  }
  if (url.protocol !== 'https:') throw refuse('the URL must be https');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') throw refuse('the URL has no host');
  if (parseAddress(host)) {
    const problem = addressProblem(host);
    if (problem) throw refuse(`the URL points at a refused address: ${problem}`);
    return { url, kind: 'ip', host, port };
  }
  const name = host.replace(/\.$/, '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost'))
    throw refuse('the URL points at this machine (localhost)');
  if (!name.includes('.')) throw refuse('the URL host must be a fully qualified domain name');
  return { url, kind: 'name', host, port };
}

/**
 * Resolves a vetted URL for one attempt and checks EVERY address the name has (one private address is
 * enough to refuse: a resolver may hand out any of them). The caller connects to the returned address, so
 * no second lookup can answer differently (DNS rebinding).
 */
export async function resolveTarget(vetted: VettedUrl, resolver: Resolver): Promise<Target> {
  const known = targetWithoutDns(vetted);
  if (known) return known;
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await resolver(vetted.host);
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw refuse(`the URL host does not resolve${code ? ` (${code})` : ''}`);
  }
  if (addresses.length === 0) throw refuse('the URL host does not resolve');
  for (const a of addresses) {
    const problem = addressProblem(a.address);
    if (problem) throw refuse(`the URL host resolves to a refused address: ${problem}`);
  }
  const first = addresses[0]!;
  return { ...vetted, address: first.address, family: first.family };
}

/** The targets of vetted addresses (the same every time: a webhook's deliveries share one). */
const knownTargets = new WeakMap<VettedUrl, Target>();

/**
 * The target of a vetted URL that needs no DNS (the allowed loopback, or an IP literal), at once; undefined
 * for a host name, which {@link resolveTarget} resolves. Kept per vetted URL: it is the same every time.
 */
export function targetWithoutDns(vetted: VettedUrl): Target | undefined {
  if (vetted.kind === 'name') return undefined;
  let target = knownTargets.get(vetted);
  if (!target) {
    target =
      vetted.kind === 'loopback'
        ? { ...vetted, address: '127.0.0.1', family: 4 }
        : { ...vetted, address: vetted.host, family: parseAddress(vetted.host)?.family ?? 4 };
    knownTargets.set(vetted, target);
  }
  return target;
}

/** Both steps: the URL checks, then resolution and the check of every address. */
export async function checkWebhookTarget(
  raw: string,
  policy: TargetPolicy,
  resolver: Resolver,
): Promise<Target> {
  return resolveTarget(vetWebhookUrl(raw, policy), resolver);
}

function refuse(message: string): UnsafeWebhookUrlError {
  return new UnsafeWebhookUrlError(message);
}
