import { describe, expect, it } from 'vitest';
import { addressProblem } from '../../src/core/ssrf/ip-ranges.js';
import { checkWebhookTarget, type Resolver, UnsafeWebhookUrlError } from '../../src/core/ssrf/target.js';

/** Host names of the tests and what they resolve to; anything else does not resolve. */
const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'dual.example.com': ['2606:2800:220:1:248:1893:25c8:1946', '93.184.216.34'],
  'rebind.example': ['127.0.0.1'],
  'mixed.example': ['93.184.216.34', '10.0.0.5'],
  'mixed6.example': ['2606:2800:220:1::1', 'fd00::5'],
  'v6loop.example': ['::1'],
  'mapped.example': ['::ffff:192.168.0.1'],
  'meta.example': ['169.254.169.254'],
  'cgnat.example': ['100.100.100.100'],
  'zero.example': ['0.0.0.0'],
  'nat64.example': ['64:ff9b::a00:1'],
  '127.0.0.1.nip.io': ['127.0.0.1'],
  'evil.com': ['10.1.2.3'],
  'empty.example': [],
};

const resolver: Resolver = async (host) => {
  const found = DNS[host.replace(/\.$/, '')];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const strict = { allowLoopback: false };
const loopbackAllowed = { allowLoopback: true };

/** Every URL here must be refused with the guard's error (the API turns it into 400 invalid_input). */
const HOSTILE: readonly string[] = [
  // IPv4 literals in every spelling the URL parser accepts
  'https://127.0.0.1/',
  'https://127.1/',
  'https://2130706433/',
  'https://0x7f000001/',
  'https://0177.0.0.1/',
  'https://0x7f.0.0.1./',
  'https://127.0.0.1./hook',
  'https://127.0.0.1%2e/',
  'https://10.0.0.1/',
  'https://10.255.255.255:8443/x',
  'https://172.16.0.1/',
  'https://172.31.255.254/',
  'https://192.168.1.1/',
  'https://169.254.169.254/latest/meta-data/',
  'https://100.64.0.1/',
  'https://100.127.255.255/',
  'https://0.0.0.0/',
  'https://0/',
  'https://224.0.0.1/',
  'https://239.255.255.250/',
  'https://255.255.255.255/',
  'https://240.0.0.1/',
  'https://198.18.0.1/',
  'https://198.19.255.255/',
  'https://192.0.2.1/',
  'https://192.0.0.8/',
  // IPv6 literals, including every form that embeds an IPv4 address
  'https://[::1]/',
  'https://[::]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://[fc00::1]/',
  'https://[fd12:3456::1]/',
  'https://[fe80::1]/',
  'https://[febf::1]/',
  'https://[fec0::1]/',
  'https://[ff02::1]/',
  'https://[100::1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:10.0.0.1]/',
  'https://[::ffff:a9fe:a9fe]/',
  'https://[::127.0.0.1]/',
  'https://[::10.0.0.1]/',
  'https://[::8.8.8.8]/',
  'https://[64:ff9b::10.0.0.1]/',
  'https://[64:ff9b::7f00:1]/',
  'https://[64:ff9b:1::1]/',
  'https://[2002:7f00:1::]/',
  'https://[2002:c0a8:101::1]/',
  'https://[2002:a9fe:a9fe::1]/',
  'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
  'https://[2001:db8::1]/',
  'https://[3fff::1]/',
  // schemes, user info, local names, ports
  'http://example.com/hook',
  'http://127.0.0.1:8080/hook',
  'http://localhost:8080/hook',
  'ftp://example.com/',
  'file:///etc/passwd',
  'gopher://example.com:70/',
  'javascript:alert(1)',
  'not a url',
  'https://user:pass@hooks.example.com/',
  'https://hooks.example.com@127.0.0.1/',
  'https://127.0.0.1@hooks.example.com/',
  'https://hooks.example.com:0/',
  'https://localhost/',
  'https://localhost./',
  'https://LOCALHOST:443/',
  'https://api.localhost/',
  'https://%6c%6fcalhost/',
  'https://intranet/',
  `https://hooks.example.com/${'a'.repeat(2100)}`,
  // host names, judged by EVERY address they resolve to
  'https://rebind.example/',
  'https://mixed.example/',
  'https://mixed6.example/',
  'https://v6loop.example/',
  'https://mapped.example/',
  'https://meta.example/',
  'https://cgnat.example/',
  'https://zero.example/',
  'https://nat64.example/',
  'https://127.0.0.1.nip.io/',
  'https://evil.com\\@127.0.0.1/',
  'https://nxdomain.example/',
  'https://empty.example/',
];

/** Still refused when loopback webhooks are allowed: only http://127.0.0.1 and http://localhost are added. */
const HOSTILE_WITH_LOOPBACK: readonly string[] = [
  'https://127.0.0.1/',
  'https://localhost:8443/',
  'http://127.0.0.2:8080/',
  'http://[::1]:8080/',
  'http://localhost.:8080/',
  'http://10.0.0.1:8080/',
  'http://hooks.example.com/',
  'http://user@127.0.0.1:8080/',
  'http://127.0.0.1:0/',
];

const PUBLIC: readonly [string, string][] = [
  ['https://hooks.example.com/x?y=1', '93.184.216.34'],
  ['https://dual.example.com/', '2606:2800:220:1:248:1893:25c8:1946'],
  ['https://93.184.216.34/', '93.184.216.34'],
  ['https://[2606:4700::1111]/', '2606:4700::1111'],
  ['https://[::ffff:8.8.8.8]/', '::ffff:808:808'],
  ['https://[64:ff9b::8.8.8.8]/', '64:ff9b::808:808'],
  ['https://[2002:808:808::1]/', '2002:808:808::1'],
  ['https://172.32.0.1/', '172.32.0.1'],
  ['https://100.128.0.1/', '100.128.0.1'],
  ['https://198.20.0.1/', '198.20.0.1'],
  ['https://11.0.0.1:8443/', '11.0.0.1'],
  ['https://hooks.example.com./', '93.184.216.34'],
];

describe('SSRF guard', () => {
  it('has a table of at least 40 hostile URLs', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(HOSTILE)('refuses %s', async (url) => {
    await expect(checkWebhookTarget(url, strict, resolver)).rejects.toBeInstanceOf(UnsafeWebhookUrlError);
  });

  it.each(HOSTILE_WITH_LOOPBACK)('refuses %s even with loopback webhooks allowed', async (url) => {
    await expect(checkWebhookTarget(url, loopbackAllowed, resolver)).rejects.toBeInstanceOf(
      UnsafeWebhookUrlError,
    );
  });

  it.each(PUBLIC)('accepts %s and connects to %s', async (url, address) => {
    const target = await checkWebhookTarget(url, strict, resolver);
    expect(target.address).toBe(address);
  });

  it('allows exactly http://127.0.0.1:<port> and http://localhost:<port> when told to, both to 127.0.0.1', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost:3000/', 'http://0x7f.1:9/']) {
      const target = await checkWebhookTarget(url, loopbackAllowed, resolver);
      expect(target).toMatchObject({ kind: 'loopback', address: '127.0.0.1', family: 4 });
    }
  });

  it('resolves once per check and connects to the address it vetted (no second lookup to rebind)', async () => {
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    let calls = 0;
    const rebinding: Resolver = async () => {
      const next = answers[calls++] ?? [];
      return next.map((address) => ({ address, family: 4 as const }));
    };
    const first = await checkWebhookTarget('https://flip.example.com/', strict, rebinding);
    expect(first.address).toBe('93.184.216.34');
    expect(calls).toBe(1);
    // The next attempt re-resolves, sees the private answer and refuses it.
    await expect(checkWebhookTarget('https://flip.example.com/', strict, rebinding)).rejects.toThrow(
      /loopback/,
    );
    expect(calls).toBe(2);
  });

  it('names the refused range in the message', async () => {
    await expect(checkWebhookTarget('https://10.1.1.1/', strict, resolver)).rejects.toThrow(
      /private \(10\.0\.0\.0\/8\)/,
    );
    await expect(checkWebhookTarget('https://[::ffff:10.0.0.1]/', strict, resolver)).rejects.toThrow(
      /IPv4-mapped address of 10\.0\.0\.1/,
    );
  });

  it('classifies range edges exactly', () => {
    expect(addressProblem('172.15.255.255')).toBeUndefined();
    expect(addressProblem('172.16.0.0')).toMatch(/private/);
    expect(addressProblem('100.63.255.255')).toBeUndefined();
    expect(addressProblem('100.64.0.0')).toMatch(/carrier-grade/);
    expect(addressProblem('198.17.255.255')).toBeUndefined();
    expect(addressProblem('198.18.0.0')).toMatch(/benchmarking/);
    expect(addressProblem('223.255.255.255')).toBeUndefined();
    expect(addressProblem('224.0.0.0')).toMatch(/multicast/);
    expect(addressProblem('2001:200::1')).toBeUndefined();
    expect(addressProblem('2001:1ff:ffff::1')).toMatch(/IETF/);
    expect(addressProblem('fe80::1%eth0')).toMatch(/not an IP address/);
    expect(addressProblem('1:2:3:4:5:6:7:8:9')).toMatch(/not an IP address/);
  });
});
