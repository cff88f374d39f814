import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mockError } from '@xsvc/sdk/testing';
import { HttpResponse, http } from 'msw';
import { afterAll, describe, expect, it } from 'vitest';
import { api, BASE, cli, KEY, serveMockedApi, V1 } from './helpers.js';

serveMockedApi();

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

/** An empty config home, removed after the tests. */
function emptyHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'xsvc-whoami-'));
  homes.push(home);
  return home;
}

/** A config home holding one profile `work` with its own key, current. */
function configWithProfile(key: string): string {
  const home = emptyHome();
  mkdirSync(join(home, 'xsvc'));
  writeFileSync(
    join(home, 'xsvc', 'config.json'),
    JSON.stringify({ currentProfile: 'work', profiles: { work: { apiKey: key, baseUrl: BASE } } }),
  );
  return home;
}

describe('whoami and auth status', () => {
  it('show the account, plan, masked key, base URL and profile, and where the key and URL came from', async () => {
    api.use(
      http.get(`${V1}/account`, () =>
        HttpResponse.json({
          plan: 'active',
          monitorsUsed: 2,
          monitorsAllowed: Number.MAX_SAFE_INTEGER,
          monitorBilling: {
            activeDailyEstimate: '504',
            activeHourlyBurn: '21',
            creditsPerActiveMonitorDay: '504',
            creditsPerActiveMonitorHour: '21',
            eventsIncluded: true,
            instantCheckIntervalSeconds: 1,
            unlimitedSlots: true,
          },
          creditInfo: {
            balance: '12500',
            lifetimePurchased: '20000',
            lifetimeUsed: '7500',
            autoTopupEnabled: false,
            autoTopupAmountDollars: 0,
            autoTopupThreshold: '0',
          },
          xUsername: 'xsvc_demo',
        }),
      ),
    );
    const res = await cli(['whoami']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('@xsvc_demo');
    expect(res.stdout).toMatch(/Plan\s+active/);
    expect(res.stdout).toMatch(/Credits\s+12,500\n/);
    expect(res.stdout).toContain('svc_…9f2a, from XSVC_API_KEY (environment)');
    expect(res.stdout).toContain(`${BASE}, from XSVC_BASE_URL`);
    expect(res.stdout).not.toContain(KEY);
    const status = await cli(['auth', 'status', '--json']);
    expect(status.code).toBe(0);
    expect(status.json()).toMatchObject({
      account: 'xsvc_demo',
      plan: 'active',
      key: 'svc_…9f2a',
      keySource: 'XSVC_API_KEY (environment)',
      baseUrl: BASE,
      baseUrlSource: 'XSVC_BASE_URL',
      profile: 'default',
    });
  });

  it('name the profile and its config file when the key comes from there', async () => {
    const home = configWithProfile(`svc_${'cd'.repeat(31)}7e11`);
    const res = await cli(['whoami', '--json'], {
      configHome: home,
      env: { XSVC_API_KEY: undefined, XSVC_BASE_URL: undefined },
    });
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({
      key: 'svc_…7e11',
      keySource: `profile "work" in ${join(home, 'xsvc', 'config.json')}`,
      baseUrlSource: 'profile',
      profile: 'work',
    });
  });

  it('without a key, exit 4 saying how to log in', async () => {
    const home = emptyHome();
    const res = await cli(['whoami'], { configHome: home, env: { XSVC_API_KEY: undefined } });
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('no API key for profile "default"');
    expect(res.stderr).toContain('xsvc login');
  });

  it('a refused key (401) says where the key came from, for whoami and for any command', async () => {
    api.use(http.get(`${V1}/account`, () => mockError(401, 'unauthenticated')));
    const res = await cli(['whoami']);
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('refused the key svc_…9f2a from XSVC_API_KEY (environment)');
    const home = configWithProfile(`svc_${'cd'.repeat(31)}7e11`);
    api.use(http.get(`${V1}/x/users/:id`, () => mockError(401, 'unauthenticated')));
    const get = await cli(['users', 'get', 'jack'], {
      configHome: home,
      env: { XSVC_API_KEY: undefined, XSVC_BASE_URL: undefined },
    });
    expect(get.code).toBe(4);
    expect(get.stderr).toContain(`from profile "work" in ${join(home, 'xsvc', 'config.json')}`);
    expect(get.stderr).toContain('xsvc login --profile work');
  });
});
