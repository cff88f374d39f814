import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliOptions, cli, tempConfigHome } from './helpers.js';
import { startLocalServer } from './local-server.js';

/**
 * Machine payments from the CLI (spec 5.4) against a real server on its simulated payment network: without
 * an API key a fixed-price read pays only after a yes on a terminal, or with `--pay`; a piped run without
 * `--pay` pays nothing and says how to (exit code 5).
 */
const KEY = `svc_${'d1'.repeat(32)}`;
let base = '';
let close: () => Promise<void> = async () => {};
const home = tempConfigHome();
const anonymous = (extra: Partial<CliOptions> = {}): CliOptions => ({
  configHome: home,
  env: { XSVC_API_KEY: undefined, XSVC_BASE_URL: base, XSVC_PAYMENT_KEY: KEY },
  ...extra,
});

beforeAll(async () => {
  const server = await startLocalServer(KEY);
  base = server.base;
  close = () => server.close();
});
afterAll(() => close());

async function balance(): Promise<string> {
  const r = await fetch(`${base}/api/v1/credits`, { headers: { 'x-api-key': KEY } });
  return ((await r.json()) as { balance: string }).balance;
}

describe('machine payments from the CLI', () => {
  it('pays after a yes on a terminal, and notes the receipt', async () => {
    const before = await balance();
    const r = await cli(['tweets', 'get', '20', '--json'], anonymous({ tty: true, stdin: 'y\n' }));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Pay USD 0.00015');
    expect(r.stderr).toMatch(/Paid USD 0\.00015 \(receipt pay_[0-9a-f]+\)/);
    expect(r.json<{ tweet: { id: string } }>().tweet.id).toBe('20');
    expect(await balance()).toBe(before);
  });

  it('pays nothing when the answer is no', async () => {
    const r = await cli(['users', 'get', 'jack'], anonymous({ tty: true, stdin: 'n\n' }));
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('not paid');
    expect(r.stderr).not.toContain('Paid');
  });

  it('never pays when it cannot ask, unless --pay is given', async () => {
    const piped = await cli(['trends', 'list'], anonymous());
    expect(piped.code).toBe(5);
    expect(piped.stderr).toContain('--pay');
    const paid = await cli(['trends', 'list', '--pay', '--json'], anonymous());
    expect(paid.code).toBe(0);
    expect(paid.stderr).toMatch(/Paid USD 0\.00045/);
    expect(paid.json<{ trends: unknown[] }>().trends.length).toBeGreaterThan(0);
  });

  it('uses credits, not a payment, when an API key is configured', async () => {
    const r = await cli(['users', 'get', 'jack', '--json'], {
      configHome: home,
      env: { XSVC_API_KEY: KEY, XSVC_BASE_URL: base },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('Paid');
  });

  it('says what is missing when no payer credential is known', async () => {
    const r = await cli(['users', 'get', 'jack', '--pay'], {
      configHome: home,
      env: { XSVC_API_KEY: undefined, XSVC_BASE_URL: base, XSVC_PAYMENT_KEY: undefined },
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('XSVC_PAYMENT_KEY');
  });
});
